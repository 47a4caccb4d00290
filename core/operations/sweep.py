"""Expiring 1st holds whose deadline has come, and promoting whoever waited behind them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa

from core.model import Hold, Status, Venue
from core.notices import SYSTEM, NoticeKind, event, notice
from core.operations.promotion import promote_after
from core.rules.requests import span_of
from core.rules.spans import span_counts
from core.store import audit, holds, ledger, outbox


def sweep_batch(
    conn: sa.Connection, venue: Venue, now: datetime, limit: int
) -> tuple[list[int], list[int]]:
    """Expire up to ``limit`` due holds in this transaction: (expired ids, promoted ids)."""
    return _expire(conn, venue, holds.due(conn, venue, now, limit), now)


def expire_one(
    conn: sa.Connection, venue: Venue, hold_id: int, now: datetime
) -> tuple[list[int], list[int]]:
    """The same for one hold, when a batch kept conflicting; a no-op if it is no longer due."""
    hold = holds.get(conn, venue, hold_id)
    due = (
        hold is not None
        and hold.is_first
        and hold.expires_at is not None
        and hold.expires_at <= now
    )
    return _expire(conn, venue, [hold] if due and hold else [], now)


def due_ids(conn: sa.Connection, venue: Venue, now: datetime, limit: int) -> list[int]:
    return [h.id for h in holds.due(conn, venue, now, limit)]


def _expire(
    conn: sa.Connection, venue: Venue, due: Sequence[Hold], now: datetime
) -> tuple[list[int], list[int]]:
    if not due:
        return [], []
    changes = span_counts([span_of(h) for h in due], venue.tz, sign=-1)
    ledger.bump(conn, venue.id, changes)
    ids = [h.id for h in due]
    holds.leave(conn, venue, ids, Status.EXPIRED, now)
    expired = [h.left(Status.EXPIRED, now) for h in due]
    outbox.add(conn, venue.id, [notice(NoticeKind.EXPIRED, h) for h in expired], now)
    audit.record(conn, venue.id, [event(h, SYSTEM, "expired", now) for h in expired])
    promoted = promote_after(conn, venue, expired, set(changes), now, SYSTEM)
    return ids, [h.id for h in promoted]
