"""The jobs by name: what the clock and the bot enqueue and what the worker runs.

Enqueuing needs only these names, not the actors' code, so the clock and the web process
send messages without building a Slack client or an engine.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import dramatiq
import redis

from jobs.logs import fields

log = logging.getLogger(__name__)

MINUTE_MS = 60_000


@dataclass(frozen=True)
class Job:
    actor_name: str
    queue_name: str
    options: dict[str, Any] = field(default_factory=dict)  # Dramatiq actor options


# A message older than max_age is dropped: a newer tick or drain has done its work by then.
SWEEP = Job("sweep", "holds", {"max_age": 5 * MINUTE_MS, "max_retries": 3})
DRAIN = Job("drain_outbox", "notices", {"max_age": 30 * MINUTE_MS, "max_retries": 3})
REMINDERS = Job("queue_reminders", "holds", {"max_age": 60 * MINUTE_MS, "max_retries": 3})
# Hourly: the deposits' reminders and past-due notices (予約金), each once per booking.
DEPOSITS = Job("queue_deposits", "holds", {"max_age": 60 * MINUTE_MS, "max_retries": 3})
DIGESTS = Job("queue_digests", "holds", {"max_age": 6 * 60 * MINUTE_MS, "max_retries": 5})
# Daily: the part-day rows for the day that came into the booking horizon (the actor keeps
# its first name: messages already queued under it still find it).
PART_DAYS = Job("prepare_ledger", "holds", {"max_age": 12 * 60 * MINUTE_MS, "max_retries": 5})
# Each minute: the window pings whose date's banquet window has opened (開放日に知らせる).
PINGS = Job("deliver_pings", "holds", {"max_age": 5 * MINUTE_MS, "max_retries": 3})

# What an unreachable or failing Redis raises while we enqueue.
BROKER_ERRORS = (redis.RedisError, dramatiq.errors.BrokerConnectionError)


def enqueue(
    broker: dramatiq.Broker, job: Job, *args: Any, delay_ms: int | None = None
) -> dramatiq.Message[Any]:
    """Send one message for ``job``; raises one of ``BROKER_ERRORS`` if Redis is away."""
    message: dramatiq.Message[Any] = dramatiq.Message(
        queue_name=job.queue_name,
        actor_name=job.actor_name,
        args=args,
        kwargs={},
        options={},
    )
    return broker.enqueue(message, delay=delay_ms)


def try_enqueue(
    broker: dramatiq.Broker, job: Job, venue_id: str, *, delay_ms: int | None = None
) -> bool:
    """Enqueue, or log why not: for callers whose work is safe without it (the outbox waits
    for the next safety-net drain). Returns whether the message was sent."""
    try:
        enqueue(broker, job, venue_id, delay_ms=delay_ms)
    except BROKER_ERRORS as err:
        log.warning(
            "enqueue failed",
            exc_info=err,
            extra=fields(venue_id, f"enqueue.{job.actor_name}", "broker_unreachable"),
        )
        return False
    return True


def drain_hook(broker: dramatiq.Broker) -> Callable[[str], None]:
    """The bot's ``on_notices``: after a commit that wrote notices, drain that venue soon.

    Never raises for an unreachable Redis: the hold is already committed, and its notices
    wait in the outbox for the safety-net drain.
    """

    def on_notices(venue_id: str) -> None:
        try_enqueue(broker, DRAIN, venue_id)

    return on_notices
