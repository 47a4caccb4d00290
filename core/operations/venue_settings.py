"""Setting a venue up from Slack: its rooms, sales channel, managers and language saved as
``osae venue load`` saves a file, with who changed what in the audit trail, and the
workspace it is used from."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa

from core.events import Action, AuditEvent
from core.model import Venue, WorkspaceLink
from core.operations import venue_setup
from core.store import audit, venues, workspaces
from core.venue_document import document


def setup(
    conn: sa.Connection,
    venue: Venue,
    *,
    actor: str,
    source: str,
    now: datetime,
    link: WorkspaceLink | None = None,
) -> Venue:
    """Save ``venue`` (checked already, as a file is), link it, audit it; raises
    ``VenueConflict`` (nothing written) when the change would move live holds."""
    before = venues.load(conn, venue.id)
    saved = venue_setup.save(conn, venue, now)
    if link is not None:
        workspaces.link(conn, link, now)
    detail: dict[str, Any] = {"source": source, "changed": changed(before, saved)}
    if link is not None:
        detail["workspace"] = link.workspace_id
    audit.record(conn, venue.id, [AuditEvent(None, actor, Action.VENUE_SET, now, detail)])
    return saved


def changed(before: Venue | None, after: Venue) -> list[str]:
    """The venue file's sections and settings that differ (all of them for a new venue)."""
    new = _flat(document(after))
    if before is None:
        return sorted(new)
    old = _flat(document(before))
    return sorted(key for key in new.keys() | old.keys() if new.get(key) != old.get(key))


def _flat(doc: dict[str, Any]) -> dict[str, Any]:
    """``venue.name``, ``venue.sales_channel``, ..., ``rooms``, ``policy``: what an audit
    line names."""
    head = {f"venue.{key}": value for key, value in doc["venue"].items()}
    return {**head, **{key: value for key, value in doc.items() if key != "venue"}}
