"""Which venue a Slack workspace works in: the stored link (``venue_workspaces``: set up in
Slack, or seeded from OSAE_VENUES), else OSAE_VENUES (team -> venue), else OSAE_VENUE.

The venue itself comes from the engine (``HoldEngine.venue``), whose cache is the only one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol


class VenueSettings(Protocol):
    venue_id: str | None
    venues_by_team: dict[str, str]


Linked = Callable[..., list[str]]  # ``linked(*workspace_ids)``: HoldEngine.workspace_venues


@dataclass(frozen=True)
class VenueResolver:
    """``resolver(team_id, enterprise_id) -> venue id`` (None: this workspace is not set up).

    A workspace with several venues (a hotel group) gets the first by id; ``all_of`` lists
    them. With many workspaces there is no default: a new workspace never works in another's
    venue."""

    default: str | None = None  # OSAE_VENUE: every workspace not listed below
    by_team: Mapping[str, str] = field(default_factory=dict)  # OSAE_VENUES
    linked: Linked | None = None  # the stored links, read on every request

    @classmethod
    def from_settings(cls, settings: VenueSettings) -> VenueResolver:
        return cls(default=settings.venue_id, by_team=dict(settings.venues_by_team))

    def __call__(self, team_id: str | None, enterprise_id: str | None = None) -> str | None:
        found = self.all_of(team_id, enterprise_id)
        return found[0] if found else None

    def all_of(self, team_id: str | None, enterprise_id: str | None = None) -> list[str]:
        """Every venue the workspace (or its org, for an org-wide install) works in."""
        if self.linked is not None:
            keys = [key for key in (team_id, enterprise_id) if key]
            stored = self.linked(*keys) if keys else []
            if stored:
                return stored
        seeded = self.by_team.get(team_id or "", self.default)
        return [seeded] if seeded else []
