"""Finding a slot (docs/rules.md, Finding a slot): which dates, times and rooms a search looks
at, in what order, and what a request for each would get, as pure functions of the facts read.

A search checks each date and times as a request would (``check_request``) and decides each
room by the rule ``decide_rank`` applies (docs/rules.md, Requests and Rank), on the live
items read once for all; ``tests/engine/test_search.py`` holds it to the engine's preview.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import NamedTuple

from core.model import HoldRequest, Kind, Room, Venue
from core.results import Code, Found, Outcome, Place, Refused
from core.rules.calendar import holiday_name, is_priority_day
from core.rules.deadlines import last_bookable_day
from core.rules.requests import MAX_GUESTS, Checked, check_request
from core.rules.rokuyo import Rokuyo, rokuyo
from core.rules.spans import MINUTES_PER_DAY, local_instant

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


class Live(NamedTuple):
    """A live item's span on one part, as a search reads it; instants in whole microseconds
    since the epoch (thousands of places are looked up, and comparing aware datetimes of
    different zones costs a zone lookup each time)."""

    hold_id: int
    item: int
    start: int
    end: int
    confirmed: bool
    first: bool  # blocking and not confirmed: an item of rank 1


class Ledger:
    """The live items read for a search, by part and start."""

    def __init__(self, by_part: Mapping[str, list[Live]]) -> None:
        self._by_part = {part: sorted(found, key=_by_start) for part, found in by_part.items()}
        self._starts = {part: [x.start for x in found] for part, found in self._by_part.items()}
        self._longest = {
            part: max(x.end - x.start for x in found) for part, found in self._by_part.items()
        }

    def around(self, parts: Iterable[str], start: int, end: int) -> list[list[Live]]:
        """For each part with any, the items whose span overlaps ``[start, end)`` there: one
        starts before ``end`` and at most the part's longest span before ``start``."""
        found = []
        for part in parts:
            starts = self._starts.get(part)
            if not starts:
                continue
            first = bisect_left(starts, start - self._longest[part])
            last = bisect_left(starts, end)
            mine = [x for x in self._by_part[part][first:last] if x.end > start]
            if mine:
                found.append(mine)
        return found


def _by_start(live: Live) -> int:
    return live.start


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)
_MINUTE = 60_000_000


def micros(moment: datetime) -> int:
    """An aware instant as whole microseconds since the epoch (exact, unlike a float)."""
    return (moment - _EPOCH) // _MICRO


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


class Asked(NamedTuple):
    """A place's date and times checked as a request, with its start and end in
    microseconds (0 when refused): shared by every room looked at then."""

    checked: Checked | Refused
    start: int
    end: int


def check_all(looked: Sequence[Place], venue: Venue, kind: Kind, now: datetime) -> list[Asked]:
    """``check`` of each place, done once per date and times: what decides it there (past,
    horizon, banquet window, a clock change) is the same for every room; only the room's
    span differs, and ``decide`` takes that from the place."""
    done: dict[tuple[date, int, int], Asked] = {}
    asked: list[Asked] = []
    for place in looked:
        key = (place.day, place.start_min, place.end_min)
        first = done.get(key)
        if first is None:
            checked = check(place, venue, kind, now)
            if isinstance(checked, Refused):
                first = Asked(checked, 0, 0)
            else:
                item = checked.items[0]
                first = Asked(checked, micros(item.start), micros(item.end))
            done[key] = first
        asked.append(first)
    return asked


@lru_cache(maxsize=1024)
def _rokuyo(day: date) -> Rokuyo:
    return rokuyo(day)


def reach(asked: Iterable[Asked], rooms: Iterable[Room]) -> tuple[datetime, datetime] | None:
    """From the earliest start to the latest end plus the longest turnover: what to read."""
    found = [a.checked.items[0] for a in asked if isinstance(a.checked, Checked)]
    if not found:
        return None
    turnover = max(room.turnover_min for room in rooms)
    latest = max(i.end for i in found) + timedelta(minutes=turnover)
    return min(i.start for i in found), latest


def decide(
    place: Place,
    asked: Asked,
    ledger: Ledger,
    deadlines: Mapping[int, datetime | None],
    venue: Venue,
) -> Found | None:
    """What the request ``asked`` (for the place's date and times) would get now in the
    place's room; None if no request could be made for it now (its start has passed, beyond
    the horizon, a clock change in its times).

    The rule is ``decide_rank``'s (docs/rules.md, Requests and Rank), on the items read:
    a confirmed item in the way refuses; else the rank is 1 + the most tentative items
    covering one part at one instant, refused above max rank. ``deadlines`` has the deadline
    of every hold with a blocking tentative item read.
    """
    six = _rokuyo(place.day)
    checked = asked.checked
    if isinstance(checked, Refused):
        if checked.code is not Code.BANQUET_NOT_OPEN:
            return None
        begins = local_instant(place.day, place.start_min, venue.tz)
        ends = local_instant(place.day, place.end_min, venue.tz)
        return Found(place, six, begins, ends, Outcome.NOT_OPEN, None, (), checked.opens_at)
    item, room = checked.items[0], place.room
    start, end = asked.start, asked.end + room.turnover_min * _MINUTE
    around = ledger.around(room.parts, start, end)
    if not around:
        return Found(place, six, item.start, item.end, Outcome.FIRST, 1, (), None)
    confirmed = tuple(sorted({x.hold_id for on in around for x in on if x.confirmed}))
    if confirmed:
        return Found(place, six, item.start, item.end, Outcome.TAKEN, None, confirmed, None)
    rank = 1 + max(_depth(on, start, end) for on in around)
    ahead = tuple(sorted({x.hold_id for on in around for x in on if x.first}))
    if rank > venue.policy.max_rank:
        until = _until(ahead, deadlines)
        return Found(place, six, item.start, item.end, Outcome.TAKEN, None, ahead, until)
    outcome = Outcome.FIRST if rank == 1 else Outcome.SECOND
    until = None if rank == 1 else _until(ahead, deadlines)
    return Found(place, six, item.start, item.end, outcome, rank, ahead, until)


def _depth(on: Sequence[Live], start: int, end: int) -> int:
    """The most of ``on`` (one part's items) covering one instant of ``[start, end)``, as
    ``rules.rank.rank_of`` sweeps it: at equal instants an end comes before a start."""
    if len(on) == 1:
        return 1
    events = sorted([(max(x.start, start), 1) for x in on] + [(min(x.end, end), -1) for x in on])
    depth = best = 0
    for _, step in events:
        depth += step
        best = max(best, depth)
    return best


def _until(ahead: Sequence[int], deadlines: Mapping[int, datetime | None]) -> datetime | None:
    """When every hold ahead will be confirmed or due: the latest of their deadlines; None
    if one of them has none (a package still waiting itself)."""
    found = [deadlines.get(hold_id) for hold_id in ahead]
    if not found or any(d is None for d in found):
        return None
    return max(d for d in found if d is not None)
