"""Who is in a request's way, and whether only the turnover (転換) puts them there (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from core.model import Hold, HoldItem, Status
from core.results import InWay


def in_the_way(mine: Sequence[HoldItem], others: Sequence[Hold]) -> tuple[InWay, ...]:
    """Each of ``others`` with an item that conflicts with one of ``mine``: confirmed first,
    then by rank and arrival. A hold whose every conflicting pair of items only meets in the
    turnover after the earlier event (the events themselves do not overlap) carries the
    minutes of that turnover, so that the words can say "＋転換90分"."""
    found = []
    for hold in others:
        pairs = [(m, o) for m in mine for o in hold.items if m.conflicts(o)]
        if not pairs:
            continue
        turnover = [_turnover_only(m, o) for m, o in pairs]
        only = None if None in turnover else max(t for t in turnover if t is not None)
        found.append(InWay(hold, only))
    return tuple(sorted(found, key=_order))


def _turnover_only(mine: HoldItem, other: HoldItem) -> int | None:
    """Minutes of turnover that make two conflicting items meet; None if the events overlap."""
    if mine.start_at < other.end_at and other.start_at < mine.end_at:
        return None
    earlier = other if other.end_at <= mine.start_at else mine
    return (earlier.span_end - earlier.end_at) // timedelta(minutes=1)


def _order(found: InWay) -> tuple[int, int, int]:
    hold = found.hold
    return (0 if hold.status is Status.CONFIRMED else 1, hold.rank or 0, hold.id)
