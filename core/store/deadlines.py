"""A 1st hold's deadline as a venue's own ledger had it (an import keeps the file's 期限)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa

from core.model import Venue
from core.store.schema import holds


def keep_deadline(conn: sa.Connection, venue: Venue, hold_id: int, expires_at: datetime) -> None:
    conn.execute(
        holds.update()
        .where(holds.c.venue_id == venue.id, holds.c.id == hold_id, holds.c.rank == 1)
        .values(expires_at=expires_at, version=holds.c.version + 1)
    )
