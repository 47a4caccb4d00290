"""Finding a slot: a search over dates, times and rooms, and the alternatives a refused
request is offered (docs/rules.md, Finding a slot). Both read only, in one statement."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from core.model import HoldRequest, Kind
from core.operations.tx import Snapshot
from core.results import Availability, Code, Found, Place, Refused
from core.rules import chances, live_items
from core.rules import search as rules
from core.rules.search import Search
from core.store import availability, venues


def search(snap: Snapshot, query: Search, now: datetime) -> Availability | Refused:
    """What a request of the search's kind would get now at each place it looks at."""
    refused = rules.check_search(query, snap.venue)
    if refused is not None:
        venues.ensure_current(snap.conn, snap.venue)
        return refused
    today = now.astimezone(snap.venue.tz).date()
    looked, asked = chances.looked_at(query, snap.venue, today, now)
    return Availability(tuple(_decide(snap, looked, asked)), len(looked))


def decide_all(snap: Snapshot, looked: Sequence[Place], kind: Kind, now: datetime) -> list[Found]:
    """Each place decided as a request would be, from one read of everything in their way;
    places no request could be made for now are left out."""
    return _decide(snap, looked, chances.check_all(looked, snap.venue, kind, now))


def _decide(snap: Snapshot, looked: Sequence[Place], asked: Sequence[chances.Asked]) -> list[Found]:
    venue = snap.venue
    rooms = {place.room.id: place.room for place in looked}.values()
    reach = chances.reach(asked, rooms)
    if reach is None:  # nothing to read: every place is refused on its input
        venues.ensure_current(snap.conn, venue)
        live, deadlines = live_items.LiveItems({}), dict[int, datetime | None]()
    else:
        parts = {part for room in rooms for part in room.parts}
        live, deadlines = availability.live_between(snap.conn, venue, parts, *reach)
    return chances.decide_all(looked, asked, live, deadlines, venue)


# Refusals that say the place is taken: the ones that offer other places.
TAKEN = frozenset({Code.CONFIRMED_CONFLICT, Code.RANK_TOO_LOW})
NEARBY = 14  # days either side of a refused date that alternatives look at
MOST = 5


def alternatives(snap: Snapshot, req: HoldRequest, now: datetime) -> tuple[Found, ...]:
    """Up to five requests like ``req`` that would be accepted now (docs/rules.md, Finding a
    slot): the same times in other rooms at least as large, smallest first; then the same
    room on the nearest dates within two weeks, days of the same kind (wedding-priority or
    not) first. Only for a one-room request of a known kind."""
    venue = snap.venue
    room = venue.rooms.get(req.room_id)
    if room is None or req.also or req.kind not in {k.value for k in Kind}:
        return ()
    today = now.astimezone(venue.tz).date()
    same_day = [
        Place(req.local_date, None, req.start_min, req.end_min, other)
        for other in rules.larger_rooms(venue, room)
    ]
    days = rules.nearby_days(req.local_date, NEARBY, today, venue)
    other_days = [Place(day, None, req.start_min, req.end_min, room) for day in days]
    found = decide_all(snap, [*same_day, *other_days], Kind(req.kind), now)
    return tuple(f for f in found if f.fits)[:MOST]
