"""What a request at each place a search looks at would get (its ``Chance``): each date and
times checked as a request would be (``check_request``), each room decided by the rule
``decide_rank`` applies (docs/rules.md, Requests and Rank), on the live items read once for
all. ``decide_all`` is the lean path a search runs; ``decide_all_reference`` the whole rule,
which ``tests/rules/test_search_lean.py`` and ``tests/engine/test_search.py`` hold it to.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import NamedTuple

from core.model import HoldRequest, Kind, Room, Venue
from core.results import Chance, Code, Found, Place, Refused
from core.rules.live_items import Live, LiveItems, PartItems
from core.rules.requests import (
    Checked,
    check_banquet,
    check_day,
    check_request,
    check_times,
    in_time,
)
from core.rules.rokuyo import Rokuyo, rokuyo
from core.rules.search import Search, dates, rooms_by_size, times_of
from core.rules.spans import local_instant


def looked_at(
    search: Search, venue: Venue, today: date, now: datetime
) -> tuple[list[Place], list[Asked]]:
    """``places`` and ``check_all`` of them in one pass: each date and times checked once,
    then shared by every room (what a search runs; they are held to each other)."""
    rooms = rooms_by_size(venue, search.rooms, search.guests)
    times = times_of(search, venue)
    looked: list[Place] = []
    asked: list[Asked] = []
    for day in dates(search, venue, today):
        refused = check_day(day, venue, now)
        for slot, start, end in times:
            a = _ask(day, start, end, refused, venue, search.kind, now)
            looked += [_new(Place, (day, slot, start, end, room)) for room in rooms]
            asked += [a] * len(rooms)
    return looked, asked


_new = tuple.__new__  # a NamedTuple without its ``__new__``'s Python frame: thousands a search


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
    """A place's date and times checked as a request would be, shared by every room looked
    at then: the refusal if any, else its start and end (as instants and in microseconds)."""

    refused: Refused | None
    begins: datetime
    ends: datetime
    start: int
    end: int
    rokuyo: Rokuyo


def check_all(looked: Sequence[Place], venue: Venue, kind: Kind, now: datetime) -> list[Asked]:
    """Each place's date and times checked once, by the parts of ``check_request`` that can
    refuse a search's place (the times, the date, the instants, the banquet window), each
    date's rules once for all its times: what decides them is the same for every room; only
    the room's span differs, and ``decide_all`` takes that from the place."""
    days: dict[date, Refused | None] = {}
    done: dict[tuple[date, int, int], Asked] = {}
    asked: list[Asked] = []
    day, start, end, found = None, -1, -1, None
    for place in looked:
        # places come by date and times, rooms within: most share the last one's check
        if found is None or place.day != day or place.start_min != start or place.end_min != end:
            day, start, end = place.day, place.start_min, place.end_min
            found = done.get((day, start, end))
            if found is None:
                if day not in days:
                    days[day] = check_day(day, venue, now)
                found = done[(day, start, end)] = _ask(day, start, end, days[day], venue, kind, now)
        asked.append(found)
    return asked


def _ask(
    day: date,
    start: int,
    end: int,
    refused: Refused | None,
    venue: Venue,
    kind: Kind,
    now: datetime,
) -> Asked:
    """``check_request``'s order: the times, the date (``refused``: ``check_day``'s), the
    instants, the banquet window."""
    six = _rokuyo(day)
    refused = check_times(start, end, venue.policy.max_event_hours) or refused
    if refused:
        return Asked(refused, _EPOCH, _EPOCH, 0, 0, six)
    instants = in_time(day, start, end, venue.tz, now)
    if isinstance(instants, Refused):
        return Asked(instants, _EPOCH, _EPOCH, 0, 0, six)
    begins, ends = instants
    # a date's banquet window is the same for every times of it
    refused = check_banquet(day, venue, kind, now)
    return Asked(refused, begins, ends, micros(begins), micros(ends), six)


