"""What the engine raises, as its own types: callers catch these, never SQLAlchemy's.

Writes answer a refusal (``core.results.Refused``) for what a user did wrong or could not
have; these are for what a caller must handle in code.
"""

from __future__ import annotations


class UnknownVenue(LookupError):
    """No venue with this id is loaded. Reads raise it; writes answer ``UNKNOWN_VENUE``."""

    def __init__(self, venue_id: str) -> None:
        super().__init__(f"no venue {venue_id!r} is loaded")
        self.venue_id = venue_id


class Busy(Exception):
    """The transaction kept conflicting through every attempt."""

    def __init__(self, attempts: int) -> None:
        super().__init__(f"still conflicting after {attempts} attempts")
        self.attempts = attempts


class DatabaseUnavailable(Exception):
    """The database cannot be reached: refused, down, or the connection dropped."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason  # the driver's first line, e.g. "connection failed: ..."


class NoSchema(Exception):
    """The database has no osae tables (``osae db upgrade`` was never run on it)."""


class VenueConflict(ValueError):
    """A venue file that would change a room under live holds."""


class StaleVenue(Exception):
    """A cached venue whose stored revision has moved on: reload it and start again.

    Raised by the store's first read of a transaction that trusted a cached copy, and
    handled inside the engine (callers never see it).
    """
