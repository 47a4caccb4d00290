"""People's names as Slack gave them (users.info), cached per venue."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert

from core.store.schema import staff_names


def known(conn: sa.Connection, venue_id: str, *, since: datetime | None = None) -> dict[str, str]:
    """Every cached name of the venue (only those fetched from ``since`` on, if given)."""
    query = sa.select(staff_names.c.user_id, staff_names.c.name).where(
        staff_names.c.venue_id == venue_id
    )
    if since is not None:
        query = query.where(staff_names.c.fetched_at >= since)
    return {row.user_id: row.name for row in conn.execute(query)}


def remember(conn: sa.Connection, venue_id: str, names: Mapping[str, str], now: datetime) -> None:
    """Store (or refresh) each user's name, fetched ``now``."""
    if not names:
        return
    rows = [
        {"venue_id": venue_id, "user_id": user, "name": name, "fetched_at": now}
        for user, name in sorted(names.items())
    ]
    stmt = insert(staff_names).values(rows)
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=[staff_names.c.venue_id, staff_names.c.user_id],
            set_={"name": stmt.excluded.name, "fetched_at": stmt.excluded.fetched_at},
        )
    )
