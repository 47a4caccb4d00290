"""Who moves up when holds leave (DESIGN.md, promotion), as a pure function."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from core.model import Hold, Status
from core.rules.rank import rank_of
from core.rules.requests import span_of


def new_ranks(
    candidates: Sequence[Hold], around: Sequence[Hold], gone: Collection[int] = ()
) -> list[tuple[Hold, int]]:
    """Waiting holds whose rank drops once ``gone`` have left, in arrival order, with the new rank.

    ``around`` must hold every live hold that conflicts with a candidate. Rank counts earlier
    tentatives only, and a promotion does not change who is tentative, so no cascade is needed.
    """
    live = [h for h in around if h.status is Status.TENTATIVE and h.id not in gone]
    moves = []
    for c in sorted(candidates, key=lambda h: h.id):
        if c.id in gone or c.rank is None or c.rank == 1:
            continue
        rank = rank_of(span_of(c), [span_of(h) for h in live if h.id < c.id])
        if rank < c.rank:
            moves.append((c, rank))
    return moves
