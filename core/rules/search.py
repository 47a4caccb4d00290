"""Finding a slot (docs/rules.md, Finding a slot): which dates, times and rooms a search looks
at, and in what order, as pure functions of the search and the venue. What a request at
each of them would get is ``core.rules.chances``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from core.model import Kind, Room, Venue
from core.results import Code, Place, Refused
from core.rules.calendar import CalendarError, check_priority_days, holiday_name, is_priority_day
from core.rules.deadlines import last_bookable_day
from core.rules.requests import (
    MAX_GUESTS,
)
from core.rules.rokuyo import Rokuyo, rokuyo
from core.rules.spans import MINUTES_PER_DAY

MAX_DAYS = 366  # a search covers at most this many dates
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
# Kinds of day a search may keep (any of them): docs/rules.md, Finding a slot.
DAY_KINDS = ("weekends", "holidays", "priority", "weekdays", *WEEKDAYS)
WHOLE_DAY = (0, MINUTES_PER_DAY)


@dataclass(frozen=True)
class Search:
    """What a salesperson asks: dates ``first`` to ``last`` (inclusive) and filters.

    ``rooms`` empty: every room; ``slots`` and ``times`` empty: the venue's slots, or the
    whole day if it has none; ``days`` and ``rokuyo`` empty: any day.
    """

    first: date
    last: date
    rooms: tuple[str, ...] = ()
    guests: int | None = None
    slots: tuple[str, ...] = ()
    times: tuple[int, int] | None = None  # start and end minute, as a request's
    days: frozenset[str] = frozenset()
    rokuyo: frozenset[Rokuyo] = frozenset()
    kind: Kind = Kind.WEDDING


def check_search(search: Search, venue: Venue) -> Refused | None:
    """A search's input: a range of at most ``MAX_DAYS`` in order, known rooms and slots,
    times a request could have; refused here before anything is read."""
    if search.first > search.last:
        return Refused(Code.BAD_RANGE, field="from", detail=search.last.isoformat())
    length = (search.last - search.first).days + 1
    if length > MAX_DAYS:
        return Refused(Code.RANGE_TOO_LONG, field="to", limit=MAX_DAYS, detail=str(length))
    unknown = {kind for kind in search.days if not is_day_kind(kind)}
    if unknown:
        return Refused(Code.BAD_DAYS, field="days", detail=", ".join(sorted(unknown)))
    if search.guests is not None and search.guests < 1:
        return Refused(Code.BAD_GUESTS, field="guests", limit=MAX_GUESTS, detail=str(search.guests))
    return _check_places(search, venue)


def _check_places(search: Search, venue: Venue) -> Refused | None:
    for room_id in search.rooms:
        room = venue.rooms.get(room_id)
        if room is None or not room.active:
            return Refused(Code.UNKNOWN_ROOM, field="room", detail=room_id)
    names = {slot.name for slot in venue.slots}
    for name in search.slots:
        if name not in names:
            return Refused(Code.UNKNOWN_SLOT, field="slot", detail=name)
    if search.times is None:
        return None
    start, end = search.times
    if not 0 <= start < MINUTES_PER_DAY or end <= start:
        return Refused(Code.BAD_TIMES, field="start" if end > start else "end")
    if end - start > MINUTES_PER_DAY:
        return Refused(Code.TOO_LONG, field="end", limit=24)
    return None


def dates(search: Search, venue: Venue, today: date) -> list[date]:
    """The dates of the range a request could be made for now, of the kinds asked."""
    first = max(search.first, today)
    last = min(search.last, last_bookable_day(today, venue.policy))
    found = []
    for offset in range((last - first).days + 1):
        day = first + timedelta(days=offset)
        if search.days and not any(is_kind(day, kind, venue) for kind in search.days):
            continue
        if search.rokuyo and rokuyo(day) not in search.rokuyo:
            continue
        found.append(day)
    return found


def is_day_kind(kind: str) -> bool:
    """One of ``DAY_KINDS``, or what a venue file's ``priority_days`` takes (``saturdays``,
    ``sundays``, ``jp_holidays``, ``2027-10-10``): a search may keep any of them."""
    if kind in DAY_KINDS:
        return True
    try:
        check_priority_days((kind,))
    except CalendarError:
        return False
    return True


def is_kind(day: date, kind: str, venue: Venue) -> bool:
    """``kind`` is one of ``DAY_KINDS`` (weekdays are Monday to Friday, holidays excepted)
    or a ``priority_days`` entry, read as that setting reads it."""
    if kind not in DAY_KINDS:
        return is_priority_day(day, (kind,))
    entries = venue.policy.priority_days
    if kind == "weekends":
        return day.weekday() >= 5
    if kind == "holidays":
        return holiday_name(day, entries) is not None
    if kind == "priority":
        return is_priority_day(day, entries)
    if kind == "weekdays":
        return day.weekday() < 5 and holiday_name(day, entries) is None
    return WEEKDAYS[day.weekday()] == kind


def rooms_by_size(
    venue: Venue, wanted: Iterable[str] = (), guests: int | None = None
) -> list[Room]:
    """The rooms asked for (all active ones if none), keeping those that seat ``guests`` and
    those whose capacity is not known; smallest first, unknown capacity last, file order."""
    chosen = [venue.rooms[r] for r in wanted] if wanted else list(venue.rooms.values())
    kept = [
        r
        for r in chosen
        if r.active and (guests is None or r.capacity is None or r.capacity >= guests)
    ]
    return sorted(kept, key=size_order)


def size_order(room: Room) -> tuple[bool, int, int]:
    return (room.capacity is None, room.capacity or 0, room.position)


def larger_rooms(venue: Venue, room: Room) -> list[Room]:
    """The other active rooms at least as large as ``room``, smallest first; every other room
    when ``room``'s capacity is not known."""
    others = [r for r in venue.rooms.values() if r.active and r.id != room.id]
    if room.capacity is not None:
        others = [r for r in others if r.capacity is not None and r.capacity >= room.capacity]
    return sorted(others, key=size_order)


def nearby_days(day: date, reach: int, today: date, venue: Venue) -> list[date]:
    """The dates within ``reach`` days of ``day`` that can still be booked: days of the same
    kind as ``day`` (wedding-priority or not) first, then the nearest, earlier before later."""
    last = last_bookable_day(today, venue.policy)
    entries = venue.policy.priority_days
    kind = is_priority_day(day, entries)
    found = [
        day + timedelta(days=offset)
        for offset in range(-reach, reach + 1)
        if offset and today <= day + timedelta(days=offset) <= last
    ]
    return sorted(
        found,
        key=lambda d: (is_priority_day(d, entries) != kind, abs((d - day).days), d),
    )


def times_of(search: Search, venue: Venue) -> list[tuple[str | None, int, int]]:
    """(slot name, start, end) to look at on each date."""
    if search.times is not None:
        return [(None, *search.times)]
    if search.slots:
        return [(s.name, s.start_min, s.end_min) for s in venue.slots if s.name in search.slots]
    if venue.slots:
        return [(s.name, s.start_min, s.end_min) for s in venue.slots]
    return [(None, *WHOLE_DAY)]


def places(search: Search, venue: Venue, today: date) -> list[Place]:
    """Every place a search looks at: by date, then time, then smallest fitting room."""
    rooms = rooms_by_size(venue, search.rooms, search.guests)
    times = times_of(search, venue)
    return [
        Place(day, slot, start, end, room)
        for day in dates(search, venue, today)
        for slot, start, end in times
        for room in rooms
    ]
