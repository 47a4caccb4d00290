"""Expiring 1st holds whose deadline has come, and promoting whoever waited behind them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import partial

from core import events
from core.errors import Busy
from core.model import Hold, Status
from core.operations.promotion import promote_after
from core.operations.tx import Tx
from core.results import Swept
from core.rules.requests import spans_of
from core.rules.spans import span_counts
from core.runner import Runner
from core.store import hold_writes, holds, part_days

Moves = tuple[list[int], list[int]]  # (expired ids, promoted ids)


def sweep(run: Runner, venue_id: str, now: datetime, batch: int) -> Swept:
    """Expire every due 1st hold in short transactions of at most ``batch`` holds.

    A batch that stays contended is redone hold by hold, so one busy slot never holds up
    the rest; a hold still busy then waits for the next sweep.
    """
    expired: list[int] = []
    promoted: list[int] = []
    while True:
        try:
            done, moved = run.write(venue_id, now, partial(expire_due, limit=batch))
        except Busy:
            done, moved = _one_by_one(run, venue_id, now, batch)
        expired += done
        promoted += moved
        if len(done) < batch:
            return Swept(tuple(expired), tuple(promoted))


def expire_due(tx: Tx, limit: int) -> Moves:
    """Expire up to ``limit`` due holds in this transaction."""
    return _expire(tx, holds.firsts_due(tx.conn, tx.venue, tx.now, limit=limit))


def expire_one(tx: Tx, hold_id: int) -> Moves:
    """The same for one hold, when a batch kept conflicting; a no-op if it is no longer due."""
    hold = holds.get(tx.conn, tx.venue, hold_id)
    return _expire(tx, [hold] if hold is not None and hold.is_due(tx.now) else [])


def due_ids(tx: Tx, limit: int) -> list[int]:
    return [h.id for h in holds.firsts_due(tx.conn, tx.venue, tx.now, limit=limit)]


def _one_by_one(run: Runner, venue_id: str, now: datetime, batch: int) -> Moves:
    expired: list[int] = []
    promoted: list[int] = []
    for hold_id in run.write(venue_id, now, partial(due_ids, limit=batch)):
        try:
            done, moved = run.write(venue_id, now, partial(expire_one, hold_id=hold_id))
        except Busy:
            continue  # left for the next sweep; the batch then reports fewer than it took
        expired += done
        promoted += moved
    return expired, promoted


def _expire(tx: Tx, due: Sequence[Hold]) -> Moves:
    if not due:
        return [], []
    changes = span_counts([s for h in due for s in spans_of(h)], tx.venue.tz, sign=-1)
    part_days.bump(tx.conn, tx.venue.id, changes)
    ids = [h.id for h in due]
    hold_writes.leave(tx.conn, tx.venue, ids, Status.EXPIRED, tx.now)
    expired = [h.left(Status.EXPIRED, tx.now) for h in due]
    tx.journal.record(*[events.Expired(h) for h in expired])
    causes = dict.fromkeys(ids, events.Action.EXPIRED.value)
    promoted = promote_after(tx, expired, set(changes), events.SYSTEM, causes)
    return ids, [h.id for h in promoted]
