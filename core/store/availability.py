"""The one read of a search: every live item on the searched parts over its whole range."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from core.errors import StaleVenue
from core.model import Venue
from core.rules.live_items import Live, LiveItems
from core.rules.spans import MAX_SPAN

# One statement whatever the range: a range scan of the span B-tree (venue, part, start) per
# part, index-only but for the deadline of holds with a blocking tentative item (what
# "2nd until" shows). The venue row comes along so a cached venue is checked in the same
# round trip; a venue with no span in range still answers its one row.
_SPANS = sa.text(
    """
    SELECT v.revision, s.hold_id, s.item_no, s.part_id,
           -- whole microseconds since the epoch, as the search compares them: date_part's
           -- double (an exact division of the stored microseconds) rounds back to them
           -- exactly (checked over 2000-2150; it costs a third of extract's numeric)
           CAST(date_part('epoch', s.starts_at) * 1000000 AS bigint) AS starts,
           CAST(date_part('epoch', s.ends_at) * 1000000 AS bigint) AS ends,
           s.blocking, s.confirmed,
           -- a key lookup per blocking tentative row (a join would hash the venue's holds)
           CASE WHEN s.blocking AND NOT s.confirmed THEN
             (SELECT h.expires_at FROM holds h WHERE h.venue_id = v.id AND h.id = s.hold_id)
           END AS expires_at
    FROM venues v
    LEFT JOIN LATERAL (
      SELECT s.hold_id, s.item_no, s.part_id, s.starts_at, s.ends_at, s.blocking, s.confirmed
      FROM hold_spans s
      WHERE s.venue_id = v.id AND s.part_id = ANY(CAST(:parts AS text[]))
        AND s.starts_at < :hi AND s.starts_at > :lo - CAST(:max_span AS interval)
        AND s.ends_at > :lo
    ) s ON true
    WHERE v.id = :venue
    """
)


def live_between(
    conn: sa.Connection, venue: Venue, parts: Iterable[str], lo: datetime, hi: datetime
) -> tuple[LiveItems, dict[int, datetime | None]]:
    """The live items on ``parts`` whose spans overlap ``[lo, hi)``, and the deadline of
    each hold with a blocking tentative item among them.

    Raises ``StaleVenue`` if ``venue`` (perhaps a cached copy) is not the stored revision.
    """
    return live_items_of(spans_between(conn, venue, parts, lo, hi), venue)


def spans_between(
    conn: sa.Connection, venue: Venue, parts: Iterable[str], lo: datetime, hi: datetime
) -> Sequence[Sequence[Any]]:
    """The one statement of ``live_between``: the revision, then each span's hold, item,
    part, start and end (microseconds), blocking, confirmed and deadline; the venue's row
    alone (every span column None) when no span is in range."""
    params = {"venue": venue.id, "parts": sorted(set(parts)), "lo": lo, "hi": hi}
    return conn.execute(_SPANS, {**params, "max_span": MAX_SPAN}).all()


def live_items_of(
    rows: Sequence[Sequence[Any]], venue: Venue
) -> tuple[LiveItems, dict[int, datetime | None]]:
    """``spans_between``'s rows as ``live_between`` answers them (``StaleVenue`` too)."""
    if not rows or rows[0][0] != venue.revision:
        raise StaleVenue(venue.id)
    by_part: dict[str, list[Live]] = {}
    deadlines: dict[int, datetime | None] = {}
    on, found = None, []
    for _, hold_id, item, part, start, end, blocking, confirmed, expires in rows:
        if hold_id is None:  # the venue's row alone: nothing in range
            continue
        if part != on:  # a run of one part's rows, as the index gives them (any order does)
            on, found = part, by_part.setdefault(part, [])
        first = blocking and not confirmed
        found.append(_new(Live, (hold_id, item, start, end, confirmed, first)))
        if first:
            deadlines[hold_id] = expires
    return LiveItems(by_part), deadlines


_new = tuple.__new__  # a NamedTuple without its ``__new__``'s Python frame: thousands a read
