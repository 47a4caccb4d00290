"""A place (room, date, times, kind) carried in a button's value: a search result or an
alternative whose button opens the hold form filled in. Read strictly: a value is typed by
whoever crafted the payload. The kind is the venue's kind id (``wedding``, ``nijikai``): the
form it opens checks it against the venue's kinds, as every submitted kind is."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from bot import strict
from core.results import Found

_VALUE = re.compile(r"([^|]{1,200})\|(\d{4}-\d{2}-\d{2})\|(\d{1,4})\|(\d{1,4})\|([a-z0-9_-]{1,32})")
_LONGEST = 2 * 1440  # an end past midnight is at most a day after the start's day


@dataclass(frozen=True)
class Chosen:
    room_id: str
    day: date
    start_min: int
    end_min: int  # above 1440 past midnight, as a request's
    kind: str  # the venue's kind id


def value_of(found: Found, kind: str) -> str:
    place = found.place
    return f"{place.room.id}|{place.day.isoformat()}|{place.start_min}|{place.end_min}|{kind}"


def chosen(value: object) -> Chosen | None:
    """The place a button names, or None for anything else."""
    match = _VALUE.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None
    room, day, start, end, kind = match.groups()
    parsed = strict.iso_date(day)
    first, last = int(start), int(end)
    if parsed is None or not 0 <= first < 1440 or not first < last <= _LONGEST:
        return None
    return Chosen(room, parsed, first, last, kind)
