"""The venues a hotel group's workspace offers to choose from: (id, name) pairs."""

from __future__ import annotations

from typing import Any

from bot.deps import Deps
from core.model import Venue

Choices = tuple[tuple[str, str], ...]


def choices(deps: Deps, venue_ids: list[str]) -> Choices:
    """(id, name) of each venue, for the select; empty when there is one venue only."""
    if len(venue_ids) < 2:
        return ()
    found = ((vid, deps.engine.venues.venue(vid)) for vid in venue_ids)
    return tuple((vid, venue.name if venue else vid) for vid, venue in found)


def choices_of(deps: Deps, context: Any) -> Choices:
    return choices(deps, deps.venues_of(context))


def choices_beside(deps: Deps, venue: Venue) -> Choices:
    """The venues of ``venue``'s workspace (App Home, where no request context is at hand)."""
    link = deps.engine.venues.venue_workspace(venue.id)
    return choices(deps, deps.engine.venues.workspace_venues(link.workspace_id)) if link else ()
