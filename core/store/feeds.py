"""Calendar feeds' rows: each feed's generation and its token's hash; a venue's feed key."""

from __future__ import annotations

import secrets
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert

from core.exports.feed_tokens import FeedKey, Scope
from core.store.schema import calendar_feeds, feed_keys


def generation(conn: sa.Connection, feed: FeedKey) -> int | None:
    query = sa.select(calendar_feeds.c.generation).where(
        calendar_feeds.c.venue_id == feed.venue_id,
        calendar_feeds.c.scope == feed.scope.value,
        calendar_feeds.c.subject == feed.subject,
    )
    found: int | None = conn.execute(query).scalar()
    return found


def save(conn: sa.Connection, feed: FeedKey, gen: int, hashed: str, now: datetime) -> None:
    """The feed's generation and token hash (a rotation replaces both: the old token is gone)."""
    row = {
        "venue_id": feed.venue_id,
        "scope": feed.scope.value,
        "subject": feed.subject,
        "generation": gen,
        "token_hash": hashed,
        "created_at": now,
    }
    stmt = insert(calendar_feeds).values(row)
    stmt = stmt.on_conflict_do_update(
        index_elements=["venue_id", "scope", "subject"],
        set_={"generation": gen, "token_hash": hashed, "created_at": now},
    )
    conn.execute(stmt)


def by_hash(conn: sa.Connection, hashed: str) -> FeedKey | None:
    """The feed whose token has this hash: an index lookup, never a comparison of tokens."""
    query = sa.select(
        calendar_feeds.c.venue_id, calendar_feeds.c.scope, calendar_feeds.c.subject
    ).where(calendar_feeds.c.token_hash == hashed)
    row = conn.execute(query).first()
    return FeedKey(row.venue_id, Scope(row.scope), row.subject) if row else None


def key(conn: sa.Connection, venue_id: str, now: datetime) -> bytes:
    """The venue's stored feed key, made on first use."""
    made = secrets.token_urlsafe(32)
    stmt = insert(feed_keys).values(venue_id=venue_id, secret=made, created_at=now)
    conn.execute(stmt.on_conflict_do_nothing(index_elements=["venue_id"]))
    query = sa.select(feed_keys.c.secret).where(feed_keys.c.venue_id == venue_id)
    stored: str = conn.execute(query).scalar_one()
    return stored.encode()


def stored_key(conn: sa.Connection, venue_id: str) -> bytes | None:
    """The venue's stored feed key, if one was made (reads only)."""
    query = sa.select(feed_keys.c.secret).where(feed_keys.c.venue_id == venue_id)
    stored: str | None = conn.execute(query).scalar()
    return stored.encode() if stored else None
