"""The clock: venue-local schedules, venue list refresh, and ticks that are safe to repeat."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from cli.bootstrap import Runtime
from core.model import Venue
from core.results import RequestAnswer
from jobs.clock import Clock, Schedule, in_digest_window, schedule_for
from jobs.queues import DIGESTS, DRAIN, PART_DAYS, PINGS, SWEEP
from tests.jobs.conftest import MovingClock, eventually, settle
from tests.support import factories
from tests.support.factories import MANAGER
from tests.support.slack_standin import SlackStandin

TOKYO = ZoneInfo("Asia/Tokyo")
NEW_YORK = ZoneInfo("America/New_York")


class RecordingBroker:
    """Stands in for Redis where only what was enqueued matters."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, tuple[Any, ...]]] = []

    def enqueue(self, message: Any, *, delay: int | None = None) -> Any:
        self.sent.append((message.actor_name, message.args))
        return message


def fires(timezone: str, name: str, after: datetime) -> datetime:
    tick = next(t for t in schedule_for(timezone, Schedule()) if t.name == name)
    fire = tick.trigger.get_next_fire_time(None, after)
    assert fire is not None
    return fire


def test_the_digest_fires_monday_0900_in_each_venues_time_zone() -> None:
    sunday_noon = datetime(2027, 2, 28, 12, 0, tzinfo=UTC)
    tokyo = fires("Asia/Tokyo", "digests", sunday_noon)
    new_york = fires("America/New_York", "digests", sunday_noon)
    assert tokyo == datetime(2027, 3, 1, 9, 0, tzinfo=TOKYO)
    assert tokyo.astimezone(UTC) == datetime(2027, 3, 1, 0, 0, tzinfo=UTC)
    assert new_york == datetime(2027, 3, 1, 9, 0, tzinfo=NEW_YORK)
    assert new_york.astimezone(UTC).hour == 14  # EST, before the switch to summer time
    after_dst = fires("America/New_York", "digests", datetime(2027, 3, 20, tzinfo=UTC))
    assert after_dst.astimezone(UTC).hour == 13  # EDT: still 09:00 local


def test_sweep_every_minute_drain_every_15_seconds() -> None:
    at = datetime(2027, 3, 1, 0, 0, 10, tzinfo=UTC)
    assert fires("Asia/Tokyo", "sweep", at) == datetime(2027, 3, 1, 0, 1, 0, tzinfo=UTC)
    drain = next(t for t in schedule_for("Asia/Tokyo", Schedule()) if t.name == "drain")
    first = drain.trigger.get_next_fire_time(None, at)
    assert first is not None
    assert drain.trigger.get_next_fire_time(first, first) == first + timedelta(seconds=15)


def test_the_clock_follows_the_venue_list() -> None:
    zones = {"tokyo": "Asia/Tokyo"}
    clock = Clock(RecordingBroker(), lambda: dict(zones), Schedule())  # type: ignore[arg-type]
    clock.refresh()
    assert {j.id for j in clock.scheduler.get_jobs()} == {
        f"tokyo:{n}"
        for n in ("sweep", "drain", "reminders", "digests", "ledger", "deposits", "pings")
    }
    zones["honolulu"] = "Pacific/Honolulu"
    del zones["tokyo"]
    clock.refresh()
    assert {j.id.split(":")[0] for j in clock.scheduler.get_jobs()} == {"honolulu"}
    digest = clock.scheduler.get_job("honolulu:digests")
    assert str(digest.trigger.timezone) == "Pacific/Honolulu"


def test_a_clock_started_on_monday_morning_catches_up_on_the_digest() -> None:
    monday_ten = datetime(2027, 3, 1, 10, 0, tzinfo=TOKYO)
    assert in_digest_window(monday_ten, TOKYO)
    assert not in_digest_window(monday_ten.replace(hour=8), TOKYO)
    assert not in_digest_window(monday_ten + timedelta(days=1), TOKYO)
    broker = RecordingBroker()
    clock = Clock(broker, lambda: {"v": "Asia/Tokyo"}, Schedule(), now=lambda: monday_ten)  # type: ignore[arg-type]
    clock.start()
    clock.stop()
    assert [name for name, _ in broker.sent] == [
        SWEEP.actor_name,
        DRAIN.actor_name,
        PART_DAYS.actor_name,
        PINGS.actor_name,
        DIGESTS.actor_name,
    ]


