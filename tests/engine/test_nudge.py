"""The nudge (回答の催促): who may ask, how near the 1st's deadline comes, once, and off."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from core.engine import HoldEngine
from core.model import Hold, Kind, Venue
from core.results import Code, NudgeAnswer, Refused, RequestAnswer
from tests.support import factories
from tests.support.factories import MANAGER, NOW, SALES, later, request

OTHER = "U0SALES002"
STRANGER = "U0SALES003"


def pair(engine: HoldEngine, venue: Venue, kind: Kind = Kind.WEDDING) -> tuple[Hold, Hold]:
    first = engine.request(venue.id, request(kind=kind), now=NOW)
    second = engine.request(venue.id, request(kind=kind, salesperson=OTHER), now=NOW)
    assert isinstance(first, RequestAnswer) and isinstance(second, RequestAnswer)
    assert (first.rank, second.rank) == (1, 2)
    return first.hold, second.hold


def code(result: NudgeAnswer | Refused) -> Code | None:
    return result.code if isinstance(result, Refused) else None


def test_the_deadline_comes_to_two_days_from_the_nudge_once_and_both_are_told(
    engine: HoldEngine, venue: Venue
) -> None:
    first, second = pair(engine, venue)
    assert first.expires_at == NOW + timedelta(days=7)
    done = engine.nudge(venue.id, first.id, actor=OTHER, now=later(days=1))
    assert isinstance(done, NudgeAnswer)
    assert done.hold.expires_at == NOW + timedelta(days=3)  # the nudge's day + 2
    assert done.hold.nudged_at == later(days=1) and done.asker.id == second.id
    assert done.hold.version == first.version + 1
    told = [n for n in engine.notices(venue.id) if n.kind == "nudged"]
    assert sorted((n.recipient, n.payload["to"]) for n in told) == [
        (SALES, "first"),
        (OTHER, "asker"),
    ]
    trail = [e for e in engine.trail(venue.id, first.id) if e.action == "nudged"]
    assert [(e.actor, e.detail["asker"]) for e in trail] == [(OTHER, second.id)]
    again = engine.nudge(venue.id, first.id, actor=MANAGER, now=later(days=1))
    assert code(again) is Code.ALREADY_NUDGED


def test_only_who_waits_behind_may_ask(engine: HoldEngine, venue: Venue) -> None:
    first, second = pair(engine, venue)
    for actor in (SALES, STRANGER):  # the 1st's own salesperson, someone else's
        assert code(engine.nudge(venue.id, first.id, actor=actor, now=NOW)) is Code.NOT_WAITING
    assert code(engine.nudge(venue.id, second.id, actor=OTHER, now=NOW)) is Code.NOT_FIRST
    assert code(engine.nudge(venue.id, 999_999, actor=OTHER, now=NOW)) is Code.HOLD_NOT_FOUND
    assert isinstance(engine.nudge(venue.id, first.id, actor=MANAGER, now=NOW), NudgeAnswer)


def test_an_earlier_deadline_stays_and_the_deadline_policy_applies(
    engine: HoldEngine, venue: Venue
) -> None:
    first, _ = pair(engine, venue, Kind.BANQUET)  # 3 days
    done = engine.nudge(venue.id, first.id, actor=OTHER, now=later(days=2))
    assert isinstance(done, NudgeAnswer) and done.hold.expires_at == first.expires_at
    policy = replace(venue.policy, deadline_time=19 * 60, closed_weekdays=frozenset({2}))
    timed = engine.save_venue(replace(factories.venue(), policy=policy), now=NOW)
    first, _ = pair(engine, timed)
    done = engine.nudge(timed.id, first.id, actor=OTHER, now=NOW)  # Monday 09:00
    assert isinstance(done, NudgeAnswer)
    # Wednesday is closed: Thursday, at the venue's 19:00
    assert done.hold.expires_at == datetime(2027, 3, 4, 19, 0, tzinfo=factories.JST)


def test_a_venue_may_turn_the_nudge_off(engine: HoldEngine, venue: Venue) -> None:
    off = replace(factories.venue(), policy=replace(venue.policy, nudge_days=0))
    off = engine.save_venue(off, now=NOW)
    first, _ = pair(engine, off)
    assert code(engine.nudge(off.id, first.id, actor=OTHER, now=NOW)) is Code.NUDGE_OFF
    held = engine.hold(off.id, first.id)
    assert isinstance(held, Hold) and held.expires_at == first.expires_at and not held.nudged_at
