"""The read a diary picture is drawn from (docs/rules.md, Seeing the ledger): the live holds
of a range of days, one statement on one snapshot, whatever the number of holds."""

from __future__ import annotations

from datetime import timedelta

from core.diary.model import DiaryRange, DiaryRead
from core.operations.tx import Snapshot
from core.store import holds


def diary(snap: Snapshot, days: DiaryRange) -> DiaryRead:
    """The venue as the snapshot sees it and every live hold from the day before ``days``
    (an event of that evening may run past midnight into the first day) to its last day."""
    found = holds.live_between(snap.conn, snap.venue, days.first - timedelta(days=1), days.last)
    return DiaryRead(snap.venue, days, tuple(found))
