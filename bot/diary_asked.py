"""Reading what follows ``/hold 台帳``: a day (``10/2``), a week (``週 10/2``, ``week 10/2``,
``週`` alone: this one) or a month (``10月``, ``2027年10月``); nothing: today. A date is read
as the quick form reads it (``10/2``, ``2027-10-02``, ``明日``); a month without a year is the
next such month, this one included. What cannot be read is said back, with what works."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from bot.quickform import parse
from core.diary.model import DiaryRange

WORDS = {"台帳", "だいちょう", "diary", "ダイアリー"}
WEEK_WORDS = {"週", "week", "今週", "週間"}
_MONTH = re.compile(r"^(?:(\d{4})\s*(?:年|/|-)\s*)?(\d{1,2})\s*月$", re.ASCII)
_YEAR_MONTH = re.compile(r"^(\d{4})\s*(?:/|-)\s*(\d{1,2})$", re.ASCII)


@dataclass(frozen=True)
class Unread:
    """Why the words were not a range: one of the diary's texts, with the word."""

    key: str  # "diary.unread", "diary.weekday"
    word: str = ""


def read(typed: str, today: date) -> DiaryRange | Unread:
    words = unicodedata.normalize("NFKC", typed).split()
    week = bool(words) and words[0].casefold() in WEEK_WORDS
    rest = " ".join(words[1:] if week else words)
    if not rest:
        return DiaryRange.week(today) if week else DiaryRange.day(today)
    if not week and (month := _month(rest, today)) is not None:
        return month
    quick = parse(rest, [], today)
    day = quick.day
    if day is None or quick.unparsed or quick.start_min is not None:
        return Unread("diary.unread", rest[:40])
    if quick.weekday_mismatch:  # 10/2(土) when 10/2 is a Friday: which was meant?
        return Unread("diary.weekday", rest[:40])
    try:
        return DiaryRange.week(day) if week else DiaryRange.day(day)
    except (ValueError, OverflowError):  # the week of 9999-12-31 ends past the calendar
        return Unread("diary.unread", rest[:40])


def _month(text: str, today: date) -> DiaryRange | None:
    found = _MONTH.match(text) or _YEAR_MONTH.match(text)
    if found is None:
        return None
    number = int(found.group(2))
    if not 1 <= number <= 12:
        return None
    if found.group(1):
        year = int(found.group(1))
    else:
        year = today.year if number >= today.month else today.year + 1
    try:
        return DiaryRange.month(year, number)
    except ValueError:
        return None
