"""Which venue a Slack workspace works in (OSAE_VENUES: team -> venue, else OSAE_VENUE), and
a short-lived copy of each venue for display."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from core.model import Venue


class VenueSettings(Protocol):
    venue_id: str | None
    venues_by_team: dict[str, str]


@dataclass(frozen=True)
class VenueResolver:
    """``resolver(team_id) -> venue id`` (None: this workspace is not set up)."""

    default: str | None = None  # OSAE_VENUE: every workspace not listed below
    by_team: Mapping[str, str] = field(default_factory=dict)  # OSAE_VENUES

    @classmethod
    def from_settings(cls, settings: VenueSettings) -> VenueResolver:
        return cls(default=settings.venue_id, by_team=dict(settings.venues_by_team))

    def __call__(self, team_id: str | None) -> str | None:
        return self.by_team.get(team_id or "", self.default)


class VenueCache:
    """Venues (rooms, time zone, managers) for display, kept ``ttl`` seconds: every request
    needs one, and they change only when a venue file is loaded. The engine never uses this
    copy: it reads the venue in each transaction, so a stale copy can only show an old menu
    for a few seconds."""

    def __init__(
        self,
        load: Callable[[str], Venue | None],
        ttl: float = 10.0,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._load = load
        self.ttl = ttl
        self._clock = clock
        self._lock = threading.Lock()
        self._kept: dict[str, tuple[Venue, float]] = {}

    def get(self, venue_id: str) -> Venue | None:
        now = self._clock()
        with self._lock:
            kept = self._kept.get(venue_id)
        if kept is not None and kept[1] > now:
            return kept[0]
        venue = self._load(venue_id)
        if venue is not None:
            with self._lock:
                self._kept[venue_id] = (venue, now + self.ttl)
        return venue
