"""The manager's pipeline (docs/rules.md, The pipeline report): one month's bookings by
event month and by enquiry month, their splits and the coming months' forecast. Two
statements on one snapshot (the bookings with their holds; people's names), whatever the
number of bookings; the arithmetic is ``core.rules.pipeline``'s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from functools import partial
from zoneinfo import ZoneInfo

from core.model import Venue
from core.operations import staff_names
from core.operations.tx import Snapshot
from core.rules.pipeline import (
    BookingRow,
    LastWeek,
    Report,
    month_key,
    months_from,
    report,
    week_numbers,
)
from core.rules.reasons import not_losses, reasons_for
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
    found = _judged(
        store.bookings(snap.conn, snap.venue.id, (first, after), (start, until)), snap.venue
    )
    asked = partial(_local_month, tz=tz)
    drawn = report(found, (year, number), asked, ahead=ahead)
    return PipelineRead(drawn, tuple(found), staff_names.names(snap))


def _judged(found: list[BookingRow], venue: Venue) -> list[BookingRow]:
    """The bookings with the venue's own reasons that are no loss (its [[reasons]])."""
    no_loss = not_losses(reasons_for(venue))
    return [replace(b, no_loss=no_loss) for b in found]


def _local_month(at: datetime, tz: ZoneInfo) -> tuple[int, int]:
    return month_key(at.astimezone(tz))


def last_week(snap: Snapshot, now: datetime) -> LastWeek:
    """The venue-local week (Monday to Monday) before the one ``now`` is in, and what
    happened in it (the managers' Monday digest): one statement."""
    tz = snap.venue.tz
    today = now.astimezone(tz).date()
    until = datetime.combine(today - timedelta(days=today.weekday()), time(), tz)
    start = datetime.combine(until.date() - timedelta(days=7), time(), tz)
    found = _judged(store.bookings_moved(snap.conn, snap.venue.id, start, until), snap.venue)
    return LastWeek(start, until, week_numbers(found, start, until))
