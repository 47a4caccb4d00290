"""The one read of a search: every live item on the searched parts over its whole range."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from core.errors import StaleVenue
from core.model import Venue
from core.rules.requests import Occupant
from core.rules.spans import MAX_SPAN, Span

# One statement whatever the range: a range scan of the span B-tree (venue, part, start) per
# part, index-only but for the deadline of holds with a blocking tentative item (what
# "2nd until" shows). The venue row comes along so a cached venue is checked in the same
# round trip; a venue with no span in range still answers its one row.
_SPANS = sa.text(
    """
    SELECT v.revision, s.hold_id, s.item_no, s.part_id, s.starts_at, s.ends_at, s.blocking,
           s.confirmed, h.expires_at
    FROM venues v
    LEFT JOIN LATERAL (
      SELECT s.hold_id, s.item_no, s.part_id, s.starts_at, s.ends_at, s.blocking, s.confirmed
      FROM hold_spans s
      WHERE s.venue_id = v.id AND s.part_id = ANY(CAST(:parts AS text[]))
        AND s.starts_at < :hi AND s.starts_at > :lo - CAST(:max_span AS interval)
        AND s.ends_at > :lo
    ) s ON true
    LEFT JOIN holds h
      ON s.blocking AND NOT s.confirmed AND h.venue_id = v.id AND h.id = s.hold_id
    WHERE v.id = :venue
    """
)


@dataclass(frozen=True)
class Read:
    occupants: list[Occupant]
    deadlines: dict[int, datetime | None]  # of holds with a blocking tentative item


def live_between(
    conn: sa.Connection, venue: Venue, parts: Iterable[str], lo: datetime, hi: datetime
) -> Read:
    """The live items on ``parts`` whose spans overlap ``[lo, hi)``.

    Raises ``StaleVenue`` if ``venue`` (perhaps a cached copy) is not the stored revision.
    """
    rows = conn.execute(
        _SPANS,
        {
            "venue": venue.id,
            "parts": sorted(set(parts)),
            "lo": lo,
            "hi": hi,
            "max_span": MAX_SPAN,
        },
    ).all()
    if not rows or rows[0].revision != venue.revision:
        raise StaleVenue(venue.id)
    found: dict[tuple[int, int], list[sa.Row[tuple[object, ...]]]] = {}
    deadlines: dict[int, datetime | None] = {}
    for row in rows:
        if row.hold_id is None:
            continue
        found.setdefault((row.hold_id, row.item_no), []).append(row)
        if row.blocking and not row.confirmed:
            deadlines[row.hold_id] = row.expires_at
    occupants = [
        Occupant(
            hold_id=hold_id,
            item=item_no,
            span=Span(frozenset(r.part_id for r in mine), mine[0].starts_at, mine[0].ends_at),
            confirmed=mine[0].confirmed,
            first=mine[0].blocking and not mine[0].confirmed,
        )
        for (hold_id, item_no), mine in sorted(found.items())
    ]
    return Read(occupants, deadlines)
