"""Which workspace (or org) each venue is used from: ``venue_workspaces``."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert

from core.model import WorkspaceLink
from core.store.schema import user_venues, venue_workspaces


def link(conn: sa.Connection, found: WorkspaceLink, now: datetime) -> None:
    """Insert or move the venue's link (a venue is used from one workspace)."""
    values = {
        "workspace_id": found.workspace_id,
        "enterprise_id": found.enterprise_id,
        "org_wide": found.org_wide,
        "linked_at": now,
    }
    conn.execute(
        insert(venue_workspaces)
        .values(venue_id=found.venue_id, **values)
        .on_conflict_do_update(index_elements=[venue_workspaces.c.venue_id], set_=values)
    )


def of_venue(conn: sa.Connection, venue_id: str) -> WorkspaceLink | None:
    row = conn.execute(
        sa.select(venue_workspaces).where(venue_workspaces.c.venue_id == venue_id)
    ).first()
    if row is None:
        return None
    return WorkspaceLink(row.venue_id, row.workspace_id, row.enterprise_id, row.org_wide)


def venues_of(conn: sa.Connection, workspace_ids: list[str]) -> list[str]:
    """The venues used from any of these workspaces / orgs, by id."""
    return list(
        conn.execute(
            sa.select(venue_workspaces.c.venue_id)
            .where(venue_workspaces.c.workspace_id.in_(workspace_ids))
            .order_by(venue_workspaces.c.venue_id)
        ).scalars()
    )


def choose(conn: sa.Connection, venue_id: str, user_id: str, now: datetime) -> None:
    conn.execute(
        insert(user_venues)
        .values(venue_id=venue_id, user_id=user_id, chosen_at=now)
        .on_conflict_do_update(
            index_elements=[user_venues.c.venue_id, user_venues.c.user_id],
            set_={"chosen_at": now},
        )
    )


def chosen(conn: sa.Connection, user_id: str, venue_ids: list[str]) -> str | None:
    """The venue among ``venue_ids`` the person chose last, if any."""
    found: str | None = conn.execute(
        sa.select(user_venues.c.venue_id)
        .where(user_venues.c.user_id == user_id, user_venues.c.venue_id.in_(venue_ids))
        .order_by(user_venues.c.chosen_at.desc())
        .limit(1)
    ).scalar()
    return found