def test_two_clock_ticks_send_one_digest_per_person_and_one_to_each_manager(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    people = ["U0DIGESTA", "U0DIGESTB"]
    held = []
    for person, room in zip(people, ["hoo-a", "hoo-b"], strict=True):
        result = worker.engine.request(
            venue.id, factories.request(room=room, kind="banquet", salesperson=person), now=clock()
        )
        assert isinstance(result, RequestAnswer) and result.rank == 1
        held.append(result.hold.id)
    ticking = Clock(
        worker.broker, lambda: {venue.id: venue.timezone}, worker.settings.tuning.schedule
    )
    ticking.refresh()
    job = ticking.scheduler.get_job(f"{venue.id}:digests")

    job.func(*job.args)  # what the trigger fires, twice: a doubled tick
    job.func(*job.args)
    slack.wait_for("chat.postMessage", 3, timeout=10)
    eventually(lambda: len(worker.engine.notices(venue.id, status="sent")) == 3, what="3 sent")
    settle(worker)
    worker.actors().queue_digests(venue.id)  # and a worker retry of the job itself
    worker.actors().drain_outbox(venue.id)

    digests = [c for c in slack.calls_to("chat.postMessage") if c.body["channel"] in people]
    assert sorted(c.body["channel"] for c in digests) == people
    assert all(c.body["metadata"]["event_payload"]["kind"] == "digest" for c in digests)
    # The manager's digest names both salespeople's holds: the whole venue's week.
    (boss,) = [c for c in slack.calls_to("chat.postMessage") if c.body["channel"] == MANAGER]
    assert boss.body["metadata"]["event_payload"]["kind"] == "manager_digest"
    shown = json.dumps(boss.body["blocks"], ensure_ascii=False)
    assert all(f"#{i} " in shown for i in held) and all(f"<@{p}>" in shown for p in people)
    assert len(worker.engine.notices(venue.id)) == 3


def test_a_deadline_within_24_hours_gets_one_reminder_however_often_the_clock_ticks(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    asked = clock() - timedelta(days=2, hours=12)  # a banquet hold: its 3 days end in 12 h
    held = worker.engine.request(
        venue.id, factories.request(kind="banquet", salesperson="U0REMINDME"), now=asked
    )
    assert isinstance(held, RequestAnswer) and held.expires_at is not None
    assert held.expires_at - clock() < timedelta(hours=24)
    ticking = Clock(
        worker.broker, lambda: {venue.id: venue.timezone}, worker.settings.tuning.schedule
    )
    ticking.refresh()
    job = ticking.scheduler.get_job(f"{venue.id}:reminders")

    for _ in range(3):
        job.func(*job.args)
    call = slack.wait_for("chat.postMessage", 1, timeout=10)[0]
    eventually(lambda: len(worker.engine.notices(venue.id, status="sent")) == 1, what="sent")
    settle(worker)
    worker.actors().drain_outbox(venue.id)

    assert call.body["channel"] == "U0REMINDME"
    assert call.body["metadata"]["event_payload"]["kind"] == "reminder"
    assert len(slack.calls_to("chat.postMessage")) == 1
    assert len(worker.engine.notices(venue.id)) == 1


def test_the_daily_ledger_job_makes_the_day_that_came_into_the_horizon(
    worker: Runtime, venue: Venue, sa_engine: sa.Engine, clock: MovingClock
) -> None:
    def last_day() -> object:
        with sa_engine.connect() as conn:
            return conn.execute(
                sa.text("SELECT max(day) FROM part_days WHERE venue_id = :v"), {"v": venue.id}
            ).scalar_one()

    before = last_day()
    clock.start += timedelta(days=3)
    worker.actors().prepare_part_days(venue.id)
    assert last_day() == before + timedelta(days=3)  # type: ignore[operator]
