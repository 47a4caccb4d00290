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


@lru_cache(maxsize=4096)  # asked for every date a search or a refusal's alternatives look at
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


def preload(entries: tuple[str, ...], years: range) -> None:
    """Read the national calendars ``entries`` name for ``years`` now: a country's first
    lookup reads its rules (about 80 ms), which a salesperson should not wait for."""
    countries = [m.group(1).upper() for m in map(_HOLIDAYS.match, entries) if m]
    for country in countries:
        for year in years:
            _national(country, year)


@lru_cache(maxsize=256)
def _national(country: str, year: int) -> holidays.HolidayBase:
    return holidays.country_holidays(country, years=year)


def _is_date(entry: str) -> bool:
    try:
        date.fromisoformat(entry)
    except ValueError:
        return False
    return len(entry) == 10


def holiday_name(day: date, entries: tuple[str, ...], language: str | None = None) -> str | None:
    """The name of ``day``'s holiday in the calendars ``entries`` name (Japan's if none).

    ``language`` is a ``holidays`` language code ("ja", "en_US"); without one, or when a
    country has no translation into it, names are in the country's own language, never in
    whatever the process locale happens to be.
    """
    countries = [m.group(1).upper() for e in entries if (m := _HOLIDAYS.match(e))] or ["JP"]
    for country in countries:
        name: str | None = _named(country, day.year, language).get(day)
        if name:
            return name
    return None


@lru_cache(maxsize=256)
def _named(country: str, year: int, language: str | None) -> holidays.HolidayBase:
    calendar = holidays.country_holidays(country)  # no years: just its languages
    wanted = language if language in calendar.supported_languages else None
    return holidays.country_holidays(
        country, years=year, language=wanted or calendar.default_language
    )
