"""Deposits (予約金): the due date a confirmation sets, 入金確認 once and by whom, no deposit
without ``deposit_days`` or after a cancel, and each reminder and past-due notice once however
often the job runs (docs/rules.md, Deposits)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import date, datetime, time, timedelta
from functools import partial

from core.engine import HoldEngine
from core.model import Hold, HoldEdit, Venue
from core.results import Code, DepositAnswer, Refused, RequestAnswer
from core.serialize import hold_to_json
from tests.support import factories
from tests.support.factories import JST, MANAGER, NOW, SALES, request

STRANGER = "U0SALES003"
LATER_DAY = date(2027, 6, 12)  # the event: well after any due date below


def with_deposits(engine: HoldEngine, days: int | None = 14) -> Venue:
    venue = factories.venue(policy=replace(factories.venue().policy, deposit_days=days))
    return engine.save_venue(venue, now=NOW)


def confirmed(engine: HoldEngine, venue: Venue, day: date = LATER_DAY, **kw: str) -> Hold:
    asked = engine.request(venue.id, request(day=day, **kw), now=NOW)
    assert isinstance(asked, RequestAnswer)
    assert asked.hold.deposit.due is None  # a tentative hold owes nothing
    done = engine.confirm(venue.id, asked.hold.id, actor=MANAGER, now=NOW)
    assert not isinstance(done, Refused)
    return done.hold


def at_nine(day: date) -> datetime:
    return datetime.combine(day, time(9, 0), tzinfo=JST)


def kinds(engine: HoldEngine, venue: Venue, kind: str) -> list[str]:
    return [n.recipient for n in engine.notices(venue.id) if n.kind == kind]


def test_a_confirmation_sets_the_due_date_and_the_json_carries_it(engine: HoldEngine) -> None:
    venue = with_deposits(engine, 14)
    hold = confirmed(engine, venue)
    assert hold.deposit.due == date(2027, 3, 15)  # confirmed 3/1 (venue-local) + 14
    shown = hold_to_json(hold)
    assert (shown["deposit_due"], shown["deposit_paid_at"], shown["deposit_amount"]) == (
        "2027-03-15",
        None,
        None,
    )
    # never after the event's own day: confirmed 9 days before it, due that day
    near = confirmed(engine, venue, day=factories.DAY, room="sakura")
    assert near.deposit.due == factories.DAY


def test_no_deposit_without_deposit_days(engine: HoldEngine, venue: Venue) -> None:
    assert venue.policy.deposit_days is None
    hold = confirmed(engine, venue)
    assert hold.deposit.due is None and hold_to_json(hold)["deposit_due"] is None
    refused = engine.record_deposit(venue.id, hold.id, actor=SALES, now=NOW)
    assert isinstance(refused, Refused) and refused.code is Code.NO_DEPOSIT_DUE


def test_the_deposit_is_recorded_once_by_its_salesperson_or_a_manager(
    engine: HoldEngine,
) -> None:
    venue = with_deposits(engine)
    hold = confirmed(engine, venue)
    stranger = engine.record_deposit(venue.id, hold.id, actor=STRANGER, now=NOW)
    assert isinstance(stranger, Refused) and stranger.code is Code.NOT_AUTHORIZED
    bad = engine.record_deposit(venue.id, hold.id, actor=SALES, now=NOW, amount=0)
    assert isinstance(bad, Refused) and bad.code is Code.BAD_DEPOSIT_AMOUNT
    when = NOW + timedelta(days=3)
    paid = engine.record_deposit(venue.id, hold.id, actor=SALES, now=when, amount=100_000)
    assert isinstance(paid, DepositAnswer)
    assert (paid.hold.deposit.paid_at, paid.hold.deposit.paid_by) == (when, SALES)
    assert hold_to_json(paid.hold)["deposit_amount"] == 100_000
    again = engine.record_deposit(venue.id, hold.id, actor=MANAGER, now=when)
    assert isinstance(again, Refused) and again.code is Code.DEPOSIT_ALREADY_PAID
    assert again.hold is not None and again.hold.deposit.paid_by == SALES  # says by whom
    trail = [e for e in engine.trail(venue.id, hold.id) if e.action == "deposit_paid"]
    assert [(e.actor, e.detail["amount"]) for e in trail] == [(SALES, 100_000)]
    # a manager may record another booking's
    other = confirmed(engine, venue, room="sakura", salesperson=STRANGER)
    assert isinstance(
        engine.record_deposit(venue.id, other.id, actor=MANAGER, now=NOW), DepositAnswer
    )


def test_a_cancelled_booking_owes_no_deposit_and_hears_nothing(engine: HoldEngine) -> None:
    venue = with_deposits(engine, 5)
    hold = confirmed(engine, venue)
    cancelled = engine.cancel(venue.id, hold.id, actor=MANAGER, now=NOW, reason="先方都合")
    assert not isinstance(cancelled, Refused)
    assert cancelled.hold.deposit.due is None
    for day in (date(2027, 3, 3), date(2027, 3, 7), date(2027, 3, 20)):
        assert engine.queue_deposit_notices(venue.id, now=at_nine(day)) == 0
    refused = engine.record_deposit(venue.id, hold.id, actor=SALES, now=NOW)
    assert isinstance(refused, Refused) and refused.code is Code.NO_DEPOSIT_DUE


def test_the_reminder_and_the_past_due_notice_go_once_however_often_the_job_runs(
    engine: HoldEngine,
) -> None:
    venue = with_deposits(engine, 14)  # due 3/15
    hold = confirmed(engine, venue)
    assert engine.queue_deposit_notices(venue.id, now=at_nine(date(2027, 3, 11))) == 0
    early = datetime(2027, 3, 12, 8, 59, tzinfo=JST)  # the reminder's day, before 09:00
    assert engine.queue_deposit_notices(venue.id, now=early) == 0
    for minutes in range(0, 300, 60):  # 3/12 from 09:00, hour after hour
        engine.queue_deposit_notices(
            venue.id, now=at_nine(date(2027, 3, 12)) + timedelta(minutes=minutes)
        )
    assert kinds(engine, venue, "deposit_reminder") == [SALES]
    assert engine.queue_deposit_notices(venue.id, now=at_nine(date(2027, 3, 15))) == 0  # due today
    for day in range(16, 22):  # past due: told once, however many days the job runs
        engine.queue_deposit_notices(venue.id, now=at_nine(date(2027, 3, day)))
        engine.queue_deposit_notices(venue.id, now=at_nine(date(2027, 3, day)) + timedelta(hours=5))
    assert kinds(engine, venue, "deposit_overdue") == [SALES]
    assert kinds(engine, venue, "deposit_reminder") == [SALES]
    trail = [e for e in engine.trail(venue.id, hold.id) if e.action == "deposit_overdue"]
    assert [e.detail["due"] for e in trail] == ["2027-03-15"]


def test_a_paid_deposit_is_neither_reminded_nor_past_due(engine: HoldEngine) -> None:
    venue = with_deposits(engine, 14)
    hold = confirmed(engine, venue)
    assert isinstance(engine.record_deposit(venue.id, hold.id, actor=SALES, now=NOW), DepositAnswer)
    for day in (12, 16):
        assert engine.queue_deposit_notices(venue.id, now=at_nine(date(2027, 3, day))) == 0


def test_a_managers_edit_of_the_booking_keeps_its_deposit(engine: HoldEngine) -> None:
    venue = with_deposits(engine, 14)
    hold = confirmed(engine, venue)
    paid = engine.record_deposit(venue.id, hold.id, actor=SALES, now=NOW, amount=50_000)
    assert isinstance(paid, DepositAnswer)
    moved = engine.edit(
        venue.id,
        HoldEdit(hold_id=hold.id, version=paid.hold.version, actor=MANAGER, room_id="sakura"),
        now=NOW,
    )
    assert not isinstance(moved, Refused)
    now_held = engine.hold(venue.id, moved.hold.id)
    assert isinstance(now_held, Hold) and now_held.room_id == "sakura"
    assert now_held.deposit == paid.hold.deposit  # due 3/15, paid, ¥50,000: the booking's


def test_two_at_once_record_it_once(engine: HoldEngine) -> None:
    """The salesperson and a manager press 「入金確認」 at the same moment, 10 times over: one
    is recorded, the other refused saying it was, and the trail has one line."""
    venue = with_deposits(engine, 14)
    for n in range(10):
        hold = confirmed(engine, venue, day=LATER_DAY + timedelta(days=n))
        barrier = threading.Barrier(2)

        with ThreadPoolExecutor(2) as pool:
            press = partial(_press, engine, venue, hold, barrier)
            answers = list(pool.map(press, (SALES, MANAGER)))
        assert sorted(type(a).__name__ for a in answers) == ["DepositAnswer", "Refused"]
        refused = next(a for a in answers if isinstance(a, Refused))
        assert refused.code is Code.DEPOSIT_ALREADY_PAID
        trail = [e for e in engine.trail(venue.id, hold.id) if e.action == "deposit_paid"]
        assert len(trail) == 1


def _press(
    engine: HoldEngine, venue: Venue, hold: Hold, barrier: threading.Barrier, actor: str
) -> DepositAnswer | Refused:
    barrier.wait()
    return engine.record_deposit(venue.id, hold.id, actor=actor, now=NOW, amount=1000)
