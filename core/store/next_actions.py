"""Bookings whose next action (来館・打合せ) falls on a day: read by the clock's reminders."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa

from core.model import LIVE, Hold, Venue
from core.store import holds as stored
from core.store.schema import enquiries, holds


def next_actions(conn: sa.Connection, venue: Venue, day: date) -> list[Hold]:
    """Each booking with its next action on ``day`` and a live hold: its earliest one."""
    first = _earliest_live(venue, enquiries.c.next_action == day)
    query = stored._HOLDS.where(
        holds.c.venue_id == venue.id, holds.c.id.in_(first.scalar_subquery())
    ).order_by(holds.c.id)
    return [stored.from_row(r, venue) for r in conn.execute(query)]


def follow_ups(
    conn: sa.Connection, venue: Venue, until: date, salesperson: str | None = None
) -> list[Hold]:
    """Each booking with a live hold whose next action falls on or before ``until`` (overdue
    ones included): its earliest live hold, soonest next action first; of ``salesperson``'s
    holds only, if given."""
    first = _earliest_live(venue, enquiries.c.next_action <= until)
    if salesperson is not None:
        first = first.where(enquiries.c.salesperson == salesperson)
    query = stored._HOLDS.where(
        holds.c.venue_id == venue.id, holds.c.id.in_(first.scalar_subquery())
    )
    found = [stored.from_row(r, venue) for r in conn.execute(query)]
    return sorted(found, key=lambda h: (h.details.next_action or until, h.id))


def _earliest_live(venue: Venue, due: sa.ColumnElement[bool]) -> sa.Select[tuple[int]]:
    """The id of each booking's earliest live hold, of the bookings whose next action is
    ``due``."""
    return (
        sa.select(sa.func.min(holds.c.id))
        .select_from(
            holds.join(
                enquiries,
                sa.and_(
                    enquiries.c.venue_id == holds.c.venue_id,
                    enquiries.c.id == holds.c.enquiry_id,
                ),
            )
        )
        .where(
            due,
            enquiries.c.venue_id == venue.id,
            holds.c.status.in_([s.value for s in LIVE]),
        )
        .group_by(holds.c.enquiry_id)
    )
