"""The venues the engine knows: as stored (through this process's one cache,
``core.venue_cache``), saved, warmed, their part-day rows made ahead."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from core.model import Venue, WorkspaceLink
from core.operations import venue_settings, venue_setup
from core.rules.preload import preload
from core.store import venues
from core.store import workspaces as stored_workspaces
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

    def setup_venue(
        self,
        venue: Venue,
        *,
        actor: str,
        source: str,
        now: datetime,
        link: WorkspaceLink | None = None,
    ) -> Venue:
        """Save a venue set up in Slack (``source``), audited, linked to its workspace;
        raises ``VenueConflict`` (nothing written) if unsafe."""
        saved = self._uow.run(
            lambda conn, _: venue_settings.setup(
                conn, venue, actor=actor, source=source, now=now, link=link
            )
        )
        self._cache.keep(saved)
        return saved

    # -- which workspaces use which venues ------------------------------------------------------
    def link_workspace(self, link: WorkspaceLink, *, now: datetime) -> None:
        """Use the venue from this workspace (``OSAE_VENUES`` seeds these at start)."""
        self._uow.run(lambda conn, _: stored_workspaces.link(conn, link, now))

    def venue_workspace(self, venue_id: str) -> WorkspaceLink | None:
        return self._uow.read(partial(stored_workspaces.of_venue, venue_id=venue_id))

    def choose_venue(self, venue_id: str, user_id: str, *, now: datetime) -> None:
        """The person works in this venue (their workspace has several) from now on."""
        self._uow.run(lambda conn, _: stored_workspaces.choose(conn, venue_id, user_id, now))

    def chosen_venue(self, user_id: str, venue_ids: list[str]) -> str | None:
        return self._uow.read(
            partial(stored_workspaces.chosen, user_id=user_id, venue_ids=venue_ids)
        )

    def workspace_venues(self, *workspace_ids: str) -> list[str]:
        """The venues used from these workspaces or orgs (a hotel group's: several)."""
        return self._uow.read(
            partial(stored_workspaces.venues_of, workspace_ids=list(workspace_ids))
        )

    def prepare_part_days(self, venue_id: str, *, now: datetime) -> None:
        """Make the part-day rows for the booking horizon (daily, as the horizon moves on)."""
        self._uow.committed(partial(venue_setup.prepare_part_days, venue_id=venue_id, now=now))
