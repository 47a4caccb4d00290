"""Promotion after holds leave: only the holds near the ones that left are looked at."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime

import sqlalchemy as sa

from core.model import Hold, Venue
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
    waiting = waiting_behind(conn, venue, leaving)
    if not waiting:
        return []
    spans = [span_of(h) for h in waiting]
    ledger.bump(conn, venue.id, touch(k for k in part_days(spans, venue.tz) if k not in bumped))
    moves = new_ranks(waiting, holds.occupants(conn, venue, spans), {h.id for h in leaving})
    changes = [
        (
            hold.id,
            rank,
            first_deadline(now, hold.kind, hold.start_at, venue.policy, venue.tz)
            if rank == 1
            else None,
        )
        for hold, rank in moves
    ]
    holds.set_ranks(conn, venue, changes, now)
    promoted = [
        replace(hold, rank=1, expires_at=expires, updated_at=now)
        for (hold, _), (_, rank, expires) in zip(moves, changes, strict=True)
        if rank == 1
    ]
    # A hold whose event has begun moves up with a deadline already due: no Confirm button
    # could work, so it gets no "promoted" DM; the next sweep expires it and says so.
    answerable = [h for h in promoted if h.expires_at is not None and h.expires_at > now]
    outbox.add(conn, venue.id, [notice(NoticeKind.PROMOTED, h) for h in answerable], now)
    audit.record(
        conn,
        venue.id,
        [event(h, actor, "promoted", now, expires_at=_iso(h.expires_at)) for h in promoted],
    )
    return promoted


def waiting_behind(conn: sa.Connection, venue: Venue, leaving: Sequence[Hold]) -> list[Hold]:
    """The 2nd-or-later holds in the way of ``leaving`` (span rows first, then just those)."""
    gone = {h.id for h in leaving}
    found = holds.occupants(conn, venue, [span_of(h) for h in leaving])
    ids = [o.hold_id for o in found if not o.first and not o.confirmed and o.hold_id not in gone]
    return holds.get_many(conn, venue, ids)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None
