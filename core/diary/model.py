"""What a diary shows: the range of days asked for, and what is read for it."""

from __future__ import annotations

from calendar import monthrange
from dataclasses import dataclass
from datetime import date, timedelta
from enum import StrEnum

from core.model import Hold, Venue

MAX_DAYS = 31  # the longest range a picture holds (a month)


class View(StrEnum):
    DAY = "day"  # rooms × hours
    WEEK = "week"  # rooms × days, a cell per slot (or per day when the venue has none)
    MONTH = "month"  # rooms × days, a cell per day


class Style(StrEnum):
    """How a block is told apart, in colour and in black and white."""

    CONFIRMED = "confirmed"  # 本予約
    FIRST = "first"  # 1番手, with its deadline
    SECOND = "second"  # 2番手 (and further back)
    HOUSE = "house"  # 社内押さえ: a manager's hold for the venue's own use (Hold.house)


@dataclass(frozen=True)
class DiaryRange:
    """The days a picture covers, both included; built only by ``day``, ``week``, ``month``."""

    view: View
    first: date
    last: date

    @classmethod
    def day(cls, on: date) -> DiaryRange:
        return cls(View.DAY, on, on)

    @classmethod
    def week(cls, on: date) -> DiaryRange:
        """The week (Monday to Sunday) that ``on`` falls in."""
        monday = on - timedelta(days=on.weekday())
        return cls(View.WEEK, monday, monday + timedelta(days=6))

    @classmethod
    def month(cls, year: int, number: int) -> DiaryRange:
        """Raises ValueError for a month that does not exist."""
        first = date(year, number, 1)
        return cls(View.MONTH, first, date(year, number, monthrange(year, number)[1]))

    @property
    def days(self) -> tuple[date, ...]:
        count = (self.last - self.first).days + 1
        return tuple(self.first + timedelta(days=n) for n in range(count))


@dataclass(frozen=True)
class DiaryRead:
    """The venue as the read saw it and its live holds from the day before the range on."""

    venue: Venue
    range: DiaryRange
    holds: tuple[Hold, ...]
