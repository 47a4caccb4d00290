"""Finding a slot (docs/rules.md, Finding a slot): which dates, times and rooms a search looks
at, in what order, and what a request for each would get, as pure functions of the facts read.

A search decides each place exactly as a request would (``check_request``, then
``decide_rank`` among the live items in its way); only the reading is done once for all.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from core.model import HoldRequest, Kind, Room, Venue
from core.results import Code, Found, Outcome, Place, Refused
from core.rules.calendar import holiday_name, is_priority_day
from core.rules.deadlines import last_bookable_day
from core.rules.requests import Blocked, Checked, Occupant, check_request, decide_rank
from core.rules.rokuyo import Rokuyo, rokuyo
from core.rules.spans import MAX_SPAN, MINUTES_PER_DAY, Span, local_instant

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
    unknown = search.days - set(DAY_KINDS)
    if unknown:
        return Refused(Code.BAD_DAYS, field="days", detail=", ".join(sorted(unknown)))
    if search.guests is not None and search.guests < 1:
        return Refused(Code.BAD_GUESTS, field="guests", detail=str(search.guests))
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


def is_kind(day: date, kind: str, venue: Venue) -> bool:
    """``kind`` is one of ``DAY_KINDS``: weekdays are Monday to Friday, holidays excepted."""
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


class Occupancy:
    """The live items read for a search, found by part and start time."""

    def __init__(self, occupants: Iterable[Occupant]) -> None:
        by_part: dict[str, list[tuple[datetime, int, Occupant]]] = {}
        for n, occupant in enumerate(occupants):
            for part in occupant.span.parts:
                by_part.setdefault(part, []).append((occupant.span.start, n, occupant))
        for found in by_part.values():
            found.sort(key=lambda entry: (entry[0], entry[1]))
        self._starts = {part: [e[0] for e in found] for part, found in by_part.items()}
        self._by_part = by_part

    def around(self, span: Span) -> list[Occupant]:
        """The items conflicting with ``span`` (a span overlapping it starts in
        ``(start - MAX_SPAN, end)``), each once, in arrival order."""
        found: dict[tuple[int, int], Occupant] = {}
        for part in span.parts:
            starts = self._starts.get(part)
            if not starts:
                continue
            first = bisect_right(starts, span.start - MAX_SPAN)
            last = bisect_right(starts, span.end - timedelta(microseconds=1))
            for _, _, occupant in self._by_part[part][first:last]:
                if occupant.span.conflicts(span):
                    found[(occupant.hold_id, occupant.item)] = occupant
        return [found[key] for key in sorted(found)]


def check(place: Place, venue: Venue, kind: Kind, now: datetime) -> Checked | Refused:
    """A request of ``kind`` for ``place``, checked as the engine checks one."""
    req = HoldRequest(
        room_id=place.room.id,
        local_date=place.day,
        start_min=place.start_min,
        end_min=place.end_min,
        kind=kind.value,
        customer="-",
        salesperson="-",
        creator="-",
    )
    return check_request(req, venue, now)


def reach(checked: Iterable[Checked | Refused]) -> tuple[datetime, datetime] | None:
    """The earliest start and the latest span end of the checked requests: what to read."""
    spans = [c.span for c in checked if isinstance(c, Checked)]
    if not spans:
        return None
    return min(s.start for s in spans), max(s.end for s in spans)


def decide(
    place: Place,
    checked: Checked | Refused,
    occupancy: Occupancy,
    deadlines: Mapping[int, datetime | None],
    venue: Venue,
    now: datetime,
) -> Found | None:
    """What the request ``checked`` for ``place`` would get now; None if no request could be
    made for it now (its start has passed, beyond the horizon, a clock change in its times).

    ``deadlines`` has the deadline of every hold with a blocking tentative item read.
    """
    six = rokuyo(place.day)
    if isinstance(checked, Refused):
        if checked.code is not Code.BANQUET_NOT_OPEN:
            return None
        start = local_instant(place.day, place.start_min, venue.tz)
        end = local_instant(place.day, place.end_min, venue.tz)
        return Found(place, six, start, end, Outcome.NOT_OPEN, None, (), checked.opens_at)
    item = checked.items[0]
    ranked = decide_rank(checked, occupancy.around(item.span), venue, now)
    if isinstance(ranked, Blocked):
        full = ranked.code is Code.RANK_TOO_LOW
        until = _until(ranked.holders, deadlines) if full else None
        return Found(place, six, item.start, item.end, Outcome.TAKEN, None, ranked.holders, until)
    outcome = Outcome.FIRST if ranked.rank == 1 else Outcome.SECOND
    until = None if ranked.rank == 1 else _until(ranked.ahead, deadlines)
    return Found(place, six, item.start, item.end, outcome, ranked.rank, ranked.ahead, until)


def _until(ahead: Sequence[int], deadlines: Mapping[int, datetime | None]) -> datetime | None:
    """When every hold ahead will be confirmed or due: the latest of their deadlines; None
    if one of them has none (a package still waiting itself)."""
    found = [deadlines.get(hold_id) for hold_id in ahead]
    if not found or any(d is None for d in found):
        return None
    return max(d for d in found if d is not None)
