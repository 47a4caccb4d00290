"""Which venue a workspace works in (the venue itself: tests/engine/test_engine_surface.py)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.workspaces import VenueResolver


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
