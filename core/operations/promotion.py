"""Promotion after holds leave: only the holds near the ones that left are looked at."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from datetime import date

from core import events
from core.model import Hold, HoldItem
from core.operations.tx import Snapshot, Tx
from core.rules.deadlines import deadline_from
from core.rules.promotion import Move, new_ranks
from core.rules.requests import item_span, spans_of
from core.rules.spans import Span, part_day_keys, touch
from core.store import hold_writes, holds, part_days
from core.store.hold_writes import RankChange


def promote_after(
    tx: Tx,
    leaving: Sequence[Hold],
    bumped: set[tuple[str, date]],
    actor: str,
    causes: Mapping[int, str] | None = None,
    *,
    gone: Collection[int] | None = None,
) -> list[Hold]:
    """Give every waiting hold with an item that conflicted with ``leaving`` its new item
    ranks; the holds whose every item is now rank 1 get a deadline counted from now.

    ``leaving`` are the holds as they were; ``gone``, those of them no longer live (all, by
    default). A hold that shrank stays: itself and those behind it are ranked again.

    A waiting item's rank depends on holds beyond the ones that left (a whole room waits
    behind both halves), and a hold's on all its items, so the part-days of every item of
    every candidate are bumped before their neighbours are read again. ``causes``: why each
    leaving hold left (an ``Action``), which the promoted are told.
    """
    if not leaving:
        return []
    left = _ids(leaving) if gone is None else set(gone)
    waiting = waiting_behind(tx, leaving, left)
    if not waiting:
        return []
    venue, now = tx.venue, tx.now
    spans = [s for h in waiting for s in spans_of(h)]
    part_days.bump(
        tx.conn, venue.id, touch(k for k in part_day_keys(spans, venue.tz) if k not in bumped)
    )
    moves = new_ranks(waiting, holds.occupants(tx.conn, venue, _waiting_spans(waiting)), left)
    changes = [_change(tx, move) for move in moves]
    hold_writes.set_ranks(tx.conn, venue, changes, now)
    promoted = [
        _moved(move, change, tx)
        for move, change in zip(moves, changes, strict=True)
        if change.rank == 1
    ]
    in_front = _LeftInFront(leaving)
    tx.journal.record(*[in_front.event(h, actor, causes or {}) for h in promoted])
    return promoted


class _LeftInFront:
    """The holds that left, by part: a sweep promotes thousands behind thousands, and each
    promoted hold is compared only with the items that shared one of its parts."""

    def __init__(self, leaving: Sequence[Hold]) -> None:
        self._order = {h.id: n for n, h in enumerate(leaving)}
        self._by_part: dict[str, list[tuple[int, HoldItem]]] = defaultdict(list)
        for hold in leaving:
            for item in hold.items:
                for part in item.parts:
                    self._by_part[part].append((hold.id, item))

    def event(self, hold: Hold, actor: str, causes: Mapping[int, str]) -> events.Promoted:
        """The event, with the holds that left from in front of it (in the order they
        left) and why the first did."""
        ids = {
            left_id
            for item in hold.items
            for part in item.parts
            for left_id, left in self._by_part.get(part, ())
            if item.conflicts(left)
        }
        after = tuple(sorted(ids, key=self._order.__getitem__))
        cause = causes.get(after[0], "") if after else ""
        return events.Promoted(hold, actor, cause, after)


def waiting_behind(
    snap: Snapshot, leaving: Sequence[Hold], gone: Collection[int] | None = None
) -> list[Hold]:
    """Holds with a waiting item (rank 2 or more) in the way of ``leaving`` (besides those
    ``gone``, by default all of them): span rows first, then just those holds."""
    gone = _ids(leaving) if gone is None else gone
    spans = [s for h in leaving for s in spans_of(h)]
    found = holds.occupants(snap.conn, snap.venue, spans)
    ids = [o.hold_id for o in found if not o.first and not o.confirmed and o.hold_id not in gone]
    return holds.get_many(snap.conn, snap.venue, ids)


def _waiting_spans(waiting: Sequence[Hold]) -> list[Span]:
    """The spans of the items that wait: only their ranks can drop."""
    return [item_span(i) for h in waiting for i in h.items if (i.rank or 1) > 1]


def _change(tx: Tx, move: Move) -> RankChange:
    hold, venue = move.hold, tx.venue
    expires = (
        deadline_from(tx.now, hold.kind, hold.first_start, venue.policy, venue.tz)
        if move.rank == 1
        else None
    )
    items = tuple(
        (n, rank)
        for n, (item, rank) in enumerate(zip(hold.items, move.item_ranks, strict=True), start=1)
        if item.rank != rank
    )
    return RankChange(hold.id, move.rank, expires, items)


def _moved(move: Move, change: RankChange, tx: Tx) -> Hold:
    """The hold as it is now: its new ranks and deadline."""
    items = tuple(
        replace(item, rank=rank)
        for item, rank in zip(move.hold.items, move.item_ranks, strict=True)
    )
    return replace(
        move.hold, rank=change.rank, expires_at=change.expires_at, updated_at=tx.now, items=items
    )


def _ids(found: Sequence[Hold]) -> set[int]:
    return {h.id for h in found}
