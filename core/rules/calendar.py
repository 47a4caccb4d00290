"""Wedding-priority days: weekends, national holidays and configured dates."""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

import holidays

_HOLIDAYS = re.compile(r"^([a-z]{2})_holidays$")
_WEEKDAY_SETS = {
    "weekends": frozenset({5, 6}),
    "saturdays": frozenset({5}),
    "sundays": frozenset({6}),
}


class CalendarError(ValueError):
    """A ``priority_days`` entry that is not understood."""


def check_priority_days(entries: tuple[str, ...]) -> None:
    """Refuse entries we cannot evaluate, when a venue is loaded rather than on a booking."""
    for entry in entries:
        if entry in _WEEKDAY_SETS or _is_date(entry):
            continue
        match = _HOLIDAYS.match(entry)
        if not match:
            raise CalendarError(
                f"priority_days entry {entry!r}: use 'weekends', 'saturdays', 'sundays', "
                "'jp_holidays' (or another ISO country code, e.g. 'us_holidays'), or 'YYYY-MM-DD'"
            )
        country = match.group(1).upper()
        if country not in holidays.list_supported_countries():
            raise CalendarError(f"priority_days entry {entry!r}: no holiday calendar for {country}")


def is_priority_day(day: date, entries: tuple[str, ...]) -> bool:
    for entry in entries:
        if day.weekday() in _WEEKDAY_SETS.get(entry, frozenset()):
            return True
        if _is_date(entry) and date.fromisoformat(entry) == day:
            return True
        match = _HOLIDAYS.match(entry)
        if match and day in _national(match.group(1).upper(), day.year):
            return True
    return False


@lru_cache(maxsize=256)
def _national(country: str, year: int) -> holidays.HolidayBase:
    return holidays.country_holidays(country, years=year)


def _is_date(entry: str) -> bool:
    try:
        date.fromisoformat(entry)
    except ValueError:
        return False
    return len(entry) == 10
