"""The manager's pipeline (docs/rules.md, The pipeline report): one month's bookings by
event month and by enquiry month, their splits and the coming months' forecast. Two
statements on one snapshot (the bookings with their holds; people's names), whatever the
number of bookings; the arithmetic is ``core.rules.pipeline``'s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time
from functools import partial
from zoneinfo import ZoneInfo

from core.operations import staff_names
from core.operations.tx import Snapshot
from core.rules.pipeline import BookingRow, Report, month_key, months_from, report
from core.store import pipeline as store


@dataclass(frozen=True)
class PipelineRead:
    """The report, the bookings it was drawn from (counted or not) and people's names."""

    report: Report
    bookings: tuple[BookingRow, ...]
    names: Mapping[str, str]


def pipeline(snap: Snapshot, year: int, number: int, ahead: int = 3) -> PipelineRead:
    """The report of a venue-local month, with a forecast of it and ``ahead`` more months."""
    tz = snap.venue.tz
    months = months_from(year, number, ahead + 2)
    first, after = date(year, number, 1), date(*months[ahead + 1], 1)
    start = datetime.combine(first, time(), tz)
    until = datetime.combine(date(*months[1], 1), time(), tz)
    found = store.bookings(snap.conn, snap.venue.id, (first, after), (start, until))
    asked = partial(_local_month, tz=tz)
    drawn = report(found, (year, number), asked, ahead=ahead)
    return PipelineRead(drawn, tuple(found), staff_names.names(snap))


def _local_month(at: datetime, tz: ZoneInfo) -> tuple[int, int]:
    return month_key(at.astimezone(tz))
