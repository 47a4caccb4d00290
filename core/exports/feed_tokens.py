"""A calendar feed's secret token: derived from a key and the feed's generation (so that App
Home and `osae feed url` can show it again), kept only as its hash (so that the database
alone gives no feed away), compared by looking that hash up (no timing to measure)."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from enum import StrEnum


class Scope(StrEnum):
    VENUE = "venue"  # every live hold of the venue
    SALESPERSON = "salesperson"  # one salesperson's live holds


@dataclass(frozen=True)
class FeedKey:
    """Which feed a token opens: a venue's, or a salesperson's at that venue."""

    venue_id: str
    scope: Scope
    subject: str = ""  # the salesperson's Slack id; "" for the venue's feed


def token(secret: bytes, feed: FeedKey, generation: int) -> str:
    message = f"{feed.venue_id}\x00{feed.scope.value}\x00{feed.subject}\x00{generation}"
    digest = hmac.new(secret, message.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def token_hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()
