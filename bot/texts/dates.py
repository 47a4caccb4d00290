"""Dates and times as a salesperson reads them: venue-local, in their language.

The one place that writes a date for Slack. Every date carries its weekday, its year when
that is not the reader's current year (the horizon is two years: "5/15(土)" read in December
means next May), and its 六曜 when the venue shows it: ``10/9(土・大安)``,
``2027/5/15(土・大安)``, ``Sat 9 Oct (Taian)``. Times read ``11:00〜15:00`` and
``21:00〜翌1:00`` in Japanese, ``11:00–15:00`` and ``21:00–1:00 (next day)`` in English;
deadlines ``12/9(水) 10:30まで`` with, where the reader acts on it, the time left.

What depends on the reader and the venue travels as one ``DateStyle`` (``style_for(venue,
now)``); without one (``PLAIN``) dates have no year and no 六曜, as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from babel.dates import format_date

from bot.texts import lang
from core.model import Venue
from core.rules.lunisolar import OutOfRange
from core.rules.rokuyo import Rokuyo
from core.rules.rokuyo import rokuyo as rokuyo_of

_PATTERNS = {
    "ja": {"day": "M/d", "day_year": "y/M/d"},
    "en": {"day": "EEE d MMM", "day_year": "EEE d MMM y"},
}
_JA_WEEKDAYS = "月火水木金土日"
_EN_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class DateStyle:
    """How this reader sees dates: ``today`` (venue-local) decides when a year is shown,
    ``rokuyo`` whether the 六曜 follows the weekday."""

    today: date | None = None  # None: never a year unless asked for
    rokuyo: bool = False


PLAIN = DateStyle()


def style_for(venue: Venue, now: datetime) -> DateStyle:
    """The style for a reader of ``venue`` at ``now``: its today and its ``show_rokuyo``."""
    return DateStyle(today=now.astimezone(venue.tz).date(), rokuyo=venue.policy.show_rokuyo)


def day(value: date, locale: str | None, *, year: bool = False, style: DateStyle = PLAIN) -> str:
    """``10/9(土・大安)``, ``2027/5/15(土)`` / ``Sat 9 Oct (Taian)``, ``Sat 15 May 2027``."""
    shown_year = year or (style.today is not None and value.year != style.today.year)
    return _day(value, lang(locale), shown_year=shown_year, rokuyo=style.rokuyo)


@lru_cache(maxsize=4096)
def _day(value: date, code: str, *, shown_year: bool, rokuyo: bool) -> str:
    """Written once per date and manner (Babel's formatting and the 旧暦 are the slow part):
    an App Home or a listing writes the same few dates dozens of times."""
    written = format_date(value, _PATTERNS[code]["day_year" if shown_year else "day"], locale=code)
    six = _rokuyo(value) if rokuyo else None
    if code == "ja":
        marks = _JA_WEEKDAYS[value.weekday()] + (f"・{six.japanese}" if six else "")
        return f"{written}({marks})"
    return f"{written} ({six.romaji.capitalize()})" if six else written


def preload() -> None:
    """Babel's data for each language, read now: the first date written in a language reads
    it (about 20 ms), which a server does once built rather than in a salesperson's answer."""
    for code in _PATTERNS:
        format_date(date(2000, 1, 1), _PATTERNS[code]["day"], locale=code)


def bare_day(value: date, locale: str | None, *, style: DateStyle = PLAIN) -> str:
    """The date alone, to name it in a sentence: ``5/16``, ``2027/5/16`` / ``16 May 2027``."""
    code = lang(locale)
    shown_year = style.today is not None and value.year != style.today.year
    pattern = {"ja": ("M/d", "y/M/d"), "en": ("d MMM", "d MMM y")}[code][shown_year]
    return format_date(value, pattern, locale=code)


def when(
    moment: datetime,
    tz: ZoneInfo,
    locale: str | None,
    *,
    year: bool = False,
    style: DateStyle = PLAIN,
) -> str:
    """``12/8(火) 19:20`` / ``Tue 8 Dec 19:20`` in the venue's time zone."""
    local = moment.astimezone(tz)
    return f"{day(local.date(), locale, year=year, style=style)} {clock(local, tz)}"


def clock(moment: datetime, tz: ZoneInfo) -> str:
    return moment.astimezone(tz).strftime("%-H:%M")


def time_range(start: datetime, end: datetime, tz: ZoneInfo, locale: str | None = None) -> str:
    """``11:00〜15:00``, ``21:00〜翌1:00`` / ``11:00–15:00``, ``21:00–1:00 (next day)``."""
    days = (end.astimezone(tz).date() - start.astimezone(tz).date()).days
    begin, finish = clock(start, tz), clock(end, tz)
    if lang(locale) == "ja":
        later = {0: "", 1: "翌", 2: "翌々"}.get(days, f"{days}日後")
        return f"{begin}〜{later}{finish}"
    later = {0: "", 1: " (next day)"}.get(days, f" (+{days} days)")
    return f"{begin}–{finish}{later}"


def deadline(
    moment: datetime,
    tz: ZoneInfo,
    locale: str | None,
    *,
    style: DateStyle = PLAIN,
    now: datetime | None = None,
) -> str:
    """``12/9(水) 10:30まで`` / ``Wed 9 Dec 10:30``; with ``now`` (App Home, DMs) the time
    left follows: ``12/9(水) 10:30まで（あと3日）`` / ``Wed 9 Dec 10:30 (3 days left)``."""
    shown = when(moment, tz, locale, style=style)
    left = time_left(moment, now, tz, locale) if now is not None else None
    if lang(locale) == "ja":
        left = "本日" if left == "本日まで" else left  # not "10:30まで（本日まで）"
        return f"{shown}まで" + (f"（{left}）" if left else "")
    return shown + (f" ({left})" if left else "")


def time_left(until: datetime, now: datetime, tz: ZoneInfo, locale: str | None) -> str:
    """``あと3日`` (calendar days), ``あと17時間`` (under a day), ``本日まで`` (later today),
    ``あと20分`` (under an hour), ``期限切れ`` / ``3 days left`` … ``due today``, ``past due``."""
    ja = lang(locale) == "ja"
    remaining = until - now
    if remaining <= timedelta(0):
        return "期限切れ" if ja else "past due"
    if remaining < timedelta(hours=1):
        minutes = math.ceil(remaining / timedelta(minutes=1))
        return f"あと{minutes}分" if ja else _plural(minutes, "minute") + " left"
    days = (until.astimezone(tz).date() - now.astimezone(tz).date()).days
    if days == 0:
        return "本日まで" if ja else "due today"
    if remaining < timedelta(days=1):
        hours = remaining // timedelta(hours=1)
        return f"あと{hours}時間" if ja else _plural(hours, "hour") + " left"
    return f"あと{days}日" if ja else _plural(days, "day") + " left"


def weekday_name(weekday: int, locale: str | None) -> str:
    """``土曜日`` / ``Saturday`` for ``date.weekday()``'s number (Monday 0)."""
    return f"{_JA_WEEKDAYS[weekday]}曜日" if lang(locale) == "ja" else _EN_WEEKDAYS[weekday]


def _rokuyo(value: date) -> Rokuyo | None:
    """None beyond the years the 旧暦 is computed for (a date typed as 9999-12-31 is still
    named in its refusal, without a 六曜)."""
    try:
        return rokuyo_of(value)
    except OutOfRange:
        return None


def _plural(count: int, unit: str) -> str:
    return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


def either(days: list[date], locale: str | None, *, style: DateStyle = PLAIN) -> str:
    """``5/16(日)、5/15(土)、5/22(土)`` / ``Sun 16 May, Sat 15 May or Sat 22 May``."""
    shown = [day(d, locale, style=style) for d in days]
    if lang(locale) == "ja" or len(shown) < 2:
        return "、".join(shown)
    return ", ".join(shown[:-1]) + " or " + shown[-1]
