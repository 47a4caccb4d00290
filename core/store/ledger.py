"""The part-day ledger bump that serialises every pair of operations that could conflict."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import sqlalchemy as sa

# Rows are written in the order given: INSERT ... SELECT follows the ORDER BY.
_BUMP = sa.text(
    """
    INSERT INTO part_days (venue_id, part_id, day, version)
    SELECT :venue, k.part_id, k.day, 1
    FROM unnest(CAST(:parts AS text[]), CAST(:days AS date[])) WITH ORDINALITY
         AS k(part_id, day, n)
    ORDER BY k.n
    ON CONFLICT (venue_id, part_id, day) DO UPDATE SET version = part_days.version + 1
    """
)


def bump(conn: sa.Connection, venue_id: str, keys: Sequence[tuple[str, date]]) -> None:
    """Write each (part, day) row, in the order given (callers pass them sorted).

    Under SERIALIZABLE, a second writer of a row fails with 40001 on that row whatever plan
    its reads use (DESIGN.md, Concurrency); the unit of work retries it on a new snapshot.
    """
    if not keys:
        return
    conn.execute(
        _BUMP, {"venue": venue_id, "parts": [k[0] for k in keys], "days": [k[1] for k in keys]}
    )
