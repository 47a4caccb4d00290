"""Spans in absolute time and the conflict predicate (docs/rules.md, Vocabulary)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

MINUTES_PER_DAY = 1440
MAX_EVENT = timedelta(hours=24)
MAX_TURNOVER_MIN = 1440
# The longest span any hold can have; reads look this far back for spans that still overlap.
MAX_SPAN = MAX_EVENT + timedelta(minutes=MAX_TURNOVER_MIN)


@dataclass(frozen=True)
class Span:
    """The parts a hold occupies over ``[start, end)``, turnover included."""

    parts: frozenset[str]
    start: datetime
    end: datetime

    def conflicts(self, other: Span) -> bool:
        """Shares a part and overlaps in time (half-open, so touching spans do not conflict)."""
        return bool(self.parts & other.parts) and self.start < other.end and other.start < self.end


def local_instant(day: date, minute: int, tz: ZoneInfo) -> datetime:
    """The instant ``minute`` minutes after local midnight of ``day`` (may exceed 1440), in
    UTC, so that spans, turnovers and lengths are counted in absolute time (arithmetic on
    two datetimes of one zone is wall-clock arithmetic in Python). A local time that a
    fall-back change shows twice is its first occurrence, the one before the clocks go back
    (docs/rules.md, Clock changes); one a spring-forward change skips is refused first
    (``skipped``)."""
    days, rest = divmod(minute, MINUTES_PER_DAY)
    on = day + timedelta(days=days) if days else day
    return datetime(on.year, on.month, on.day, rest // 60, rest % 60, tzinfo=tz).astimezone(UTC)


def skipped(day: date, minute: int, tz: ZoneInfo) -> tuple[datetime, datetime] | None:
    """The local times (naive, wall clock) that a spring-forward change skips around
    ``minute`` minutes after local midnight of ``day``, [first, after), if that time is one
    of them; else None."""
    if not _missing(_wall(day, minute), tz):
        return None
    first = after = _wall(day, minute)
    while _missing(first - _MINUTE, tz):
        first -= _MINUTE
    while _missing(after, tz):
        after += _MINUTE
    return first, after


_MINUTE = timedelta(minutes=1)


def _wall(day: date, minute: int) -> datetime:
    return datetime(day.year, day.month, day.day) + timedelta(minutes=minute)


def _missing(wall: datetime, tz: ZoneInfo) -> bool:
    """No instant shows ``wall`` on the zone's clocks (it comes back as another time)."""
    return wall.replace(tzinfo=tz).astimezone(UTC).astimezone(tz).replace(tzinfo=None) != wall


def end_minute(start_min: int, end_clock_min: int) -> int:
    """An end clock time at or before the start means past midnight (the modal and CLI rule)."""
    return end_clock_min if end_clock_min > start_min else end_clock_min + MINUTES_PER_DAY


def hold_span(parts: frozenset[str], start: datetime, end: datetime, turnover_min: int) -> Span:
    return Span(parts, start, end + timedelta(minutes=turnover_min))


def local_days(start: datetime, end: datetime, tz: ZoneInfo) -> list[date]:
    """Venue-local dates that ``[start, end)`` touches."""
    first = start.astimezone(tz).date()
    last = (end - timedelta(microseconds=1)).astimezone(tz).date()
    return [first + timedelta(days=i) for i in range((last - first).days + 1)]


def span_counts(spans: Iterable[Span], tz: ZoneInfo, sign: int = 1) -> dict[tuple[str, date], int]:
    """How many of ``spans`` touch each (part, day), times ``sign`` (-1 for spans leaving)."""
    counts: dict[tuple[str, date], int] = {}
    for s in spans:
        for key in part_day_keys([s], tz):
            counts[key] = counts.get(key, 0) + sign
    return counts


def touch(keys: Iterable[tuple[str, date]]) -> dict[tuple[str, date], int]:
    """Part-day changes that only bump rows (their span counts stay)."""
    return dict.fromkeys(keys, 0)


def merge(*changes: dict[tuple[str, date], int]) -> dict[tuple[str, date], int]:
    merged: dict[tuple[str, date], int] = {}
    for change in changes:
        for key, delta in change.items():
            merged[key] = merged.get(key, 0) + delta
    return merged


def part_day_keys(spans: Iterable[Span], tz: ZoneInfo) -> list[tuple[str, date]]:
    """The part-day rows to bump, sorted so every operation locks them in the same order.

    Two spans that conflict share a part at some instant, hence that part's row for the local
    day of that instant: the row both operations bump.
    """
    keys = {
        (part, day) for s in spans for part in s.parts for day in local_days(s.start, s.end, tz)
    }
    return sorted(keys)
