"""Follow-ups (次のアクション, issue 28 item 6): the bookings whose next action falls in the
coming week, or is overdue, go into their salesperson's Monday digest (one without deadlines
that week gets a digest for them alone), soonest first; a booking with no live hold, or whose
next action is later, does not."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

from bot.notices import render_notice
from core.engine import HoldEngine
from core.model import Details, Venue
from core.notices import Notice
from core.results import RequestAnswer
from tests.support import factories
from tests.support.factories import JST, NOW

MINE, THEIRS = "U0FOLLOWA1", "U0FOLLOWB1"
MONDAY = NOW  # 2027-03-01 09:00, the digest's hour


def held(engine: HoldEngine, venue: Venue, who: str, on: date, shift: int, note: str = "") -> int:
    details = Details(next_action=on, next_action_note=note)
    day = factories.DAY + timedelta(days=shift)  # apart: nobody queues behind anybody
    req = replace(factories.request(day=day, salesperson=who, kind="banquet"), details=details)
    answer = engine.request(venue.id, req, now=NOW - timedelta(days=1))
    assert isinstance(answer, RequestAnswer), answer
    return answer.hold.id


def digests(engine: HoldEngine, venue: Venue) -> dict[str, Notice]:
    return {n.recipient: n for n in engine.notices(venue.id) if n.kind == "digest"}


def test_a_salespersons_digest_lists_this_weeks_and_overdue_follow_ups(
    engine: HoldEngine, venue: Venue
) -> None:
    overdue = held(engine, venue, MINE, date(2027, 2, 26), 0, "見積を再送")
    this_week = held(engine, venue, MINE, date(2027, 3, 7), 1, "2回目の打合せ")
    held(engine, venue, MINE, date(2027, 3, 8), 2)  # next week: not yet
    gone = held(engine, venue, MINE, date(2027, 3, 2), 3)
    released = engine.release(venue.id, gone, actor=MINE, now=NOW - timedelta(hours=1))
    assert not hasattr(released, "code")
    theirs = held(engine, venue, THEIRS, date(2027, 3, 1), 4)
    signed = engine.confirm(venue.id, theirs, actor=THEIRS, now=NOW - timedelta(hours=1))
    assert not hasattr(signed, "code")  # confirmed: no deadline this week, a follow-up still

    engine.queue_digests(venue.id, now=MONDAY)
    engine.queue_digests(venue.id, now=MONDAY + timedelta(minutes=5))  # once a week

    sent = digests(engine, venue)
    assert [h["id"] for h in sent[MINE].payload["follow_ups"]] == [overdue, this_week]
    assert [h["id"] for h in sent[THEIRS].payload["follow_ups"]] == [theirs]
    assert len([n for n in engine.notices(venue.id) if n.kind == "digest"]) == 2
    shown = render_notice(sent[MINE], tz=JST, locale="ja", now=MONDAY)
    said = str(shown.blocks)
    assert "今週の次のアクション" in said and "期日超過" in said
    assert "見積を再送" in said and "2回目の打合せ" in said
    assert said.index("見積を再送") < said.index("2回目の打合せ")  # the overdue one first
    english = render_notice(sent[THEIRS], tz=JST, locale="en", now=MONDAY)
    assert "Next actions this week" in str(english.blocks)
    assert english.text == "1 next action(s) this week"  # a digest for follow-ups alone
    assert "No 1st holds are due this week" in str(english.blocks)


def test_follow_ups_read_for_app_home_are_the_persons_own(engine: HoldEngine, venue: Venue) -> None:
    mine = held(engine, venue, MINE, date(2027, 3, 3), 0)
    held(engine, venue, THEIRS, date(2027, 3, 3), 1)
    held(engine, venue, MINE, date(2027, 3, 9), 2)
    found = engine.reads.follow_ups(venue.id, MINE, until=date(2027, 3, 7))
    assert [h.id for h in found] == [mine]
