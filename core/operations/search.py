"""Finding a slot: a search over dates, times and rooms, and the alternatives a refused
request is offered (docs/rules.md, Finding a slot). Both read only, in one statement."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from core.operations.tx import Snapshot
from core.results import Availability, Found, Place, Refused
from core.rules import search as rules
from core.rules.search import Occupancy, Search
from core.store import availability, venues


def search(snap: Snapshot, query: Search, now: datetime) -> Availability | Refused:
    """What a request of the search's kind would get now at each place it looks at."""
    refused = rules.check_search(query, snap.venue)
    if refused is not None:
        venues.ensure_current(snap.conn, snap.venue)
        return refused
    today = now.astimezone(snap.venue.tz).date()
    looked = rules.places(query, snap.venue, today)
    return Availability(tuple(decide_all(snap, looked, query, now)), len(looked))


def decide_all(
    snap: Snapshot, looked: Sequence[Place], query: Search, now: datetime
) -> list[Found]:
    """Each place decided as a request would be, from one read of everything in their way;
    places no request could be made for now are left out."""
    venue = snap.venue
    checked = [rules.check(place, venue, query.kind, now) for place in looked]
    reach = rules.reach(checked)
    if reach is None:
        venues.ensure_current(snap.conn, venue)
        return [f for p, c in zip(looked, checked, strict=True) if (f := _no_read(p, c, snap, now))]
    parts = {part for place in looked for part in place.room.parts}
    read = availability.live_between(snap.conn, venue, parts, *reach)
    occupancy = Occupancy(read.occupants)
    found = (
        rules.decide(place, c, occupancy, read.deadlines, venue, now)
        for place, c in zip(looked, checked, strict=True)
    )
    return [f for f in found if f is not None]


def _no_read(place: Place, checked: object, snap: Snapshot, now: datetime) -> Found | None:
    """A place decided without reading: only a refusal of its input can be (not open)."""
    if not isinstance(checked, Refused):  # pragma: no cover - reach had a span then
        return None
    return rules.decide(place, checked, Occupancy(()), {}, snap.venue, now)
