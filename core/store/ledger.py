"""The part-day ledger bump that serialises every pair of operations that could conflict."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert

from core.store.schema import part_days


def bump(conn: sa.Connection, venue_id: str, keys: Sequence[tuple[str, date]]) -> None:
    """Write each (part, day) row, in the order given (callers pass them sorted).

    Under SERIALIZABLE, a second writer of a row fails with 40001 on that row whatever plan
    its reads use (DESIGN.md, Concurrency); the unit of work retries it on a new snapshot.
    """
    if not keys:
        return
    stmt = insert(part_days).values(
        [{"venue_id": venue_id, "part_id": part, "day": day, "version": 1} for part, day in keys]
    )
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=[part_days.c.venue_id, part_days.c.part_id, part_days.c.day],
            set_={"version": part_days.c.version + 1},
        )
    )
