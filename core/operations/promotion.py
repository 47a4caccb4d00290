"""Promotion after holds leave: only the holds near the ones that left are looked at."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from core import events
from core.model import Hold
from core.operations.tx import Snapshot, Tx
from core.rules.deadlines import deadline_from
from core.rules.promotion import new_ranks
from core.rules.requests import span_of
from core.rules.spans import part_days, touch
from core.store import holds, ledger


def promote_after(
    tx: Tx, leaving: Sequence[Hold], bumped: set[tuple[str, date]], actor: str
) -> list[Hold]:
    """Give every waiting hold that conflicted with ``leaving`` its new rank; the new 1sts
    get a deadline counted from now.

    A candidate's rank depends on holds beyond the ones that left (a whole room waits behind
    both halves), so its own part-days are bumped before its rank is read again.
    """
    if not leaving:
        return []
    waiting = waiting_behind(tx, leaving)
    if not waiting:
        return []
    venue, now = tx.venue, tx.now
    spans = [span_of(h) for h in waiting]
    ledger.bump(tx.conn, venue.id, touch(k for k in part_days(spans, venue.tz) if k not in bumped))
    moves = new_ranks(waiting, holds.occupants(tx.conn, venue, spans), {h.id for h in leaving})
    changes = [
        (
            hold.id,
            rank,
            deadline_from(now, hold.kind, hold.start_at, venue.policy, venue.tz)
            if rank == 1
            else None,
        )
        for hold, rank in moves
    ]
    holds.set_ranks(tx.conn, venue, changes, now)
    promoted = [
        replace(hold, rank=1, expires_at=expires, updated_at=now)
        for (hold, _), (_, rank, expires) in zip(moves, changes, strict=True)
        if rank == 1
    ]
    tx.journal.record(*[events.Promoted(h, actor) for h in promoted])
    return promoted


def waiting_behind(snap: Snapshot, leaving: Sequence[Hold]) -> list[Hold]:
    """The 2nd-or-later holds in the way of ``leaving`` (span rows first, then just those)."""
    gone = {h.id for h in leaving}
    found = holds.occupants(snap.conn, snap.venue, [span_of(h) for h in leaving])
    ids = [o.hold_id for o in found if not o.first and not o.confirmed and o.hold_id not in gone]
    return holds.get_many(snap.conn, snap.venue, ids)
