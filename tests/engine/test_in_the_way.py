"""Everyone in a request's way, named with rank, salesperson and deadline, and a conflict that
only the turnover (転換) makes, on PostgreSQL (issue 14: "2番手 · 1番手は（なし）")."""

from __future__ import annotations

from core.engine import HoldEngine
from core.model import Status
from core.results import Code, Preview, Refused, RequestAnswer
from tests.support import factories
from tests.support.factories import NOW, request

FIRST, SECOND, THIRD = "U0SALES001", "U0SALES002", "U0SALES003"


def test_the_third_is_told_the_first_and_the_second_and_turnover_is_said(
    engine: HoldEngine,
) -> None:
    venue = engine.save_venue(factories.venue(rooms=factories.rooms(hoo=90)), now=NOW)
    first = engine.request(
        venue.id, request(start="11:00", end="15:00", salesperson=FIRST), now=NOW
    )
    second = engine.request(
        venue.id, request(start="12:00", end="15:30", salesperson=SECOND), now=NOW
    )
    assert isinstance(first, RequestAnswer) and isinstance(second, RequestAnswer)
    assert second.rank == 2

    # 16:30-20:00 overlaps no event; the 2nd's 15:30 end + 90 min turnover reaches 17:00
    later = request(start="16:30", end="20:00", salesperson=THIRD)
    preview = engine.preview(venue.id, later, now=NOW)
    assert isinstance(preview, Preview) and preview.rank == 2
    assert preview.ahead == ()  # nobody blocking: it waits behind a 2nd
    assert [(w.hold.id, w.hold.rank, w.turnover_min) for w in preview.in_way] == [
        (second.hold.id, 2, 90)
    ]
    queued = engine.request(venue.id, later, now=NOW)
    assert isinstance(queued, RequestAnswer) and queued.rank == 2
    assert [(w.hold.id, w.turnover_min) for w in queued.in_way] == [(second.hold.id, 90)]

    # a third for the same time: refused, naming the 1st AND the 2nd (and not the one at 16:30)
    third = engine.request(
        venue.id, request(start="12:00", end="14:00", salesperson=THIRD), now=NOW
    )
    assert isinstance(third, Refused) and third.code is Code.RANK_TOO_LOW
    named = [(w.hold.id, w.hold.rank, w.hold.salesperson, w.turnover_min) for w in third.in_way]
    assert named == [(first.hold.id, 1, FIRST, None), (second.hold.id, 2, SECOND, None)]
    assert third.in_way[0].hold.expires_at == first.expires_at
    assert [h.id for h in third.holders] == [first.hold.id]  # as before: the blocking ones


def test_turnover_after_a_confirmed_hold_is_said_in_its_refusal(engine: HoldEngine) -> None:
    venue = engine.save_venue(factories.venue(rooms=factories.rooms(hoo=90)), now=NOW)
    booked = engine.request(venue.id, request(start="11:00", end="15:00"), now=NOW)
    assert isinstance(booked, RequestAnswer)
    engine.confirm(venue.id, booked.hold.id, actor=factories.SALES, now=NOW)
    # ends 15:00 + 90 = 16:30: a 16:00 start meets only the turnover
    refused = engine.request(venue.id, request(start="16:00", end="19:00"), now=NOW)
    assert isinstance(refused, Refused) and refused.code is Code.CONFIRMED_CONFLICT
    (only,) = refused.in_way
    assert (only.hold.id, only.hold.status, only.turnover_min) == (
        booked.hold.id,
        Status.CONFIRMED,
        90,
    )
    # a request ending in the other's turnover: its own room's turnover is what meets
    before = engine.request(venue.id, request(room="hoo", start="08:00", end="10:00"), now=NOW)
    assert isinstance(before, Refused) and before.in_way[0].turnover_min == 90
    overlapping = engine.request(venue.id, request(start="14:00", end="18:00"), now=NOW)
    assert isinstance(overlapping, Refused) and overlapping.in_way[0].turnover_min is None
