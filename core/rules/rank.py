"""Rank (順位): 1 + the most earlier live tentative holds covering one part at one instant."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from core.rules.spans import Span


def rank_of(target: Span, earlier_tentatives: Iterable[Span]) -> int:
    """The rank ``target`` has behind ``earlier_tentatives`` (docs/rules.md, Rank).

    For every part of the target, sweep the instants where an earlier hold starts or ends
    inside the target's span and keep the largest number covering one instant.
    """
    best = 0
    ahead = [s for s in earlier_tentatives if s.conflicts(target)]
    for part in target.parts:
        events: list[tuple[datetime, int]] = []
        for s in ahead:
            if part in s.parts:
                events.append((max(s.start, target.start), 1))
                events.append((min(s.end, target.end), -1))
        # At equal instants the end comes first: spans are half-open.
        events.sort(key=lambda e: (e[0], e[1]))
        depth = 0
        for _, step in events:
            depth += step
            best = max(best, depth)
    return best + 1
