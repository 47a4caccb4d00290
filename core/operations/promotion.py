"""Promotion after holds leave: only the holds near the ones that left are looked at."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

import sqlalchemy as sa

from core.model import Hold, Status, Venue
from core.notices import NoticeKind, event, notice
from core.rules.deadlines import first_deadline
from core.rules.promotion import new_ranks
from core.rules.requests import span_of
from core.rules.spans import part_days, touch
from core.store import audit, holds, ledger, outbox


def promote_after(
    conn: sa.Connection,
    venue: Venue,
    leaving: Sequence[Hold],
    bumped: set[tuple[str, date]],
    now: datetime,
    actor: str,
) -> list[Hold]:
    """Give every waiting hold that conflicted with ``leaving`` its new rank; DM the new 1sts.

    A candidate's rank depends on holds beyond the ones that left (a whole room waits behind
    both halves), so its own part-days are bumped before its rank is read again.
    """
    if not leaving:
        return []
    waiting = [
        h
        for h in holds.live_conflicting(conn, venue, [span_of(h) for h in leaving])
        if h.status is Status.TENTATIVE and (h.rank or 0) > 1
    ]
    if not waiting:
        return []
    spans = [span_of(h) for h in waiting]
    ledger.bump(conn, venue.id, touch(k for k in part_days(spans, venue.tz) if k not in bumped))
    around = holds.live_conflicting(conn, venue, spans)
    moves = new_ranks(waiting, around, {h.id for h in leaving})
    changes = [
        (
            hold.id,
            rank,
            first_deadline(now, hold.kind, hold.start_at, venue.policy) if rank == 1 else None,
        )
        for hold, rank in moves
    ]
    holds.set_ranks(conn, venue, changes, now)
    promoted = holds.get_many(conn, venue, [hold_id for hold_id, rank, _ in changes if rank == 1])
    outbox.add(conn, venue.id, [notice(NoticeKind.PROMOTED, h) for h in promoted], now)
    audit.record(
        conn,
        venue.id,
        [event(h, actor, "promoted", now, expires_at=_iso(h.expires_at)) for h in promoted],
    )
    return promoted


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None
