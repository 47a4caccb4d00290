"""予約金 on the real clock and worker: the deposits tick sends the salesperson one reminder
three days before the due date and one past-due notice after it, however often it runs, and
the managers' Monday digest lists the booking past due (docs/rules.md, Deposits)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, time

import pytest

from cli.bootstrap import Runtime
from core.model import Venue
from core.results import Refused, RequestAnswer
from jobs.clock import Clock
from tests.jobs.conftest import eventually, settle
from tests.jobs.scenarios import dms_to
from tests.jobs.test_nudge import ShiftingClock, kinds_to
from tests.support import factories
from tests.support.factories import JST, MANAGER, SALES
from tests.support.slack_standin import SlackStandin

EVENT = date(2027, 6, 12)


@pytest.fixture
def clock() -> ShiftingClock:
    return ShiftingClock(factories.NOW)  # Monday 2027-03-01 09:00 in Tokyo


def at(day: date, hour: int = 9, minute: int = 10) -> datetime:
    return datetime.combine(day, time(hour, minute), tzinfo=JST)


def test_one_reminder_and_one_past_due_notice_however_often_the_clock_ticks(
    worker: Runtime, slack: SlackStandin, clock: ShiftingClock
) -> None:
    engine = worker.engine
    policy = replace(factories.venue().policy, deposit_days=14)
    venue: Venue = engine.save_venue(factories.venue(policy=policy), now=clock())
    asked = engine.request(venue.id, factories.request(day=EVENT), now=clock())
    assert isinstance(asked, RequestAnswer)
    done = engine.confirm(venue.id, asked.hold.id, actor=SALES, now=clock())
    assert not isinstance(done, Refused) and done.hold.deposit.due == date(2027, 3, 15)
    ticking = Clock(
        worker.broker, lambda: {venue.id: venue.timezone}, worker.settings.tuning.schedule
    )
    ticking.refresh()
    deposits = ticking.scheduler.get_job(f"{venue.id}:deposits")
    digests = ticking.scheduler.get_job(f"{venue.id}:digests")

    def tick(times: int = 3) -> None:
        for _ in range(times):
            deposits.func(*deposits.args)
        settle(worker)

    clock.move_to(at(date(2027, 3, 11)))  # four days before: nothing yet
    tick()
    assert "deposit_reminder" not in kinds_to(slack, SALES)

    clock.move_to(at(date(2027, 3, 12)))  # three days before, from 09:00
    tick()
    eventually(lambda: "deposit_reminder" in kinds_to(slack, SALES), what="the reminder")
    reminder = next(
        c
        for c in dms_to(slack, SALES)
        if c.body["metadata"]["event_payload"]["kind"] == "deposit_reminder"
    )
    assert "3/15" in reminder.body["text"] and "入金確認" in str(reminder.body["blocks"])

    for day in (13, 15, 16, 17, 18):  # due on the 15th; past due from the 16th
        clock.move_to(at(date(2027, 3, day)))
        tick(2)
    eventually(lambda: "deposit_overdue" in kinds_to(slack, SALES), what="the past-due notice")
    settle(worker)
    told = kinds_to(slack, SALES)
    assert (told.count("deposit_reminder"), told.count("deposit_overdue")) == (1, 1)

    clock.move_to(at(date(2027, 3, 22)))  # the next Monday: the managers' digest lists it
    digests.func(*digests.args)
    eventually(lambda: "manager_digest" in kinds_to(slack, MANAGER), what="the digest")
    digest = next(
        c
        for c in dms_to(slack, MANAGER)
        if c.body["metadata"]["event_payload"]["kind"] == "manager_digest"
    )
    shown = str(digest.body["blocks"])
    assert "予約金の期日超過" in shown and asked.hold.customer in shown
