"""Expiring 1st holds whose deadline has come, and promoting whoever waited behind them.

Each runs in the transaction it is given, like every other operation; the sweep job runs
them in batches until one is short (``jobs.sweeping``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from core import events
from core.model import Hold, Status
from core.operations.promotion import promote_after
from core.operations.tx import Snapshot, Tx
from core.results import Swept
from core.rules.requests import spans_of
from core.rules.spans import span_counts
from core.store import hold_writes, holds, part_days


def expire_due(tx: Tx, limit: int) -> Swept:
    """Expire up to ``limit`` due holds in this transaction."""
    return _expire(tx, holds.firsts_due(tx.conn, tx.venue, tx.now, limit=limit))


def expire_one(tx: Tx, hold_id: int) -> Swept:
    """The same for one hold, when a batch kept conflicting; a no-op if it is no longer due."""
    hold = holds.get(tx.conn, tx.venue, hold_id)
    return _expire(tx, [hold] if hold is not None and hold.is_due(tx.now) else [])


def due_ids(snap: Snapshot, now: datetime, limit: int) -> list[int]:
    return [h.id for h in holds.firsts_due(snap.conn, snap.venue, now, limit=limit)]


def _expire(tx: Tx, due: Sequence[Hold]) -> Swept:
    if not due:
        return Swept((), ())
    changes = span_counts([s for h in due for s in spans_of(h)], tx.venue.tz, sign=-1)
    part_days.bump(tx.conn, tx.venue.id, changes)
    ids = [h.id for h in due]
    hold_writes.leave(tx.conn, tx.venue, ids, Status.EXPIRED, tx.now)
    expired = [h.left(Status.EXPIRED, tx.now) for h in due]
    tx.journal.record(*[events.Expired(h) for h in expired])
    causes = dict.fromkeys(ids, events.Action.EXPIRED.value)
    promoted = promote_after(tx, expired, set(changes), events.SYSTEM, causes)
    return Swept(tuple(ids), tuple(h.id for h in promoted))
