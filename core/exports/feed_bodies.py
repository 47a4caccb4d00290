"""Feed bodies made cheaply: a hold's events are rendered once per version of it and kept,
so a feed after a change renders only what changed (``icalendar`` takes about 1 ms a hold),
and a feed whose stamp is unchanged is sent as it was."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import date

from core.exports.calendar import Words, assemble, envelope, events
from core.exports.feed_tokens import FeedKey
from core.operations.feeds import Entry, FeedRead

_KEPT = 100_000  # holds' events kept at most (about 500 bytes each); then started afresh
_BODIES = 256  # feeds' last bodies kept


class FeedBodies:
    """Per process, shared by the web server's threads (each dict step is atomic)."""

    def __init__(self) -> None:
        self._events: dict[tuple[str, int, int, int, int], bytes] = {}
        self._bodies: dict[FeedKey, tuple[str, bytes]] = {}
        self._envelopes: dict[tuple[str, int, str, date], tuple[bytes, bytes]] = {}
        self._lock = threading.Lock()

    def known(self, feed: FeedKey, revision: int) -> Callable[[Entry], bool]:
        """Which holds need no rendering; a full store starts afresh here, before the read
        (not between the read and ``body``, which relies on what this said was kept)."""
        with self._lock:
            if len(self._events) > _KEPT:
                self._events.clear()
        return lambda entry: self._key(feed, revision, entry) in self._events

    def kept(self, feed: FeedKey, etag: str) -> bytes | None:
        """The body sent last for this feed, if its stamp is still ``etag``."""
        found = self._bodies.get(feed)
        return found[1] if found is not None and found[0] == etag else None

    def body(self, read: FeedRead, name: str, state: Words, *, today: date) -> bytes:
        feed, venue = read.stamp.feed, read.venue
        fresh = {h.id: events(h, venue, state) for h in read.holds}
        with self._lock:
            for entry in read.entries:
                if entry[0] in fresh:
                    self._events[self._key(feed, venue.revision, entry)] = fresh[entry[0]]
            parts = [
                fresh.get(e[0]) or self._events.get(self._key(feed, venue.revision, e), b"")
                for e in read.entries
            ]
            around = self._envelope(read, name, today)
            body = assemble(around, parts)
            if len(self._bodies) >= _BODIES:
                self._bodies.clear()
            self._bodies[feed] = (read.stamp.etag, body)
        return body

    def _envelope(self, read: FeedRead, name: str, today: date) -> tuple[bytes, bytes]:
        venue = read.venue
        key = (venue.id, venue.revision, name, today)
        if key not in self._envelopes:
            if len(self._envelopes) >= _BODIES:
                self._envelopes.clear()
            self._envelopes[key] = envelope(venue, name, today)
        return self._envelopes[key]

    @staticmethod
    def _key(feed: FeedKey, revision: int, entry: Entry) -> tuple[str, int, int, int, int]:
        return (feed.venue_id, revision, *entry)
