"""Who moves up when holds leave (docs/rules.md, Promotion), as a pure function."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from core.model import Hold
from core.rules.rank import rank_of
from core.rules.requests import Occupant, span_of
from core.rules.spans import Span


def new_ranks(
    candidates: Sequence[Hold], around: Sequence[Occupant], gone: Collection[int] = ()
) -> list[tuple[Hold, int]]:
    """Waiting holds whose rank drops once ``gone`` have left, in arrival order, with the new rank.

    ``around`` must hold every live hold that conflicts with a candidate, at least on the
    candidates' parts. Rank counts earlier tentatives only, and a promotion does not change
    who is tentative, so no cascade is needed.
    """
    by_part: dict[str, list[tuple[int, Span]]] = {}
    for o in around:
        if not o.confirmed and o.hold_id not in gone:
            for part in o.span.parts:
                by_part.setdefault(part, []).append((o.hold_id, o.span))
    moves = []
    for c in sorted(candidates, key=lambda h: h.id):
        if c.id in gone or c.rank is None or c.rank == 1:
            continue
        near = {i: s for part in c.parts for i, s in by_part.get(part, ()) if i < c.id}
        rank = rank_of(span_of(c), list(near.values()))
        if rank < c.rank:
            moves.append((c, rank))
    return moves
