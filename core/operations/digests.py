"""Reminders 24 h before a deadline and the Monday digest: outbox rows, at most once each."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa

from core.model import Hold, Venue
from core.notices import NoticeKind, notice
from core.serialize import hold_to_json
from core.store import holds, outbox
from core.store.outbox import NewNotice

REMINDER_AHEAD = timedelta(hours=24)
DIGEST_SPAN = timedelta(days=7)


def queue_reminders(conn: sa.Connection, venue: Venue, now: datetime) -> int:
    """One reminder per hold and deadline: an extended deadline gets its own."""
    due = holds.firsts_expiring(conn, venue, now, now + REMINDER_AHEAD)
    rows = [_keyed(notice(NoticeKind.REMINDER, h), f"reminder:{h.id}:{_stamp(h)}") for h in due]
    return outbox.add(conn, venue.id, rows, now)


def queue_digests(conn: sa.Connection, venue: Venue, now: datetime) -> int:
    """Each salesperson's 1st holds with a deadline in the coming 7 days; once per ISO week."""
    week = now.astimezone(venue.tz).date().isocalendar()
    by_person: dict[str, list[Hold]] = {}
    for h in holds.firsts_expiring(conn, venue, now, now + DIGEST_SPAN):
        by_person.setdefault(h.salesperson, []).append(h)
    rows = [
        NewNotice(
            kind=NoticeKind.DIGEST.value,
            recipient=person,
            payload={
                "holds": [hold_to_json(h) for h in mine],
                "week": f"{week.year}-W{week.week:02d}",
                "from": now.isoformat(),
                "until": (now + DIGEST_SPAN).isoformat(),
            },
            dedupe_key=f"digest:{person}:{week.year}-W{week.week:02d}",
        )
        for person, mine in sorted(by_person.items())
    ]
    return outbox.add(conn, venue.id, rows, now)


def _keyed(row: NewNotice, key: str) -> NewNotice:
    return NewNotice(row.kind, row.recipient, row.payload, row.hold_id, key)


def _stamp(hold: Hold) -> str:
    return hold.expires_at.isoformat() if hold.expires_at else ""
