"""How operations run: a write in one SERIALIZABLE unit per attempt, taken in its turn in
this process's admission and retried; a read on one read-only snapshot. Both hand the
operation its venue (``core.venue_cache``)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar, cast

import sqlalchemy as sa

from core.admission import Admission
from core.db import roll_back_keeping_statements
from core.errors import Busy, StaleVenue
from core.journal import Journal
from core.operations.tx import Snapshot, Tx
from core.results import Refused
from core.uow import SERIALIZABLE, Attempt, Retry, Rollback, UnitOfWork
from core.venue_cache import VenueCache

R = TypeVar("R")


@dataclass(frozen=True)
class Unit:
    """One attempt's transaction as an operation is given it (``tx``): rolled back unless
    ``commit()`` is called (cosmicpython's unit of work)."""

    tx: Tx
    _transaction: sa.RootTransaction

    def commit(self) -> None:
        """Write what the operation recorded in its journal, then commit."""
        self.tx.journal.flush()
        self._transaction.commit()


class Runner:
    def __init__(self, uow: UnitOfWork, admission: Admission, venues: VenueCache) -> None:
        self.uow = uow
        self.admission = admission
        self.venues = venues

    def write(
        self,
        venue_id: str,
        now: datetime,
        operation: Callable[[Tx], R],
        *,
        isolation: str = SERIALIZABLE,
    ) -> R:
        """``operation`` until it commits; a ``Refused`` answer (or ``Rollback``) rolls back.

        Each attempt waits for its turn among this process's writers of the venue, if they
        are capped (``core.admission``); its commit ends the turn. Decisions run at
        ``ROW_CONFLICTS`` (``core.uow``). Raises ``UnknownVenue``, and ``Busy`` when every
        attempt conflicted.
        """
        for attempt in self.uow.attempts():
            with attempt, self.admission.write(venue_id):
                with self.unit(attempt, attempt.connect(), venue_id, now, isolation) as unit:
                    try:
                        answer = operation(unit.tx)
                    except Rollback as rollback:  # rolled back, and still the answer
                        return cast(R, rollback.result)
                    if not isinstance(answer, Refused):
                        unit.commit()
                return answer
        raise Busy(self.uow.policy.attempts)

    @contextlib.contextmanager
    def unit(
        self,
        attempt: Attempt,
        conn: sa.Connection,
        venue_id: str,
        now: datetime,
        isolation: str = SERIALIZABLE,
        *,
        trusted: bool = False,
    ) -> Iterator[Unit]:
        """The attempt's transaction on ``conn`` with the venue as it sees it.

        ``trusted``: the operation's first read checks the cached venue's revision itself
        (``core.venue_cache``); a copy found stale is forgotten and the attempt started
        again. Ended without ``commit()``, the transaction is rolled back keeping the
        connection's prepared statements: a refusal writes nothing and drops nothing.
        """
        with attempt.transaction(conn, isolation) as transaction:
            begun = transaction.connection
            venue = self.venues.get(begun, venue_id, trusted=trusted)
            tx = Tx(begun, venue, now, attempt.number, Journal(begun, venue_id, now))
            unit = Unit(tx, transaction)
            try:
                yield unit
            except StaleVenue:
                self.venues.forget(venue_id)
                raise Retry from None
            if transaction.is_active:
                roll_back_keeping_statements(begun)
                transaction.rollback()

    def read(
        self, venue_id: str, operation: Callable[[Snapshot], R], *, trusted: bool = False
    ) -> R:
        """``operation`` on one read-only snapshot; a stale cached venue is read again, once."""

        def work(conn: sa.Connection) -> R:
            return operation(self.snapshot(conn, venue_id, trusted=trusted))

        try:
            return self.uow.read(work)
        except StaleVenue:
            self.venues.forget(venue_id)
            return self.uow.read(work)

    def snapshot(self, conn: sa.Connection, venue_id: str, *, trusted: bool = False) -> Snapshot:
        """``conn`` as it is (a read-only snapshot, or autocommit) with the venue."""
        return Snapshot(conn, self.venues.get(conn, venue_id, trusted=trusted))
