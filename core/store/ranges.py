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
    sums of ids and versions, the latest change): one aggregate, no hold read."""
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