def check_all_reference(
    looked: Sequence[Place], venue: Venue, kind: Kind, now: datetime
) -> list[Asked]:
    """``check_all`` by the whole ``check_request`` of each date and times: slower, kept as
    what the lean check is held to (tests/rules/test_search_lean.py, bench/search.py)."""
    done: dict[tuple[date, int, int], Asked] = {}
    asked: list[Asked] = []
    for place in looked:
        key = (place.day, place.start_min, place.end_min)
        found = done.get(key)
        if found is None:
            checked = check(place, venue, kind, now)
            six = _rokuyo(place.day)
            if isinstance(checked, Refused):
                begins = ends = _EPOCH
                if checked.code is Code.BANQUET_NOT_OPEN:
                    begins = local_instant(place.day, place.start_min, venue.tz)
                    ends = local_instant(place.day, place.end_min, venue.tz)
                found = Asked(checked, begins, ends, micros(begins), micros(ends), six)
            else:
                item = checked.items[0]
                found = Asked(None, item.start, item.end, micros(item.start), micros(item.end), six)
            done[key] = found
        asked.append(found)
    return asked


@lru_cache(maxsize=1024)
def _rokuyo(day: date) -> Rokuyo:
    return rokuyo(day)


def reach(asked: Iterable[Asked], rooms: Iterable[Room]) -> tuple[datetime, datetime] | None:
    """From the earliest start to the latest end plus the longest turnover: what to read."""
    found = [a for a in asked if a.refused is None]
    if not found:
        return None
    turnover = max(room.turnover_min for room in rooms)
    latest = max(a.ends for a in found) + timedelta(minutes=turnover)
    return min(a.begins for a in found), latest


def decide_all(  # noqa: PLR0912 - one flat loop over thousands of places, shortcuts first
    looked: Sequence[Place],
    asked: Sequence[Asked],
    live: LiveItems,
    deadlines: Mapping[int, datetime | None],
    venue: Venue,
) -> list[Found]:
    """``decide`` of each place, lean: a place whose room has no live item overlapping its
    span (turnover included) is 1st at once, one item in the way is read as it is, and only
    places with more take the whole rule. Places ``decide`` leaves out are left out.

    A part is passed over when no item starting before the span's end ends after its start
    (the latest end among those: one bisection), as most are; else its items from the
    longest span before the start are read, as ``LiveItems.around`` reads them (none before
    that ends after the start)."""
    found: list[Found] = []
    append = found.append
    max_rank = venue.policy.max_rank
    rooms: dict[str, tuple[list[PartItems], int]] = {}
    last = None
    for place, a in zip(looked, asked, strict=True):
        if a is not last:  # the next date or times: what every room shares, read once
            last, refused, start, end = a, a.refused, a.start, a.end
            six, begins, ends = a.rokuyo, a.begins, a.ends
        if refused is not None:
            decided = decide(place, a, live, deadlines, venue)
            if decided is not None:
                append(decided)
            continue
        room = place.room
        known = rooms.get(room.id)
        if known is None:
            known = rooms[room.id] = (live.on(room.parts), room.turnover_min * _MINUTE)
        on, turnover = known
        until = end + turnover
        if not on:  # nothing at all on the room's parts
            append(_new(Found, (place, six, begins, ends, _FIRST, 1, (), None)))
            continue
        if len(on) == 1:  # a room of one part, as most are: no list of lists to make
            starts, latest, items, longest = on[0]
            before = bisect_left(starts, until)
            if not before or latest[before - 1] <= start:
                append(_new(Found, (place, six, begins, ends, _FIRST, 1, (), None)))
                continue
            first = bisect_left(starts, start - longest, 0, before)
            if before - first == 1:  # the one item that may be in the way, and it is
                append(_behind_one(place, a, items[first], deadlines, max_rank))
                continue
            near = [[x for x in items[first:before] if x.end > start]]
        else:
            near = _near(on, start, until)
            if not near:
                append(_new(Found, (place, six, begins, ends, _FIRST, 1, (), None)))
                continue
        if len(near) == 1 and len(near[0]) == 1:
            append(_behind_one(place, a, near[0][0], deadlines, max_rank))
        else:
            append(_behind(place, a, near, start, until, deadlines, max_rank))
    return found


