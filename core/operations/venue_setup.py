"""Saving a venue and keeping its part-day rows made ahead of bookings."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa

from core.model import Venue
from core.rules.deadlines import last_bookable_day
from core.store import part_days, venues

ONE_DAY = timedelta(days=1)


def save(conn: sa.Connection, venue: Venue, now: datetime) -> Venue:
    """Insert or update a venue (idempotent); raises ``VenueConflict`` if unsafe."""
    venues.save(conn, venue, now)
    loaded = venues.load(conn, venue.id)
    assert loaded is not None  # noqa: S101 - saved just above
    _prepare(conn, loaded, now)
    return loaded


def prepare_part_days(conn: sa.Connection, venue_id: str, now: datetime) -> None:
    """Make the part-day rows for the booking horizon (daily, as the horizon moves on)."""
    venue = venues.load(conn, venue_id)
    if venue is not None:
        _prepare(conn, venue, now)


def _prepare(conn: sa.Connection, venue: Venue, now: datetime) -> None:
    today = now.astimezone(venue.tz).date()
    parts = {p for room in venue.rooms.values() if room.active for p in room.parts}
    # A span may start on the last bookable day and run into the next.
    part_days.prepare(
        conn, venue.id, parts, today, last_bookable_day(today, venue.policy) + ONE_DAY
    )
