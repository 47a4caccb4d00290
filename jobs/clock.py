"""The clock: enqueues each venue's periodic jobs at the right venue-local times; runs none.

APScheduler, because its cron triggers take a time zone per job (a Monday 09:00 digest in
Tokyo and one in Honolulu from one process), it fires intervals shorter than a minute (the
15 s safety-net drain), and jobs can be added and removed while it runs, so venues loaded
later are picked up without a restart. A tick that fires twice only enqueues twice: every
job is idempotent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import dramatiq
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.base import BaseTrigger
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from core.errors import DatabaseUnavailable
from core.roles.known_venues import Venues
from jobs import queues
from jobs.logs import fields
from jobs.queues import DEPOSITS, DIGESTS, DRAIN, PART_DAYS, PINGS, REMINDERS, SWEEP, Job

log = logging.getLogger(__name__)

VenueZones = Callable[[], dict[str, str]]  # venue id -> IANA time zone
DIGEST_DAY, DIGEST_HOUR = "mon", 9
DIGEST_CATCH_UP = timedelta(hours=3)  # a clock started Monday before 12:00 still sends it


@dataclass(frozen=True)
class Schedule:
    """How often the periodic jobs run (the operator's knobs; see ``cli.settings``)."""

    drain_every: float = 15.0  # seconds between safety-net drains
    sweep_every_minutes: int = 1
    reminders_every_minutes: int = 5
    venues_every_minutes: int = 5  # the clock re-reads the venue list


@dataclass(frozen=True)
class Tick:
    name: str
    job: Job
    trigger: BaseTrigger
    grace: int  # seconds a late tick may still fire (the machine slept, the pool was busy)


def schedule_for(timezone: str, schedule: Schedule) -> list[Tick]:
    """The ticks of one venue, in its time zone."""
    tz = ZoneInfo(timezone)
    return [
        Tick("sweep", SWEEP, _every_minutes(schedule.sweep_every_minutes, 0, tz), 30),
        Tick("drain", DRAIN, IntervalTrigger(seconds=schedule.drain_every, timezone=tz), 5),
        Tick("reminders", REMINDERS, _every_minutes(schedule.reminders_every_minutes, 30, tz), 60),
        Tick(
            "digests",
            DIGESTS,
            CronTrigger(day_of_week=DIGEST_DAY, hour=DIGEST_HOUR, minute=0, timezone=tz),
            int(DIGEST_CATCH_UP.total_seconds()),
        ),
        Tick("ledger", PART_DAYS, CronTrigger(hour=0, minute=10, timezone=tz), 6 * 3600),
        # 予約金: hourly; what is due goes from 09:00 venue-local (core.deposits.DEPOSIT_HOUR)
        Tick("deposits", DEPOSITS, CronTrigger(minute=5, timezone=tz), 3600),
        # Windows open at venue-local midnight: a tick on each minute's first second tells
        # the pings then (and catches up on any missed, whenever it runs).
        Tick("pings", PINGS, _every_minutes(1, 0, tz), 60),
    ]


def engine_zones(venues: Venues) -> VenueZones:
    def zones() -> dict[str, str]:
        found = {}
        for venue_id in venues.venue_ids():
            venue = venues.venue(venue_id)
            if venue is not None:
                found[venue_id] = venue.timezone
        return found

    return zones


class Clock:
    def __init__(
        self,
        broker: dramatiq.Broker,
        zones: VenueZones,
        schedule: Schedule,
        *,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.broker = broker
        self.zones = zones
        self.schedule = schedule
        self.now = now
        self.scheduler = BackgroundScheduler(timezone=UTC)
        self._scheduled: dict[str, str] = {}  # venue id -> the time zone its ticks use

    def start(self) -> None:
        """Schedule every venue (a database error here stops the start), then run."""
        self.refresh()
        for venue_id, timezone in self._scheduled.items():
            self._on_start(venue_id, timezone)
        self.scheduler.add_job(
            self._refresh_logged,
            IntervalTrigger(minutes=self.schedule.venues_every_minutes),
            id="venues",
            coalesce=True,
            max_instances=1,
        )
        self.scheduler.start()

    def stop(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=True)

    def alive(self) -> bool:
        """Whether the scheduler's thread still runs (for its heartbeat)."""
        thread = getattr(self.scheduler, "_thread", None)
        return bool(self.scheduler.running and thread is not None and thread.is_alive())

    def refresh(self) -> None:
        """Add ticks for new venues, move them for a changed time zone, drop removed ones."""
        current = self.zones()
        for venue_id, timezone in current.items():
            if self._scheduled.get(venue_id) != timezone:
                self._schedule(venue_id, timezone)
        for venue_id in set(self._scheduled) - set(current):
            self._unschedule(venue_id)
        if not current:
            log.warning("no venues loaded", extra={"action": "clock.refresh", "outcome": "empty"})

    def tick(self, job: Job, venue_id: str) -> None:
        """What a trigger fires: one message; an unreachable Redis is logged, not raised."""
        queues.try_enqueue(self.broker, job, venue_id)

    def _refresh_logged(self) -> None:
        try:
            self.refresh()
        except DatabaseUnavailable as err:
            # Keep ticking the venues we know; the next refresh tries again.
            log.warning(
                "venue list not read",
                exc_info=err,
                extra={"action": "clock.refresh", "outcome": "database_error"},
            )

    def _schedule(self, venue_id: str, timezone: str) -> None:
        for tick in schedule_for(timezone, self.schedule):
            self.scheduler.add_job(
                self.tick,
                tick.trigger,
                args=(tick.job, venue_id),
                id=f"{venue_id}:{tick.name}",
                replace_existing=True,
                coalesce=True,
                max_instances=1,
                misfire_grace_time=tick.grace,
            )
        self._scheduled[venue_id] = timezone
        log.info(
            "venue scheduled",
            extra=fields(venue_id, "clock.schedule", timezone),
        )

    def _unschedule(self, venue_id: str) -> None:
        for job in self.scheduler.get_jobs():
            if job.id.startswith(f"{venue_id}:"):
                job.remove()
        del self._scheduled[venue_id]
        log.info(
            "venue unscheduled",
            extra=fields(venue_id, "clock.schedule", "removed"),
        )

    def _on_start(self, venue_id: str, timezone: str) -> None:
        """A (re)started clock catches up at once instead of waiting for the first tick."""
        self.tick(SWEEP, venue_id)
        self.tick(DRAIN, venue_id)
        self.tick(PART_DAYS, venue_id)
        self.tick(PINGS, venue_id)
        if in_digest_window(self.now(), ZoneInfo(timezone)):
            self.tick(DIGESTS, venue_id)


def in_digest_window(now: datetime, tz: ZoneInfo) -> bool:
    """Monday from 09:00 until the catch-up ends, venue-local."""
    local = now.astimezone(tz)
    start = local.replace(hour=DIGEST_HOUR, minute=0, second=0, microsecond=0)
    return local.weekday() == 0 and start <= local < start + DIGEST_CATCH_UP


def _every_minutes(minutes: int, second: int, tz: ZoneInfo) -> CronTrigger:
    minute = "*" if minutes == 1 else f"*/{minutes}"
    return CronTrigger(minute=minute, second=second, timezone=tz)
