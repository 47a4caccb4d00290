"""Who moves up when holds leave (docs/rules.md, Promotion), as a pure function."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from core.model import Hold
from core.rules.rank import rank_of
from core.rules.requests import Occupant, item_span
from core.rules.spans import Span


@dataclass(frozen=True)
class Move:
    """A waiting hold whose items move up: every item's new rank, in item order."""

    hold: Hold
    item_ranks: tuple[int, ...]

    @property
    def rank(self) -> int:
        """The hold's: its largest item rank."""
        return max(self.item_ranks)


def new_ranks(
    candidates: Sequence[Hold], around: Sequence[Occupant], gone: Collection[int] = ()
) -> list[Move]:
    """Waiting holds with an item whose rank drops once ``gone`` have left, in arrival order.

    ``around`` must hold every live item that conflicts with a candidate's waiting items,
    at least on their parts. Ranks count earlier tentatives only, and a promotion does not
    change who is tentative, so no cascade is needed; a package moves up to 1st only when
    its last waiting item reaches rank 1.
    """
    by_part: dict[str, list[tuple[tuple[int, int], Span]]] = {}
    for o in around:
        if not o.confirmed and o.hold_id not in gone:
            for part in o.span.parts:
                by_part.setdefault(part, []).append(((o.hold_id, o.item), o.span))
    moves = []
    for c in sorted(candidates, key=lambda h: h.id):
        if c.id in gone or c.rank is None or c.rank == 1:
            continue
        ranks = []
        for item in c.items:
            if item.rank is None or item.rank == 1:
                ranks.append(item.rank or 1)
                continue
            near = {key: s for p in item.parts for key, s in by_part.get(p, ()) if key[0] < c.id}
            ranks.append(rank_of(item_span(item), list(near.values())))
        if tuple(ranks) != tuple(item.rank for item in c.items):
            moves.append(Move(c, tuple(ranks)))
    return moves
