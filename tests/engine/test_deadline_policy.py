"""A venue closed on Wednesdays whose deadlines land at 19:00: first deadlines, promotion,
extension and the sweep, on PostgreSQL (docs/rules.md, Deadlines)."""

from __future__ import annotations

from datetime import datetime, timedelta

from core.engine import HoldEngine
from core.model import Kind, Policy, Status
from core.results import ExtendAnswer, ReleaseAnswer, RequestAnswer, Swept
from tests.support import factories
from tests.support.factories import JST, SALES, request

OTHER = "U0SALES002"
POLICY = Policy(deadline_time=19 * 60, closed_weekdays=frozenset({2}))  # 水曜定休, 19:00


def at(month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2027, month, day, hour, minute, tzinfo=JST)


def test_first_deadline_extension_promotion_and_sweep_follow_the_venues_policy(
    engine: HoldEngine,
) -> None:
    venue = engine.save_venue(factories.venue(POLICY), now=at(2, 25, 10))
    # Thursday 10:00 + 3 days = Sunday: lands at 19:00
    first = engine.request(venue.id, request(kind=Kind.BANQUET), now=at(2, 25, 10))
    assert isinstance(first, RequestAnswer)
    assert first.expires_at == at(2, 28, 19)
    assert first.hold.expires_at == at(2, 28, 19)
    second = engine.request(
        venue.id, request(kind=Kind.BANQUET, salesperson=OTHER), now=at(2, 25, 11)
    )
    assert isinstance(second, RequestAnswer) and second.rank == 2

    # ExtendAnswer from Sunday 19:00 by 3 days: Wednesday is closed, so Thursday 19:00
    extended = engine.extend(venue.id, first.hold.id, actor=SALES, now=at(2, 26, 9))
    assert isinstance(extended, ExtendAnswer)
    assert extended.hold.expires_at == at(3, 4, 19)
    told = [n for n in engine.notices(venue.id) if n.kind == "extended"]
    assert datetime.fromisoformat(told[0].payload["ahead"]["expires_at"]) == at(3, 4, 19)

    # ReleaseAnswer on Sunday 11:00: the 2nd moves up, 3 days on is Wednesday → Thursday 19:00
    released = engine.release(venue.id, first.hold.id, actor=SALES, now=at(2, 28, 11))
    assert isinstance(released, ReleaseAnswer)
    (promoted,) = released.promoted
    assert promoted.id == second.hold.id and promoted.expires_at == at(3, 4, 19)
    stored = engine.hold(venue.id, second.hold.id)
    assert getattr(stored, "expires_at", None) == at(3, 4, 19)

    # The sweep and confirm agree at 19:00 Thursday, not at the minute it was counted from
    swept = engine.sweep(venue.id, now=at(3, 4, 19) - timedelta(microseconds=1))
    assert isinstance(swept, Swept) and swept.expired == ()
    swept = engine.sweep(venue.id, now=at(3, 4, 19))
    assert isinstance(swept, Swept) and swept.expired == (second.hold.id,)
    gone = engine.hold(venue.id, second.hold.id)
    assert getattr(gone, "status", None) is Status.EXPIRED


def test_a_venue_without_the_policy_counts_to_the_minute(engine: HoldEngine) -> None:
    venue = engine.save_venue(factories.venue(), now=at(2, 25, 10))
    first = engine.request(venue.id, request(kind=Kind.BANQUET), now=at(2, 28, 10, 31))
    assert isinstance(first, RequestAnswer)
    assert first.expires_at == at(3, 3, 10, 31)  # a Wednesday, to the minute


def test_the_policy_survives_a_reload_of_the_venue(engine: HoldEngine) -> None:
    saved = engine.save_venue(factories.venue(POLICY), now=at(2, 25, 10))
    loaded = engine.venue(saved.id)
    assert loaded is not None
    assert (loaded.policy.deadline_time, loaded.policy.closed_weekdays) == (19 * 60, {2})
