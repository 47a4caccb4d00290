"""Whether an edit keeps the hold's place or is a swap (docs/rules.md, Changing a hold), as a
pure function of the hold's old and new spans and the live items around them."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.rules.rank import rank_of
from core.rules.requests import Occupant
from core.rules.spans import Span


class Why(StrEnum):
    """Why an edit is a swap rather than an edit in place."""

    KEPT = ""  # it keeps its place
    ROOMS = "rooms"  # rooms were added or removed: the new items have no old place
    MEETS_NEW = "meets_new"  # the new items meet a live hold the old ones did not
    COSTS_RANK = "costs_rank"  # ranking again in its old place, some hold's rank would drop
    DEADLINE = "deadline"  # a 1st's deadline would fall after its new start


@dataclass(frozen=True)
class Placement:
    """The verdict: kept (with each new item's rank) or a swap, and why."""

    why: Why
    item_ranks: tuple[int, ...] = ()  # the hold's own new ranks, when kept

    @property
    def keep(self) -> bool:
        """The hold keeps its id, arrival and deadline (its rank may only get better)."""
        return self.why is Why.KEPT


def placement(
    hold_id: int,
    old_ranks: Sequence[int],
    new_spans: Sequence[Span],
    met_before: Collection[int],
    near: Sequence[Occupant],
    stored: Mapping[tuple[int, int], int],
) -> Placement:
    """Keep the place when the new spans meet no live hold that the old ones did not
    (``met_before``), and ranking every item again with the new spans in the hold's old
    place (its arrival) leaves each item's rank as it was or better, the hold's own too.

    ``near``: the live items of other holds in the new spans' way and in the way of every
    later tentative item there (so those can be ranked again); ``stored``: the rank each of
    those tentative items has now, by (hold id, item number); ``old_ranks``: the hold's own
    items', in order. Ranks count earlier tentative holds only, so nobody else's rank can
    change through the edit except a later item meeting the new spans.
    """
    if len(new_spans) != len(old_ranks):
        return Placement(Why.ROOMS)
    meeting = [o for o in near if any(o.span.conflicts(s) for s in new_spans)]
    if not {o.hold_id for o in meeting} <= set(met_before):
        return Placement(Why.MEETS_NEW)
    earlier = [o.span for o in near if not o.confirmed and o.hold_id < hold_id]
    own = tuple(rank_of(s, earlier) for s in new_spans)
    if any(new > old for new, old in zip(own, old_ranks, strict=True)):
        return Placement(Why.COSTS_RANK)
    for later in meeting:
        if later.confirmed or later.hold_id < hold_id:
            continue
        ahead = [
            o.span
            for o in near
            if not o.confirmed and o.hold_id < later.hold_id and o.hold_id != hold_id
        ]
        if rank_of(later.span, [*ahead, *new_spans]) > stored[(later.hold_id, later.item)]:
            return Placement(Why.COSTS_RANK)
    return Placement(Why.KEPT, own)
