"""Calendar feeds: their tokens (issued, shown again, rotated) and their reads — a stamp for
``ETag`` / ``Last-Modified`` from one aggregate, and the live holds not yet rendered."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from core.exports.feed_tokens import FeedKey, Scope, token, token_hash
from core.model import Hold, Venue
from core.operations.tx import Snapshot, Tx
from core.store import feeds, ranges
from core.store import holds as stored

Entry = tuple[int, int, int]  # a live hold: (id, version, its enquiry's version)


@dataclass(frozen=True)
class FeedStamp:
    feed: FeedKey
    etag: str  # changes whenever what the feed shows may have changed
    last_modified: datetime | None
    revision: int = 0  # the venue's, as the stamp saw it


@dataclass(frozen=True)
class FeedRead:
    stamp: FeedStamp
    venue: Venue
    entries: tuple[Entry, ...]  # every live hold of the feed, by id
    holds: tuple[Hold, ...]  # those of ``entries`` the caller had not rendered yet


def _salesperson(feed: FeedKey) -> str | None:
    return feed.subject if feed.scope is Scope.SALESPERSON else None


def _stamp(
    conn: sa.Connection,
    feed: FeedKey,
    revision: int,
    known: tuple[int, int, int, int, object] | None = None,
) -> FeedStamp:
    """``known``: the aggregates already read with the token (a venue's feed)."""
    *counts, last = known or ranges.live_stamp(conn, feed.venue_id, _salesperson(feed))
    said = f"{feed.venue_id}:{feed.scope.value}:{feed.subject}:{revision}:{counts}:{last}"
    etag = hashlib.sha256(said.encode()).hexdigest()[:32]
    return FeedStamp(feed, etag, last if isinstance(last, datetime) else None, revision)


def stamp_by_token(conn: sa.Connection, given: str) -> FeedStamp | None:
    """The feed a token opens and its stamp, or None for a token no feed has (unknown or
    rotated away): found by the token's hash, so no comparison of secrets can be timed."""
    found = ranges.token_stamp(conn, token_hash(given))
    if found is None:
        return None
    venue_id, scope, subject, revision, counts = found
    return _stamp(conn, FeedKey(venue_id, Scope(scope), subject), revision, counts)


def read(snap: Snapshot, feed: FeedKey, known: Callable[[Entry], bool]) -> FeedRead:
    """The feed's stamp, its live holds by version, and those holds ``known`` has not."""
    stamp = _stamp(snap.conn, feed, snap.venue.revision)
    entries = tuple(ranges.live_versions(snap.conn, feed.venue_id, _salesperson(feed)))
    wanted = [e[0] for e in entries if not known(e)]
    found = stored.get_many(snap.conn, snap.venue, wanted) if wanted else []
    return FeedRead(stamp, snap.venue, entries, tuple(found))


def shown_token(snap: Snapshot, feed: FeedKey, secret: bytes | None) -> str | None:
    """The feed's token as issued, or None if it must be (re)issued first."""
    gen = feeds.generation(snap.conn, feed)
    key = secret if secret is not None else feeds.stored_key(snap.conn, feed.venue_id)
    if gen is None or key is None:
        return None
    shown = token(key, feed, gen)
    return shown if feeds.by_hash(snap.conn, token_hash(shown)) == feed else None


def issue(tx: Tx, feed: FeedKey, secret: bytes | None, rotate: bool) -> str:
    """The feed's token; a new generation when ``rotate`` (the old URL gets 404 from now on),
    or when none was issued yet, or when the key it was derived from has changed."""
    key = secret if secret is not None else feeds.key(tx.conn, feed.venue_id, tx.now)
    gen = feeds.generation(tx.conn, feed)
    if gen is not None and not rotate:
        shown = token(key, feed, gen)
        if feeds.by_hash(tx.conn, token_hash(shown)) == feed:
            return shown
    gen = (gen or 0) + 1
    shown = token(key, feed, gen)
    feeds.save(tx.conn, feed, gen, token_hash(shown), tx.now)
    return shown
