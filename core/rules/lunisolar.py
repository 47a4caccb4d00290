"""The Japanese lunisolar calendar (旧暦) as Japanese almanacs print it today.

Japan has had no official lunisolar calendar since the 天保暦 was abolished in 1872; what
calendars print as 旧暦 applies the 天保暦's rules to modern new moons and solar terms:

* A month starts on the day, in Japan Standard Time (UTC+9), that holds the new moon (朔).
  This is where the Japanese calendar parts from the Chinese one, which counts days in
  China Standard Time (UTC+8): a new moon between 00:00 and 01:00 JST starts the Japanese
  month a day later (旧正月 2027 is 7 February in Japan, 6 February in China).
* Months are numbered by the principal term (中気, solar longitude a multiple of 30°) they
  contain: 冬至 (270°) in the 11th, 大寒 in the 12th, 雨水 in the 1st, 春分 in the 2nd, …
* A month holding no 中気 is a leap month (閏月) and repeats the number of the month
  before it. New moons and 中気 are compared by JST date, not by time of day.

Under 定気 a month can hold two 中気, and the plain rule above then numbers two months
alike. So months are counted from the month holding 冬至 (always the 11th) and, when
thirteen months lie between one 冬至 month and the next, the first of them holding no
中気 is the leap month. In every year since 1844 but one this gives what the 天保暦's own
rule (冬至, 春分, 夏至 and 秋分 in the 11th, 2nd, 5th and 8th months) gives.

The 旧暦2033年問題: from autumn 2033 to spring 2034 no numbering satisfies the 天保暦 rule
(the months holding 秋分 and 冬至 are too close, and three months hold no 中気). The
National Astronomical Observatory of Japan tabulates three resolutions and no public
body will choose among them. This module gives the first, 閏11月 (the month starting
2033-12-22 is the leap 11th), because it is what the rule above gives without a special
case, what the Chinese-style winter-solstice rule gives, what the 日本カレンダー暦文化振興協会
recommends, and what published almanacs print (tests pin it against one). Under the other
two resolutions (閏7月, 閏1月) the month numbers, and so 六曜, differ for dates from
2033-08-25 to 2034-03-19; nowhere else in 1900–2199.

Astronomy comes from PyEphem (``ephem``: VSOP87 and ELP theories in C, no data files):
its new moons agree with the Observatory's 暦要項 to within the printed minute.
Computing is pure; months are cached per 冬至-to-冬至 span (well under a second each).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone
from functools import lru_cache

import ephem

JST = timezone(timedelta(hours=9), "JST")
FIRST_YEAR = 1900
LAST_YEAR = 2199
_WINTER_SOLSTICE = 270.0
_DEGREES_PER_DAY = 360 / 365.2422
_SECOND = 1 / 86400


@dataclass(frozen=True)
class LunarMonth:
    """One lunisolar month: the JST date it starts, its number and whether it is 閏."""

    start: date
    number: int
    leap: bool


@dataclass(frozen=True)
class LunarDate:
    """A day of the 旧暦: its lunisolar year (that of its 1st month), month and day."""

    year: int
    month: int
    day: int
    leap: bool


class OutOfRange(ValueError):
    """A date the lunisolar calendar here is not computed for."""


def lunar_date(day: date) -> LunarDate:
    """The 旧暦 date of a Gregorian ``day`` (a Japanese calendar day)."""
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise OutOfRange(f"the 旧暦 is computed for {FIRST_YEAR}–{LAST_YEAR}, not {day.year}")
    span = day.year if day < _span(day.year + 1)[0].start else day.year + 1
    months = _span(span)
    month = next(m for m in reversed(months) if m.start <= day)
    before_first = all(m.number != 1 for m in months if m.start <= month.start)
    year = span - 1 if before_first else span
    return LunarDate(year, month.number, (day - month.start).days + 1, month.leap)


def months_of(year: int) -> tuple[LunarMonth, ...]:
    """Every lunisolar month that starts in Gregorian ``year``, in order."""
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise OutOfRange(f"the 旧暦 is computed for {FIRST_YEAR}–{LAST_YEAR}, not {year}")
    spans = _span(year) + _span(year + 1)
    return tuple(m for m in spans if m.start.year == year)


@lru_cache(maxsize=64)
def _span(year: int) -> tuple[LunarMonth, ...]:
    """The months from the 冬至 month of ``year - 1`` up to the 冬至 month of ``year``."""
    first_solstice = _term_date(year - 1, _WINTER_SOLSTICE)
    last_solstice = _term_date(year, _WINTER_SOLSTICE)
    starts = _new_moon_days(first_solstice - timedelta(days=31), last_solstice + timedelta(days=1))
    first = max(i for i, s in enumerate(starts) if s <= first_solstice)
    last = max(i for i, s in enumerate(starts) if s <= last_solstice)
    terms = _principal_term_days(year)
    count = last - first
    leap_at = None
    if count == 13:
        leap_at = next(
            i for i in range(first + 1, last) if not _holds_term(starts[i], starts[i + 1], terms)
        )
    months: list[LunarMonth] = []
    number = 10
    for i in range(first, last):
        leap = i == leap_at
        if not leap:
            number = number % 12 + 1
        months.append(LunarMonth(starts[i], number, leap))
    return tuple(months)


def _holds_term(start: date, end: date, terms: tuple[date, ...]) -> bool:
    return any(start <= t < end for t in terms)


def _new_moon_days(since: date, until: date) -> list[date]:
    """JST dates of every new moon from ``since`` to ``until`` (inclusive)."""
    days: list[date] = []
    moment = ephem.Date(datetime(since.year, since.month, since.day) - timedelta(hours=9))
    while True:
        moment = ephem.next_new_moon(moment)
        day = _jst_date(moment)
        if day > until:
            return days
        days.append(day)
        moment = ephem.Date(moment + 1)


def _principal_term_days(year: int) -> tuple[date, ...]:
    """JST dates of the thirteen 中気 from 冬至 of ``year - 1`` to 冬至 of ``year``."""
    following = (300, 330, *range(0, 300, 30))  # 大寒, 雨水, 春分, …, 冬至: all in ``year``
    return (_term_date(year - 1, _WINTER_SOLSTICE), *(_term_date(year, lon) for lon in following))


@lru_cache(maxsize=4096)
def _term_date(year: int, longitude: float) -> date:
    """JST date on which the Sun's apparent longitude reaches ``longitude`` in ``year``."""
    return _jst_date(_term_moment(year, longitude))


def _term_moment(year: int, longitude: float) -> float:
    # From the March equinox (about 20 March) at the mean rate; 285°-345° fall in Jan-Mar.
    offset = longitude if longitude < 285 else longitude - 360
    guess = ephem.Date(datetime(year, 3, 20)) + offset / _DEGREES_PER_DAY
    moment = float(guess)
    for _ in range(8):
        error = _angle(longitude - _sun_longitude(moment))
        step = error / _DEGREES_PER_DAY
        moment += step
        if abs(step) < _SECOND:
            break
    return moment


def _sun_longitude(moment: float) -> float:
    """The Sun's apparent geocentric ecliptic longitude of date, in degrees."""
    when = ephem.Date(moment)
    sun = ephem.Sun()
    sun.compute(when, epoch=when)
    return math.degrees(float(ephem.Ecliptic(sun, epoch=when).lon))


def _angle(degrees: float) -> float:
    """``degrees`` folded into (-180, 180]."""
    return (degrees + 180) % 360 - 180


def _jst_date(moment: float) -> date:
    utc: datetime = ephem.Date(moment).datetime().replace(tzinfo=UTC)
    return utc.astimezone(JST).date()
