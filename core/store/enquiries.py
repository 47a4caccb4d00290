"""Enquiries: one customer's case, whose holds are its candidate dates."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa

from core.model import Enquiry, Kind, Venue
from core.store import details
from core.store.schema import enquiries


def _enquiry(row: sa.Row[tuple[object, ...]]) -> Enquiry:
    m = row._mapping
    return Enquiry(
        id=m["id"],
        venue_id=m["venue_id"],
        customer=m["customer"],
        kind=Kind(m["kind_class"]),
        kind_id=m["kind"],
        guests=m["guests"],
        contact=m["contact"],
        salesperson=m["salesperson"],
        creator=m["creator"],
        note=m["note"],
        created_at=m["created_at"],
        details=details.from_mapping(m),
    )


def get(conn: sa.Connection, venue: Venue, enquiry_id: int) -> Enquiry | None:
    row = conn.execute(
        sa.select(enquiries).where(enquiries.c.venue_id == venue.id, enquiries.c.id == enquiry_id)
    ).first()
    return _enquiry(row) if row else None


def bump(conn: sa.Connection, venue: Venue, enquiry_id: int, now: datetime) -> Enquiry | None:
    """The enquiry, its row written first: two writes that read or change its candidates
    (a new candidate date, a confirmation) conflict on this row and are serialised."""
    row = conn.execute(
        enquiries.update()
        .where(enquiries.c.venue_id == venue.id, enquiries.c.id == enquiry_id)
        .values(version=enquiries.c.version + 1, updated_at=now)
        .returning(*enquiries.c)
    ).first()
    return _enquiry(row) if row else None
