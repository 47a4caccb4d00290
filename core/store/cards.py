"""Where each hold's card sits in Slack: the message its state changes redraw in place."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert

from core.notices import CardSpot
from core.store.schema import hold_cards


def save(
    conn: sa.Connection, venue_id: str, hold_id: int, spot: CardSpot, now: datetime
) -> CardSpot:
    """Keep the first card posted for a hold (a second post of it is not tracked); returns
    the card that is kept."""
    conn.execute(
        insert(hold_cards)
        .values(venue_id=venue_id, hold_id=hold_id, channel=spot.channel, ts=spot.ts, posted_at=now)
        .on_conflict_do_nothing()
    )
    kept = find(conn, venue_id, hold_id)
    assert kept is not None  # noqa: S101 - just written, or there already
    return kept


def find(conn: sa.Connection, venue_id: str, hold_id: int) -> CardSpot | None:
    row = conn.execute(
        sa.select(hold_cards.c.channel, hold_cards.c.ts, hold_cards.c.lines).where(
            hold_cards.c.venue_id == venue_id, hold_cards.c.hold_id == hold_id
        )
    ).first()
    return CardSpot(row.channel, row.ts, frozenset(row.lines)) if row is not None else None


def line_posted(conn: sa.Connection, venue_id: str, hold_id: int, notice_id: int) -> None:
    """The row's line is in the card's thread: a redelivery of the row posts it no more."""
    conn.execute(
        hold_cards.update()
        .where(
            hold_cards.c.venue_id == venue_id,
            hold_cards.c.hold_id == hold_id,
            sa.not_(sa.literal(notice_id, sa.BigInteger) == sa.any_(hold_cards.c.lines)),
        )
        .values(lines=sa.func.array_append(hold_cards.c.lines, notice_id))
    )


def forget(conn: sa.Connection, venue_id: str, hold_id: int) -> None:
    """The card was deleted in Slack: later changes have nothing to redraw."""
    conn.execute(
        hold_cards.delete().where(
            hold_cards.c.venue_id == venue_id, hold_cards.c.hold_id == hold_id
        )
    )
