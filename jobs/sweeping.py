"""The sweep job's loop: every due 1st hold of a venue expired in short transactions of at
most ``batch`` holds (each ``Writes.expire_due``), until a batch comes back short.

A batch that stays contended is redone hold by hold, so one busy slot never holds up the
rest; a hold still busy then waits for the next sweep.
"""

from __future__ import annotations

from datetime import datetime

from core.results import Code, Refused, Swept
from core.roles.writes import Writes

BATCH = 500


def sweep(writes: Writes, venue_id: str, *, now: datetime, batch: int = BATCH) -> Swept | Refused:
    expired: list[int] = []
    promoted: list[int] = []
    while True:
        swept = writes.expire_due(venue_id, now=now, limit=batch)
        if isinstance(swept, Refused) and swept.code is Code.BUSY:
            swept = _one_by_one(writes, venue_id, now, batch)
        if isinstance(swept, Refused):
            return swept
        expired += swept.expired
        promoted += swept.promoted
        if len(swept.expired) < batch:
            return Swept(tuple(expired), tuple(promoted))


def _one_by_one(writes: Writes, venue_id: str, now: datetime, batch: int) -> Swept | Refused:
    due = writes.due(venue_id, now=now, limit=batch)
    if isinstance(due, Refused):
        return due
    expired: list[int] = []
    promoted: list[int] = []
    for hold_id in due:
        swept = writes.expire(venue_id, hold_id, now=now)
        if isinstance(swept, Refused):
            if swept.code is Code.BUSY:
                continue  # left for the next sweep; the batch then reports fewer than it took
            return swept
        expired += swept.expired
        promoted += swept.promoted
    return Swept(tuple(expired), tuple(promoted))
