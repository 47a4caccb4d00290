"""The pipeline's one read: every booking with a hold on a date of a range, or first asked in
an interval, with every hold it has had and when each was confirmed (one statement)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa

from core.model import Outcome, Status
from core.rules.pipeline import BookingRow, HoldRow
from core.store.schema import audit_events, enquiries, holds

# When a hold was confirmed: its first ``confirmed`` audit event (the trail's index).
_CONFIRMED_AT = (
    sa.select(sa.func.min(audit_events.c.at))
    .where(
        audit_events.c.venue_id == holds.c.venue_id,
        audit_events.c.hold_id == holds.c.id,
        audit_events.c.action == "confirmed",
    )
    .scalar_subquery()
    .label("confirmed_at")
)


def bookings(
    conn: sa.Connection, venue_id: str, dates: tuple[date, date], asked: tuple[datetime, datetime]
) -> list[BookingRow]:
    """Bookings with a hold dated in ``[dates)`` or created in ``[asked)``, in id order."""
    on_dates = sa.select(holds.c.enquiry_id).where(
        holds.c.venue_id == venue_id,
        holds.c.local_date >= dates[0],
        holds.c.local_date < dates[1],
    )
    asked_then = sa.select(enquiries.c.id.label("enquiry_id")).where(
        enquiries.c.venue_id == venue_id,
        enquiries.c.created_at >= asked[0],
        enquiries.c.created_at < asked[1],
    )
    return _read(conn, venue_id, sa.union(on_dates, asked_then).subquery("wanted"))


def bookings_moved(
    conn: sa.Connection, venue_id: str, start: datetime, until: datetime
) -> list[BookingRow]:
    """Bookings created in ``[start, until)`` or with a hold that changed then (a hold that
    left never changes again) or was confirmed then (the audit trail: a confirmed hold may
    have been edited since), in id order."""
    asked = sa.select(enquiries.c.id.label("enquiry_id")).where(
        enquiries.c.venue_id == venue_id,
        enquiries.c.created_at >= start,
        enquiries.c.created_at < until,
    )
    changed = sa.select(holds.c.enquiry_id).where(
        holds.c.venue_id == venue_id, holds.c.updated_at >= start, holds.c.updated_at < until
    )
    confirmed = (
        sa.select(holds.c.enquiry_id)
        .join(
            audit_events,
            sa.and_(
                audit_events.c.venue_id == holds.c.venue_id, audit_events.c.hold_id == holds.c.id
            ),
        )
        .where(
            holds.c.venue_id == venue_id,
            audit_events.c.action == "confirmed",
            audit_events.c.at >= start,
            audit_events.c.at < until,
        )
    )
    return _read(conn, venue_id, sa.union(asked, changed, confirmed).subquery("wanted"))


def _read(conn: sa.Connection, venue_id: str, wanted: sa.Subquery) -> list[BookingRow]:
    """Every booking ``wanted`` names (its one column: enquiry ids), with all its holds."""
    query = (
        sa.select(
            enquiries.c.id.label("booking"),
            enquiries.c.created_at.label("asked_at"),
            enquiries.c.kind.label("kind_id"),
            enquiries.c.salesperson,
            enquiries.c.source,
            enquiries.c.guests,
            enquiries.c.estimate,
            holds.c.id,
            holds.c.local_date,
            holds.c.status,
            holds.c.rank,
            holds.c.outcome,
            holds.c.reason,
            holds.c.created_at,
            holds.c.updated_at,
            holds.c.house,
            _CONFIRMED_AT,
        )
        .select_from(
            enquiries.join(wanted, wanted.c.enquiry_id == enquiries.c.id).join(
                holds,
                sa.and_(
                    holds.c.venue_id == enquiries.c.venue_id,
                    holds.c.enquiry_id == wanted.c.enquiry_id,
                ),
            )
        )
        .where(enquiries.c.venue_id == venue_id)
        .order_by(enquiries.c.id, holds.c.id)
    )
    found: dict[int, tuple[Any, list[HoldRow]]] = {}
    for row in conn.execute(query):
        m = row._mapping
        found.setdefault(m["booking"], (m, []))[1].append(_hold(m))
    return [_booking(m, tuple(rows)) for m, rows in found.values()]


def _hold(m: Any) -> HoldRow:
    return HoldRow(
        id=m["id"],
        local_date=m["local_date"],
        status=Status(m["status"]),
        rank=m["rank"],
        outcome=Outcome(m["outcome"]) if m["outcome"] else None,
        reason=m["reason"],
        created_at=m["created_at"],
        updated_at=m["updated_at"],
        confirmed_at=m["confirmed_at"],
        house=m["house"],
    )


def _booking(m: Mapping[str, Any], rows: tuple[HoldRow, ...]) -> BookingRow:
    return BookingRow(
        id=m["booking"],
        asked_at=m["asked_at"],
        kind=m["kind_id"],
        salesperson=m["salesperson"],
        source=m["source"],
        guests=m["guests"],
        estimate=m["estimate"],
        holds=rows,
    )
