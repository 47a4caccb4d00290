"""A booking's deposit (予約金) as its enquiry's columns: read onto its holds, set at a
confirmation, recorded paid, and the bookings whose reminder or past-due notice is due."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from core.deposits import REMIND_DAYS
from core.model import Hold, Status, Venue
from core.store import holds as stored
from core.store.schema import enquiries, holds


def set_due(conn: sa.Connection, venue: Venue, enquiry_id: int, due: date | None) -> None:
    """A confirmation: the deposit's due date (None: none), its reminder and past-due notice
    to come; a deposit already paid (a booking confirmed again after a cancel) stays paid."""
    conn.execute(
        enquiries.update()
        .where(
            enquiries.c.venue_id == venue.id,
            enquiries.c.id == enquiry_id,
            enquiries.c.deposit_paid_at.is_(None),
        )
        .values(deposit_due=due, deposit_reminded_at=None, deposit_overdue_at=None)
    )


def record_paid(
    conn: sa.Connection,
    venue: Venue,
    enquiry_id: int,
    actor: str,
    amount: int | None,
    now: datetime,
) -> None:
    conn.execute(
        enquiries.update()
        .where(enquiries.c.venue_id == venue.id, enquiries.c.id == enquiry_id)
        .values(
            deposit_paid_at=now,
            deposit_paid_by=actor,
            deposit_amount=amount,
            version=enquiries.c.version + 1,
            updated_at=now,
        )
    )


def _waiting(venue: Venue, *where: sa.ColumnElement[bool]) -> sa.Select[Any]:
    """Confirmed holds whose booking's deposit is due and unpaid, meeting ``where``."""
    return stored._HOLDS.where(
        holds.c.venue_id == venue.id,
        holds.c.status == Status.CONFIRMED.value,
        enquiries.c.deposit_due.isnot(None),
        enquiries.c.deposit_paid_at.is_(None),
        *where,
    ).order_by(enquiries.c.deposit_due, holds.c.id)


def waiting_of(conn: sa.Connection, venue: Venue, salesperson: str) -> list[Hold]:
    """A salesperson's confirmed bookings whose deposit is due and unpaid (App Home)."""
    query = _waiting(venue, enquiries.c.salesperson == salesperson)
    return [stored.from_row(r, venue) for r in conn.execute(query)]


def to_remind(conn: sa.Connection, venue: Venue, today: date) -> list[Hold]:
    """Not yet reminded, due within ``REMIND_DAYS`` from ``today`` and not yet past."""
    query = _waiting(
        venue,
        enquiries.c.deposit_reminded_at.is_(None),
        enquiries.c.deposit_due >= today,
        enquiries.c.deposit_due <= today + timedelta(days=REMIND_DAYS),
    )
    return [stored.from_row(r, venue) for r in conn.execute(query)]


def past_due(conn: sa.Connection, venue: Venue, today: date, *, told: bool | None) -> list[Hold]:
    """Past due and unpaid: all of them (``told`` None), or those whose salesperson was
    (True) or was not yet (False) told."""
    marker = enquiries.c.deposit_overdue_at
    where = [] if told is None else [marker.isnot(None) if told else marker.is_(None)]
    query = _waiting(venue, enquiries.c.deposit_due < today, *where)
    return [stored.from_row(r, venue) for r in conn.execute(query)]


def mark(
    conn: sa.Connection, venue: Venue, enquiry_ids: list[int], column: str, now: datetime
) -> None:
    """``deposit_reminded_at`` or ``deposit_overdue_at`` of these bookings: queued now."""
    if not enquiry_ids:
        return
    conn.execute(
        enquiries.update()
        .where(enquiries.c.venue_id == venue.id, enquiries.c.id.in_(enquiry_ids))
        .values({column: now})
    )
