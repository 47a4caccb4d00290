"""``GET /calendar/<token>.ics``: a calendar feed, outside Slack's signature check, so it says
nothing to a stranger: an unknown or rotated token (or any other path under it) gets a bare
404. ``ETag`` / ``Last-Modified`` from one aggregate query, so a calendar polling every few
minutes gets 304 without a hold being read."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime
from typing import TYPE_CHECKING

from bot.texts.states import row_state
from core.engine import HoldEngine
from core.errors import DatabaseUnavailable, UnknownVenue
from core.exports.feed_bodies import FeedBodies
from core.exports.feed_tokens import Scope
from core.operations.feeds import FeedStamp

if TYPE_CHECKING:
    from wsgiref.types import StartResponse, WSGIEnvironment

PREFIX = "/calendar/"
_PATH = re.compile(r"/calendar/([A-Za-z0-9_-]{16,128})\.ics")
CONTENT_TYPE = "text/calendar; charset=utf-8"

log = logging.getLogger("osae.feeds")


class CalendarFeeds:
    """The feeds' WSGI answer; one per process (it keeps what it rendered)."""

    def __init__(self, engine: HoldEngine, now: Callable[[], datetime]) -> None:
        self._engine = engine
        self._now = now
        self._bodies = FeedBodies()

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        match = _PATH.fullmatch(environ.get("PATH_INFO") or "")
        if match is None or environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return _bare(start_response, "404 Not Found")
        try:
            stamp = self._engine.reads.feed_stamp(match.group(1))
            if stamp is None:
                return _bare(start_response, "404 Not Found")
            if _unchanged(environ, stamp):
                return _bare(start_response, "304 Not Modified", _validators(stamp))
            stamp, body = self._body(stamp)
        except (DatabaseUnavailable, UnknownVenue) as err:
            log.warning("feed.unavailable", extra={"error": type(err).__name__})
            return _bare(start_response, "503 Service Unavailable")
        headers = [
            ("Content-Type", CONTENT_TYPE),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "private, no-cache"),
            *_validators(stamp),
        ]
        start_response("200 OK", headers)
        return [] if environ.get("REQUEST_METHOD") == "HEAD" else [body]

    def _body(self, stamp: FeedStamp) -> tuple[FeedStamp, bytes]:
        feed = stamp.feed
        kept = self._bodies.kept(feed, stamp.etag)
        if kept is not None:
            return stamp, kept
        read = self._engine.reads.feed_read(feed, self._bodies.known(feed, stamp.revision))
        name = read.venue.name
        if feed.scope is Scope.SALESPERSON:
            name = f"{name} · {feed.subject}"
        today = self._now().astimezone(read.venue.tz).date()
        return read.stamp, self._bodies.body(read, name, row_state, today=today)


def _validators(stamp: FeedStamp) -> list[tuple[str, str]]:
    headers = [("ETag", f'"{stamp.etag}"')]
    if stamp.last_modified is not None:
        headers.append(
            ("Last-Modified", format_datetime(stamp.last_modified.astimezone(UTC), usegmt=True))
        )
    return headers


def _unchanged(environ: WSGIEnvironment, stamp: FeedStamp) -> bool:
    """If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2)."""
    tags = environ.get("HTTP_IF_NONE_MATCH")
    if tags is not None:
        said = {t.strip().removeprefix("W/") for t in tags.split(",")}
        return f'"{stamp.etag}"' in said or "*" in said
    since = environ.get("HTTP_IF_MODIFIED_SINCE")
    if since is None or stamp.last_modified is None:
        return False
    try:
        when = parsedate_to_datetime(since)
    except (TypeError, ValueError):
        return False
    return stamp.last_modified.replace(microsecond=0) <= when


def _bare(
    start_response: StartResponse, status: str, headers: list[tuple[str, str]] | None = None
) -> Iterable[bytes]:
    start_response(status, [*(headers or []), ("Content-Length", "0")])
    return []
