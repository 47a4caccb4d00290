"""The window ping (開放日に知らせる) on PostgreSQL: kept only for a banquet refused for its
window, told at the opening instant to each asker in the order they asked, once; dropped
pings are never told."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta

import pytest

from core.engine import HoldEngine
from core.model import Venue
from core.notices import Notice
from core.pings import PingAnswer, PingStatus, WindowPing
from core.results import Code, Refused, RequestAnswer
from core.rules.deadlines import banquet_opens_at
from tests.support import factories
from tests.support.factories import JST, MANAGER, NOW, SALES, request

SATURDAY = date(2027, 9, 4)  # a wedding-priority day: banquets open 90 days before
OPENS = datetime(2027, 6, 6, 0, 0, tzinfo=JST)  # venue-local midnight, 90 days before
OTHER, THIRD = "U0SALES002", "U0SALES003"


@pytest.fixture
def venue(engine: HoldEngine) -> Venue:
    return engine.save_venue(factories.venue(), now=NOW)


def asked(engine: HoldEngine, venue: Venue, who: str, at: datetime, **fields: object) -> WindowPing:
    req = replace(
        request(kind="banquet", day=SATURDAY, start="18:00", end="21:00", salesperson=who),
        guests=80,
        **fields,  # type: ignore[arg-type]
    )
    answer = engine.pings.add(venue.id, req, asker=who, now=at)
    assert isinstance(answer, PingAnswer) and not answer.replayed, answer
    return answer.ping


def id_of(notice: Notice) -> int:
    return notice.id


def window_dms(engine: HoldEngine, venue: Venue) -> list[tuple[str, int]]:
    rows = [n for n in engine.delivery.notices(venue.id) if n.kind == "window_open"]
    return [(n.recipient, n.payload["ping"]["id"]) for n in sorted(rows, key=id_of)]


def test_the_window_opens_at_the_instant_the_refusal_states(
    engine: HoldEngine, venue: Venue
) -> None:
    refused = engine.request(venue.id, request(kind="banquet", day=SATURDAY), now=NOW)
    assert isinstance(refused, Refused) and refused.code is Code.BANQUET_NOT_OPEN
    assert refused.opens_at == OPENS == banquet_opens_at(SATURDAY, venue.policy, venue.tz)
    ping = asked(engine, venue, SALES, NOW)
    assert ping.opens_at == OPENS and ping.status is PingStatus.WAITING
    assert (ping.request.guests, ping.request.customer[:2]) == (80, "顧客")


def test_each_asker_is_told_at_the_opening_instant_in_the_order_they_asked_once(
    engine: HoldEngine, venue: Venue
) -> None:
    first = asked(engine, venue, OTHER, NOW)
    second = asked(engine, venue, SALES, NOW + timedelta(minutes=5))
    third = asked(engine, venue, THIRD, NOW + timedelta(minutes=9), room_id="sakura")
    before = engine.pings.deliver_due(venue.id, now=OPENS - timedelta(seconds=1))
    assert before == [] and window_dms(engine, venue) == []

    sent = engine.pings.deliver_due(venue.id, now=OPENS)

    assert isinstance(sent, list)
    assert [p.id for p in sent] == [first.id, second.id, third.id]
    assert window_dms(engine, venue) == [(OTHER, first.id), (SALES, second.id), (THIRD, third.id)]
    assert engine.pings.deliver_due(venue.id, now=OPENS + timedelta(minutes=1)) == []
    assert len(window_dms(engine, venue)) == 3
    assert engine.pings.listing(venue.id) == []
    told = engine.pings.listing(venue.id, everything=True)
    assert {p.status for p in told} == {PingStatus.SENT}
    # the DM carries the request as asked, with the rooms' names for its line
    row = min((n for n in engine.delivery.notices(venue.id) if n.kind == "window_open"), key=id_of)
    assert row.payload["room_names"] == {"hoo": "鳳凰の間"}
    assert row.payload["ping"]["request"]["guests"] == 80


def test_a_dropped_ping_is_not_told_and_only_its_asker_or_a_manager_drops(
    engine: HoldEngine, venue: Venue
) -> None:
    mine = asked(engine, venue, SALES, NOW)
    theirs = asked(engine, venue, OTHER, NOW)
    refused = engine.pings.drop(venue.id, mine.id, actor=OTHER, now=NOW)
    assert isinstance(refused, Refused) and refused.code is Code.NOT_AUTHORIZED
    dropped = engine.pings.drop(venue.id, mine.id, actor=SALES, now=NOW)
    assert isinstance(dropped, WindowPing) and dropped.status is PingStatus.DROPPED
    again = engine.pings.drop(venue.id, mine.id, actor=SALES, now=NOW)
    assert isinstance(again, Refused) and again.code is Code.PING_NOT_FOUND
    by_manager = engine.pings.drop(venue.id, theirs.id, actor=MANAGER, now=NOW)
    assert isinstance(by_manager, WindowPing) and by_manager.dropped_by == MANAGER

    assert engine.pings.deliver_due(venue.id, now=OPENS) == []
    assert window_dms(engine, venue) == []


def test_asking_the_same_again_keeps_one_ping(engine: HoldEngine, venue: Venue) -> None:
    ping = asked(engine, venue, SALES, NOW)
    again = engine.pings.add(venue.id, ping.request, asker=SALES, now=NOW + timedelta(hours=1))
    assert isinstance(again, PingAnswer) and again.replayed and again.ping.id == ping.id
    assert [p.id for p in engine.pings.listing(venue.id, asker=SALES)] == [ping.id]


def test_a_ping_is_refused_where_it_makes_no_sense_saying_what_to_do(
    engine: HoldEngine, venue: Venue
) -> None:
    def ping(req_day: date, kind: str, at: datetime = NOW, room: str = "hoo") -> Refused:
        req = request(kind=kind, day=req_day, room=room)
        answer = engine.pings.add(venue.id, req, asker=SALES, now=at)
        assert isinstance(answer, Refused), answer
        return answer

    assert ping(factories.DAY, "banquet").code is Code.NOT_PRIORITY_DAY  # a Wednesday
    assert ping(SATURDAY, "wedding").code is Code.WINDOW_OPEN  # weddings: any date
    open_now = ping(SATURDAY, "banquet", at=OPENS)
    assert open_now.code is Code.WINDOW_OPEN and open_now.opens_at == OPENS
    assert ping(SATURDAY, "banquet", room="nowhere").code is Code.UNKNOWN_ROOM
    assert engine.pings.listing(venue.id, everything=True) == []
    # and the request it would have been is accepted now, as the refusal says
    held = engine.request(venue.id, request(kind="banquet", day=SATURDAY), now=OPENS)
    assert isinstance(held, RequestAnswer)


def test_pings_are_the_venues_own(engine: HoldEngine, venue: Venue) -> None:
    other = engine.save_venue(factories.venue(), now=NOW)
    ping = asked(engine, venue, SALES, NOW)
    assert engine.pings.listing(other.id, everything=True) == []
    refused = engine.pings.drop(other.id, ping.id, actor=MANAGER, now=NOW)
    assert isinstance(refused, Refused) and refused.code is Code.PING_NOT_FOUND
    assert engine.pings.deliver_due(other.id, now=OPENS) == []
    assert [p.id for p in engine.pings.listing(venue.id)] == [ping.id]
