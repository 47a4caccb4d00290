"""The Dramatiq actors: thin, idempotent, taking only a venue id, calling ``core``.

Actors are created by :func:`register` on the broker the entry point built, so importing
this module declares nothing anywhere.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import dramatiq

from core.results import Refused
from core.roles.known_venues import Venues
from core.roles.pings import Pings
from core.roles.writes import Writes
from jobs import queues, sweeping
from jobs.delivery import Courier
from jobs.drained import Drained
from jobs.logs import fields
from jobs.queues import DEPOSITS, DIGESTS, DRAIN, PART_DAYS, PINGS, REMINDERS, SWEEP, Job

log = logging.getLogger(__name__)

MAX_FOLLOW_UP_MS = 10 * 60_000  # beyond this the safety-net drain is soon enough
FOLLOW_UP_MARGIN_MS = 50
FOLLOW_UP_STEP_MS = 250
MAX_FOLLOW_UPS = 10


@dataclass(frozen=True)
class JobDeps:
    writes: Writes
    venues: Venues
    courier: Courier
    now: Callable[[], datetime]
    pings: Pings | None = None  # the window pings' (開放日に知らせる); None: none delivered


@dataclass(frozen=True)
class Actors:
    sweep: dramatiq.Actor[[str], None]
    drain_outbox: dramatiq.Actor[[str], None]
    queue_reminders: dramatiq.Actor[[str], None]
    queue_digests: dramatiq.Actor[[str], None]
    prepare_part_days: dramatiq.Actor[[str], None]
    queue_deposits: dramatiq.Actor[[str], None]
    deliver_pings: dramatiq.Actor[[str], None]


def register(broker: dramatiq.Broker, deps: JobDeps) -> Actors:
    jobs = _Jobs(broker, deps)
    return Actors(
        sweep=_actor(broker, SWEEP, jobs.sweep),
        drain_outbox=_actor(broker, DRAIN, jobs.drain_outbox),
        queue_reminders=_actor(broker, REMINDERS, jobs.queue_reminders),
        queue_digests=_actor(broker, DIGESTS, jobs.queue_digests),
        prepare_part_days=_actor(broker, PART_DAYS, jobs.prepare_part_days),
        queue_deposits=_actor(broker, DEPOSITS, jobs.queue_deposits),
        deliver_pings=_actor(broker, PINGS, jobs.deliver_pings),
    )


def _actor(
    broker: dramatiq.Broker, job: Job, fn: Callable[[str], None]
) -> dramatiq.Actor[[str], None]:
    declare = dramatiq.actor(
        broker=broker, actor_name=job.actor_name, queue_name=job.queue_name, **job.options
    )
    actor: dramatiq.Actor[[str], None] = declare(fn)
    return actor


class _Jobs:
    """The actors' bodies. An exception from ``core`` propagates: Dramatiq retries it."""

    def __init__(self, broker: dramatiq.Broker, deps: JobDeps) -> None:
        self.broker = broker
        self.writes = deps.writes
        self.venues = deps.venues
        self.courier = deps.courier
        self.pings = deps.pings
        self.now = deps.now

    def sweep(self, venue_id: str) -> None:
        result = sweeping.sweep(self.writes, venue_id, now=self.now())
        if isinstance(result, Refused):
            _log_refused(venue_id, "sweep", result)
            return
        for hold_id in result.expired:
            log.info("hold expired", extra=fields(venue_id, "sweep", "expired", hold_id=hold_id))
        for hold_id in result.promoted:
            log.info("hold promoted", extra=fields(venue_id, "sweep", "promoted", hold_id=hold_id))
        if result.expired or result.promoted:
            queues.try_enqueue(self.broker, DRAIN, venue_id)

    def drain_outbox(self, venue_id: str) -> None:
        drained = self.courier.drain(venue_id)
        if drained.sent or drained.deferred or drained.failed:
            log.info("outbox drained", extra=fields(venue_id, "drain", "done", **_tally(drained)))
        if drained.more:
            queues.try_enqueue(self.broker, DRAIN, venue_id)
        for delay in follow_ups(drained.due, self.now()):
            queues.try_enqueue(self.broker, DRAIN, venue_id, delay_ms=delay)

    def queue_reminders(self, venue_id: str) -> None:
        self._queue(venue_id, "reminders", self.writes.queue_reminders(venue_id, now=self.now()))

    def queue_digests(self, venue_id: str) -> None:
        self._queue(venue_id, "digests", self.writes.queue_digests(venue_id, now=self.now()))

    def queue_deposits(self, venue_id: str) -> None:
        """予約金: reminders before the due date and past-due notices, each once per booking."""
        written = self.writes.queue_deposit_notices(venue_id, now=self.now())
        self._queue(venue_id, "deposits", written)

    def prepare_part_days(self, venue_id: str) -> None:
        """Part-day rows ahead of bookings keep bumps in place (fewer serialization failures)."""
        self.venues.prepare_part_days(venue_id, now=self.now())
        log.info("ledger prepared", extra=fields(venue_id, "ledger", "done"))

    def deliver_pings(self, venue_id: str) -> None:
        """The window pings whose date opened to banquets: each asker told, in order, once."""
        if self.pings is None:
            return
        sent = self.pings.deliver_due(venue_id, now=self.now())
        self._queue(venue_id, "pings", sent if isinstance(sent, Refused) else len(sent))

    def _queue(self, venue_id: str, action: str, written: int | Refused) -> None:
        if isinstance(written, Refused):
            _log_refused(venue_id, action, written)
            return
        if written:
            log.info("notices queued", extra=fields(venue_id, action, "queued", notices=written))
            queues.try_enqueue(self.broker, DRAIN, venue_id)


def follow_ups(due: Iterable[datetime], now: datetime) -> list[int]:
    """Delays (ms) of the drains that send rows put off until ``due``: one per 250 ms step
    (rows paced one a second to a rate-limited person need one each), at most ten; the
    last always covers the latest row. Beyond ten minutes the safety-net drain suffices."""
    steps = sorted({_ceil_to_step(at - now) for at in due})
    if len(steps) > MAX_FOLLOW_UPS:
        steps = [*steps[: MAX_FOLLOW_UPS - 1], steps[-1]]
    return [min(MAX_FOLLOW_UP_MS, s + FOLLOW_UP_MARGIN_MS) for s in steps]


def _ceil_to_step(wait: timedelta) -> int:
    # Round up: a drain that runs before its rows are due finds nothing and schedules none.
    ms = max(0, math.ceil(wait.total_seconds() * 1000))
    return -(-ms // FOLLOW_UP_STEP_MS) * FOLLOW_UP_STEP_MS


def _log_refused(venue_id: str, action: str, refused: Refused) -> None:
    # BUSY after every retry is logged and left to the next tick; unknown venue: removed.
    log.warning(f"{action} refused", extra=fields(venue_id, action, refused.code.value))


def _tally(drained: Drained) -> dict[str, Any]:
    return {"sent": drained.sent, "deferred": drained.deferred, "failed": drained.failed}