def _near(on: Iterable[PartItems], start: int, end: int) -> list[list[Live]]:
    """For each part with any, its items overlapping ``[start, end)`` (``decide_all``'s
    bisections, as ``LiveItems.around`` reads them)."""
    near = []
    for starts, latest, items, longest in on:
        before = bisect_left(starts, end)
        if before and latest[before - 1] > start:
            first = bisect_left(starts, start - longest, 0, before)
            near.append([x for x in items[first:before] if x.end > start])
    return near


_FIRST = Chance.FIRST
_SECOND = Chance.SECOND
_TAKEN = Chance.TAKEN


def _behind_one(
    place: Place, a: Asked, x: Live, deadlines: Mapping[int, datetime | None], max_rank: int
) -> Found:
    """``decide`` with one item in the way: taken if confirmed, else 2nd behind it."""
    if x.confirmed:
        return _new(Found, (place, a.rokuyo, a.begins, a.ends, _TAKEN, None, (x.hold_id,), None))
    ahead = (x.hold_id,) if x.first else ()
    until = deadlines.get(x.hold_id) if x.first else None  # ``_until`` of one hold or none
    if max_rank < 2:
        return _new(Found, (place, a.rokuyo, a.begins, a.ends, _TAKEN, None, ahead, until))
    return _new(Found, (place, a.rokuyo, a.begins, a.ends, _SECOND, 2, ahead, until))


def _behind(
    place: Place,
    a: Asked,
    around: Sequence[Sequence[Live]],
    start: int,
    end: int,
    deadlines: Mapping[int, datetime | None],
    max_rank: int,
) -> Found:
    """``decide``'s rule on the items in the way, as ``decide`` applies it."""
    six, begins, ends = a.rokuyo, a.begins, a.ends
    confirmed = tuple(sorted({x.hold_id for on in around for x in on if x.confirmed}))
    if confirmed:
        return Found(place, six, begins, ends, Chance.TAKEN, None, confirmed, None)
    rank = 1 + max(_depth(on, start, end) for on in around)
    ahead = tuple(sorted({x.hold_id for on in around for x in on if x.first}))
    if rank > max_rank:
        return Found(place, six, begins, ends, Chance.TAKEN, None, ahead, _until(ahead, deadlines))
    until = _until(ahead, deadlines)  # rank is at least 2: something is in the way
    return Found(place, six, begins, ends, Chance.SECOND, rank, ahead, until)


def decide_all_reference(
    looked: Sequence[Place],
    asked: Sequence[Asked],
    live: LiveItems,
    deadlines: Mapping[int, datetime | None],
    venue: Venue,
) -> list[Found]:
    """``decide_all`` by the whole rule at every place: what the lean path is held to."""
    pairs = zip(looked, asked, strict=True)
    found = (decide(place, a, live, deadlines, venue) for place, a in pairs)
    return [f for f in found if f is not None]


def decide(
    place: Place,
    asked: Asked,
    live: LiveItems,
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
    six = asked.rokuyo
    refused = asked.refused
    if refused is not None:
        if refused.code is not Code.BANQUET_NOT_OPEN:
            return None
        return Found(
            place, six, asked.begins, asked.ends, Chance.NOT_OPEN, None, (), refused.opens_at
        )
    room, begins, ends = place.room, asked.begins, asked.ends
    start, end = asked.start, asked.end + room.turnover_min * _MINUTE
    around = live.around(room.parts, start, end)
    if not around:
        return Found(place, six, begins, ends, Chance.FIRST, 1, (), None)
    confirmed = tuple(sorted({x.hold_id for on in around for x in on if x.confirmed}))
    if confirmed:
        return Found(place, six, begins, ends, Chance.TAKEN, None, confirmed, None)
    rank = 1 + max(_depth(on, start, end) for on in around)
    ahead = tuple(sorted({x.hold_id for on in around for x in on if x.first}))
    if rank > venue.policy.max_rank:
        until = _until(ahead, deadlines)
        return Found(place, six, begins, ends, Chance.TAKEN, None, ahead, until)
    outcome = Chance.FIRST if rank == 1 else Chance.SECOND
    until = None if rank == 1 else _until(ahead, deadlines)
    return Found(place, six, begins, ends, outcome, rank, ahead, until)


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
