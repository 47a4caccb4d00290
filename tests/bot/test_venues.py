"""Which venue a workspace works in, and the short-lived copy of venues for display."""

from __future__ import annotations

from dataclasses import dataclass

from bot.venues import VenueCache, VenueResolver
from core.model import Venue
from tests.support.factories import venue


@dataclass
class FakeSettings:
    venue_id: str | None
    venues_by_team: dict[str, str]


def test_a_team_listed_in_osae_venues_wins_over_osae_venue() -> None:
    resolve = VenueResolver.from_settings(FakeSettings("grand", {"T0OSAKA": "osaka"}))
    assert resolve("T0OSAKA") == "osaka"
    assert resolve("T0OTHER") == "grand"
    assert resolve(None) == "grand"
    assert VenueResolver(by_team={"T0OSAKA": "osaka"})("T0OTHER") is None


def test_venues_are_kept_for_the_ttl_and_unknown_ones_are_asked_again() -> None:
    now = [0.0]
    loads: list[str] = []
    known = venue(id="grand")

    def load(venue_id: str) -> Venue | None:
        loads.append(venue_id)
        return known if venue_id == "grand" else None

    cache = VenueCache(load, ttl=10, clock=lambda: now[0])
    assert cache.get("grand") is known and cache.get("grand") is known
    assert cache.get("nowhere") is None and cache.get("nowhere") is None
    assert loads == ["grand", "nowhere", "nowhere"]
    now[0] = 11
    assert cache.get("grand") is known
    assert loads.count("grand") == 2
