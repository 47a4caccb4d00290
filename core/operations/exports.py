"""Reads for the ledger leaving osae: a range of dates for the export (live holds, or every
hold with why it left), and the live holds a calendar feed shows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date

from core.model import LIVE, Hold, Status
from core.operations.tx import Snapshot
from core.store import ranges


@dataclass(frozen=True)
class LedgerOut:
    """Holds of a range in date and time order; ``reasons``: a cancelled hold's reason."""

    holds: tuple[Hold, ...]
    reasons: Mapping[int, str] = field(default_factory=dict)


def ledger_out(snap: Snapshot, start: date, end: date, left: bool = False) -> LedgerOut:
    statuses = tuple(Status) if left else tuple(LIVE)
    found = ranges.between(snap.conn, snap.venue, start, end, statuses)
    cancelled = [h.id for h in found if h.status is Status.CANCELLED]
    reasons = ranges.cancel_reasons(snap.conn, snap.venue, cancelled) if cancelled else {}
    return LedgerOut(tuple(found), reasons)
