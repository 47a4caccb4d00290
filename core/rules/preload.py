"""What the rules look up lazily and keep, looked up ahead: a process that has just started
should not make its first salesperson wait for a calendar to be read."""

from __future__ import annotations

import contextlib
from datetime import date

from core.model import Venue
from core.rules import calendar
from core.rules.deadlines import last_bookable_day
from core.rules.lunisolar import OutOfRange, months_of


def preload(venue: Venue, today: date) -> None:
    """The holiday calendars ``venue``'s priority days name and the 旧暦 months (六曜) of every
    year from ``today`` to its last bookable day."""
    years = range(today.year, last_bookable_day(today, venue.policy).year + 1)
    calendar.preload(venue.policy.priority_days, years)
    for year in years:
        with contextlib.suppress(OutOfRange):  # past the 旧暦's table: its days show no 六曜
            months_of(year)
