"""Which venue a Slack workspace works in (OSAE_VENUES: team -> venue, else OSAE_VENUE).

The venue itself comes from the engine (``HoldEngine.venue``), whose cache is the only one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol


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
