"""Dates and times as a salesperson reads them: venue-local, in their language."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from babel.dates import format_date, format_datetime

from bot.texts import lang

_PATTERNS = {
    "ja": {
        "when": "M/d(E) H:mm",
        "when_year": "y/M/d(E) H:mm",
        "day": "M/d(E)",
        "day_year": "y/M/d(E)",
        "time": "H:mm",
    },
    "en": {
        "when": "EEE d MMM H:mm",
        "when_year": "EEE d MMM y H:mm",
        "day": "EEE d MMM",
        "day_year": "EEE d MMM y",
        "time": "H:mm",
    },
}


def when(moment: datetime, tz: ZoneInfo, locale: str | None, *, year: bool = False) -> str:
    """``12/8(火) 19:20`` / ``Tue 8 Dec 19:20`` in the venue's time zone."""
    code = lang(locale)
    pattern = _PATTERNS[code]["when_year" if year else "when"]
    return format_datetime(moment.astimezone(tz), pattern, locale=code)


def day(value: date, locale: str | None, *, year: bool = False) -> str:
    code = lang(locale)
    return format_date(value, _PATTERNS[code]["day_year" if year else "day"], locale=code)


def clock(moment: datetime, tz: ZoneInfo) -> str:
    return moment.astimezone(tz).strftime("%-H:%M")


def time_range(start: datetime, end: datetime, tz: ZoneInfo) -> str:
    """``11:00–15:00``; an end on a later local day reads ``22:00–翌1:00`` style as ``+1``."""
    days = (end.astimezone(tz).date() - start.astimezone(tz).date()).days
    suffix = f"(+{days})" if days else ""
    return f"{clock(start, tz)}–{clock(end, tz)}{suffix}"
