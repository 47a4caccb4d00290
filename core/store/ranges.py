"""Holds of a range of dates, as the export and the calendar feeds read them: one statement
each, venue-scoped, through the holds' date index."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

import sqlalchemy as sa

from core.events import Action
from core.model import Hold, Status, Venue
from core.store import holds as stored
from core.store.schema import audit_events, enquiries, holds

# The holds statement with its enquiry and items (``core.store.holds``), shared so that a
# hold read here is the hold read anywhere else.
_HOLDS = stored._HOLDS
_FIRST = _HOLDS.selected_columns.first_start


def between(
    conn: sa.Connection,
    venue: Venue,
    start: date | None,
    end: date | None,
    statuses: Iterable[Status],
    salesperson: str | None = None,
) -> list[Hold]:
    """Holds of local dates ``start``..``end`` (inclusive; None: unbounded), by date and time."""
    query = _HOLDS.where(
        holds.c.venue_id == venue.id, holds.c.status.in_([s.value for s in statuses])
    )
    if start is not None:
        query = query.where(holds.c.local_date >= start)
    if end is not None:
        query = query.where(holds.c.local_date <= end)
    if salesperson is not None:
        query = query.where(enquiries.c.salesperson == salesperson)
    query = query.order_by(holds.c.local_date, _FIRST, holds.c.id)
    return [stored.from_row(r, venue) for r in conn.execute(query)]


def cancel_reasons(conn: sa.Connection, venue: Venue, ids: Iterable[int]) -> dict[int, str]:
    """The reason a manager gave for cancelling each of these holds (its audit event)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    query = sa.select(audit_events.c.hold_id, audit_events.c.detail["reason"].astext).where(
        audit_events.c.venue_id == venue.id,
        audit_events.c.action == Action.CANCELLED.value,
        audit_events.c.hold_id.in_(wanted),
    )
    return {hold_id: reason for hold_id, reason in conn.execute(query) if reason}


def _live_scope(venue_id: str, salesperson: str | None) -> list[sa.ColumnElement[bool]]:
    where = [
        holds.c.venue_id == venue_id,
        holds.c.status.in_([Status.TENTATIVE.value, Status.CONFIRMED.value]),
    ]
    if salesperson is not None:
        where.append(enquiries.c.salesperson == salesperson)
    return where


_JOINED = holds.join(
    enquiries,
    sa.and_(enquiries.c.venue_id == holds.c.venue_id, enquiries.c.id == holds.c.enquiry_id),
)


def live_stamp(
    conn: sa.Connection, venue_id: str, salesperson: str | None
) -> tuple[int, int, int, int, object]:
    """What changes whenever a live hold of the scope changes, arrives or leaves (counts and
    sums of ids and versions, the latest change), and its enquiries' versions: aggregates
    only, no hold read. The venue's: two single-table aggregates (its live holds from
    ``ix_holds_live_stamp`` alone; every enquiry of the venue, which only errs on the side of
    a fresh 200); a salesperson's: their enquiries' live holds."""
    if salesperson is not None:
        return _joined_stamp(conn, venue_id, salesperson)
    live = sa.select(
        sa.func.count(),
        sa.func.coalesce(sa.func.sum(holds.c.id), 0),
        sa.func.coalesce(sa.func.sum(holds.c.version), 0),
        sa.func.max(holds.c.updated_at),
    ).where(*_live_scope(venue_id, None))
    asked = sa.select(
        sa.func.coalesce(sa.func.sum(enquiries.c.version), 0), sa.func.max(enquiries.c.updated_at)
    ).where(enquiries.c.venue_id == venue_id)
    count, ids, versions, held = conn.execute(live).one()
    enquiry_versions, asked_last = conn.execute(asked).one()
    last = max((t for t in (held, asked_last) if t is not None), default=None)
    return int(count), int(ids), int(versions), int(enquiry_versions), last


def _joined_stamp(
    conn: sa.Connection, venue_id: str, salesperson: str
) -> tuple[int, int, int, int, object]:
    latest = sa.func.greatest(sa.func.max(holds.c.updated_at), sa.func.max(enquiries.c.updated_at))
    query = (
        sa.select(
            sa.func.count(),
            sa.func.coalesce(sa.func.sum(holds.c.id), 0),
            sa.func.coalesce(sa.func.sum(holds.c.version), 0),
            sa.func.coalesce(sa.func.sum(enquiries.c.version), 0),
            latest,
        )
        .select_from(_JOINED)
        .where(*_live_scope(venue_id, salesperson))
    )
    count, ids, versions, enquiry_versions, last = conn.execute(query).one()
    return int(count), int(ids), int(versions), int(enquiry_versions), last


def live_versions(
    conn: sa.Connection, venue_id: str, salesperson: str | None
) -> list[tuple[int, int, int]]:
    """Each live hold of the scope as (id, version, its enquiry's version), by id."""
    query = (
        sa.select(holds.c.id, holds.c.version, enquiries.c.version)
        .select_from(_JOINED)
        .where(*_live_scope(venue_id, salesperson))
        .order_by(holds.c.id)
    )
    return [(int(i), int(v), int(e)) for i, v, e in conn.execute(query)]


# The feed a token opens and, for a venue's feed, the aggregates of ``live_stamp`` in the
# same statement: a 304 is one round trip (a salesperson's feed reads its own afterwards).
_TOKEN_STAMP = sa.text(
    """
    SELECT f.venue_id, f.scope, f.subject, v.revision, s.n, s.ids, s.versions, s.held,
           q.versions AS asked_versions, q.asked
    FROM calendar_feeds f
    JOIN venues v ON v.id = f.venue_id
    LEFT JOIN LATERAL (
      SELECT count(*) AS n, coalesce(sum(h.id), 0) AS ids,
             coalesce(sum(h.version), 0) AS versions, max(h.updated_at) AS held
      FROM holds h
      WHERE f.scope = 'venue' AND h.venue_id = f.venue_id
        AND h.status IN ('tentative', 'confirmed')
    ) s ON true
    LEFT JOIN LATERAL (
      SELECT coalesce(sum(e.version), 0) AS versions, max(e.updated_at) AS asked
      FROM enquiries e
      WHERE f.scope = 'venue' AND e.venue_id = f.venue_id
    ) q ON true
    WHERE f.token_hash = :hashed
    """
)


def token_stamp(
    conn: sa.Connection, hashed: str
) -> tuple[str, str, str, int, tuple[int, int, int, int, object] | None] | None:
    """(venue, scope, subject, the venue's revision, the venue feed's ``live_stamp``; None
    for a salesperson's feed), or None if no feed has this token hash."""
    row = conn.execute(_TOKEN_STAMP, {"hashed": hashed}).first()
    if row is None:
        return None
    stamp = None
    if row.scope == "venue":
        last = max((t for t in (row.held, row.asked) if t is not None), default=None)
        stamp = (int(row.n), int(row.ids), int(row.versions), int(row.asked_versions), last)
    return row.venue_id, row.scope, row.subject, int(row.revision), stamp
