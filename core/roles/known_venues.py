"""The venues the engine knows: as stored (through this process's one cache,
``core.venue_cache``), saved, warmed, their part-day rows made ahead."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from core.model import Venue
from core.operations import venue_setup
from core.rules.preload import preload
from core.store import venues
from core.uow import UnitOfWork
from core.venue_cache import VenueCache


class Venues:
    def __init__(self, uow: UnitOfWork, cache: VenueCache) -> None:
        self._uow = uow
        self._cache = cache

    def venue(self, venue_id: str) -> Venue | None:
        """The venue as stored now (the cached copy while its revision stands), or None."""
        return self._uow.read(partial(self._cache.find, venue_id=venue_id))

    def kept_venue(self, venue_id: str) -> Venue | None:
        """The copy the last transaction on this venue used, unchecked (None if none did):
        to word an operation's answer right after it, never to decide anything."""
        return self._cache.peek(venue_id)

    def venue_ids(self) -> list[str]:
        return self._uow.read(venues.ids)

    def warm(self, *, now: datetime) -> list[str]:
        """Read every venue into the cache and what its rules look up lazily (holiday
        calendars, the 六曜's months) for the days it can book: what a server does once
        built, so the first request after a start waits for none of it. Returns the ids."""
        ids = self.venue_ids()
        for venue_id in ids:
            venue = self.venue(venue_id)
            if venue is not None:
                preload(venue, now.astimezone(venue.tz).date())
        return ids

    def save_venue(self, venue: Venue, *, now: datetime) -> Venue:
        """Insert or update a venue (idempotent); raises ``VenueConflict`` if unsafe."""
        saved = self._uow.run(lambda conn, _: venue_setup.save(conn, venue, now))
        self._cache.keep(saved)
        return saved

    def prepare_part_days(self, venue_id: str, *, now: datetime) -> None:
        """Make the part-day rows for the booking horizon (daily, as the horizon moves on)."""
        self._uow.committed(partial(venue_setup.prepare_part_days, venue_id=venue_id, now=now))
