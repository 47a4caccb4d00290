"""The venues this process has read, kept between transactions: the only venue cache.

One freshness rule: a kept copy is good while the stored revision (``venues.revision``, +1
on every save) is the one it was read at, and every transaction that uses a copy checks
that itself. Either here, with one key lookup before the copy is handed out, or, for a
``trusted`` caller, in its own first read of its part-day rows, which carries the revision and
raises ``StaleVenue`` if it moved (the runner then forgets the copy and starts again).
"""

from __future__ import annotations

import sqlalchemy as sa

from core.errors import UnknownVenue
from core.model import Venue
from core.store import venues


class VenueCache:
    def __init__(self) -> None:
        self._kept: dict[str, Venue] = {}  # one assignment per change: safe across threads

    def peek(self, venue_id: str) -> Venue | None:
        """The kept copy, unchecked: only for what decides nothing (admission keys)."""
        return self._kept.get(venue_id)

    def get(self, conn: sa.Connection, venue_id: str, *, trusted: bool = False) -> Venue:
        """The venue as ``conn``'s transaction sees it (see the module's rule)."""
        found = self.find(conn, venue_id, trusted=trusted)
        if found is None:
            raise UnknownVenue(venue_id)
        return found

    def find(self, conn: sa.Connection, venue_id: str, *, trusted: bool = False) -> Venue | None:
        kept = self._kept.get(venue_id)
        if trusted and kept is not None:
            return kept
        current = venues.revision(conn, venue_id)
        if current is None:
            return None
        if kept is not None and kept.revision == current:
            return kept
        loaded = venues.load(conn, venue_id)
        if loaded is not None:
            self._kept[venue_id] = loaded
        return loaded

    def keep(self, venue: Venue) -> None:
        self._kept[venue.id] = venue

    def forget(self, venue_id: str) -> None:
        self._kept.pop(venue_id, None)
