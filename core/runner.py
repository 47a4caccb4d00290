"""The one way operations run: a write through admission, one SERIALIZABLE unit of work and
its retries; a read on one read-only snapshot. Both hand the operation its venue."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from functools import partial
from typing import TypeVar

import sqlalchemy as sa

from core.admission import Admission, Key
from core.db import roll_back_keeping_statements
from core.errors import StaleVenue
from core.journal import Journal
from core.operations.tx import Snapshot, Tx
from core.results import Refused
from core.uow import SERIALIZABLE, Retry, Rollback, UnitOfWork
from core.venue_cache import VenueCache

R = TypeVar("R")


class Runner:
    def __init__(self, uow: UnitOfWork, admission: Admission, venues: VenueCache) -> None:
        self._uow = uow
        self._admission = admission
        self._venues = venues

    def write(
        self,
        venue_id: str,
        now: datetime,
        operation: Callable[[Tx], R],
        *,
        keys: Iterable[Key] = (),
        trusted: bool = False,
        then: Callable[[sa.Connection, R], R] | None = None,
        look: Callable[[Snapshot], R | None] | None = None,
        isolation: str = SERIALIZABLE,
    ) -> R:
        """Run ``operation`` until it commits; a ``Refused`` answer rolls back (writes nothing).

        Each attempt queues behind this process's other writers of ``keys`` (and of the
        venue, if capped: ``core.admission``); the commit ends its turn. ``trusted``: its
        first read checks the cached venue's revision itself (``core.venue_cache``).
        ``then``: a read after the commit on the same connection; ``look``: a read that may
        answer first when the turn waited for another's (both ``UnitOfWork.run``);
        ``isolation``: the transaction's (``core.uow``).
        Raises ``UnknownVenue``, and ``Busy`` when every attempt conflicted.
        """
        attempt = partial(self._attempt, venue_id, now, operation, trusted)
        admitted = partial(self._admission.write, venue_id, tuple(keys))
        seen = None if look is None else partial(self._look, venue_id, look, trusted)
        return self._uow.run(attempt, then=then, admitted=admitted, look=seen, isolation=isolation)

    def read(
        self, venue_id: str, operation: Callable[[Snapshot], R], *, trusted: bool = False
    ) -> R:
        """``operation`` on one read-only snapshot; a stale cached venue is read again, once."""
        try:
            return self._uow.read(partial(self._look, venue_id, operation, trusted))
        except StaleVenue:
            self._venues.forget(venue_id)
            return self._uow.read(partial(self._look, venue_id, operation, trusted))

    def _attempt(
        self,
        venue_id: str,
        now: datetime,
        operation: Callable[[Tx], R],
        trusted: bool,
        conn: sa.Connection,
        attempt: int,
    ) -> R:
        venue = self._venues.get(conn, venue_id, trusted=trusted)
        tx = Tx(conn, venue, now, attempt, Journal(conn, venue_id, now))
        try:
            result = operation(tx)
        except StaleVenue:
            self._venues.forget(venue_id)
            raise Retry from None
        if isinstance(result, Refused):
            roll_back_keeping_statements(conn)  # a refusal writes nothing, drops nothing
            raise Rollback(result)
        tx.journal.flush()
        return result

    def _look(
        self,
        venue_id: str,
        operation: Callable[[Snapshot], R],
        trusted: bool,
        conn: sa.Connection,
    ) -> R:
        return operation(Snapshot(conn, self._venues.get(conn, venue_id, trusted=trusted)))
