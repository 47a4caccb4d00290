"""The live items a search reads, by part and start: what ``core.rules.chances`` decides
each place on (``core.store.availability`` reads them in one statement)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping
from itertools import accumulate
from operator import itemgetter, sub
from typing import NamedTuple


class Live(NamedTuple):
    """A live item's span on one part, as a search reads it; instants in whole microseconds
    since the epoch (thousands of places are looked up, and comparing aware datetimes of
    different zones costs a zone lookup each time)."""

    hold_id: int
    item: int
    start: int
    end: int
    confirmed: bool
    first: bool  # blocking and not confirmed: an item of rank 1


class PartItems(NamedTuple):
    """One part's items by start: their starts, the latest end among the first n for each
    n, the items, and the longest span among them."""

    starts: list[int]
    latest: list[int]
    items: list[Live]
    longest: int


class LiveItems:
    """The live items read for a search, by part and start."""

    def __init__(self, by_part: Mapping[str, list[Live]]) -> None:
        self._by_part = {part: sorted(found, key=_START) for part, found in by_part.items()}
        self._starts: dict[str, list[int]] = {}
        self._longest: dict[str, int] = {}
        self._parts: dict[str, PartItems] = {}
        for part, found in self._by_part.items():
            starts, ends = list(map(_START, found)), list(map(_END, found))
            # the latest end among the first n items, for each n
            latest = list(accumulate(ends, max))
            longest = max(map(sub, ends, starts))
            self._starts[part], self._longest[part] = starts, longest
            self._parts[part] = PartItems(starts, latest, found, longest)

    def on(self, parts: Iterable[str]) -> list[PartItems]:
        """What ``decide_all`` looks up on each of ``parts`` that has items, once a room."""
        return [self._parts[part] for part in sorted(parts) if part in self._parts]

    def around(self, parts: Iterable[str], start: int, end: int) -> list[list[Live]]:
        """For each part with any, the items whose span overlaps ``[start, end)`` there: one
        starts before ``end`` and at most the part's longest span before ``start``."""
        found = []
        for part in parts:
            starts = self._starts.get(part)
            if not starts:
                continue
            first = bisect_left(starts, start - self._longest[part])
            last = bisect_left(starts, end)
            mine = [x for x in self._by_part[part][first:last] if x.end > start]
            if mine:
                found.append(mine)
        return found


_START, _END = itemgetter(2), itemgetter(3)  # Live.start, Live.end
