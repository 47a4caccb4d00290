"""Transactions: the SERIALIZABLE unit of work retried when PostgreSQL says so, read-only
snapshots, and READ COMMITTED bookkeeping. A database that cannot be reached is reported as
``DatabaseUnavailable``, whichever of them met it."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar, cast

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError

from core.errors import Busy, DatabaseUnavailable

T = TypeVar("T")

# serialization_failure, deadlock_detected, exclusion_violation (the final gate saw a race),
# unique_violation (two first submissions of one idempotency key).
RETRYABLE = frozenset({"40001", "40P01", "23P01", "23505"})
# admin_shutdown, crash_shutdown, cannot_connect_now; class 08 is connection_exception.
_GONE = frozenset({"57P01", "57P02", "57P03"})


class Retry(Exception):
    """Raised inside a unit of work to start it again on a fresh snapshot."""


class Rollback(Exception):
    """Raised inside a unit of work to roll it back and still answer ``result`` (a refusal)."""

    def __init__(self, result: object) -> None:
        super().__init__(type(result).__name__)
        self.result = result


@dataclass(frozen=True)
class RetryPolicy:
    """Capped exponential backoff with full jitter, a bounded number of attempts."""

    attempts: int = 12
    base_delay: float = 0.002
    max_delay: float = 0.1

    def delay(self, attempt: int, rand: Callable[[], float] = random.random) -> float:
        return float(rand() * min(self.max_delay, self.base_delay * 2**attempt))


# The isolation of most writes; and of decisions, whose every conflict with another write is
# on a row both write (docs/architecture.md, Decisions under a crowd).
SERIALIZABLE = "SERIALIZABLE"
ROW_CONFLICTS = "REPEATABLE READ"

Observer = Callable[[str, int], None]  # (outcome: "ok" | "seen" | "busy" | "error", attempts)
# (SQLSTATE, PostgreSQL's reason) of each attempt started again: where false aborts come from
RetryObserver = Callable[[str, str], None]


class UnitOfWork:
    """Runs ``work`` in its own transaction of the database behind ``engine``."""

    def __init__(
        self,
        engine: sa.Engine,
        policy: RetryPolicy | None = None,
        *,
        observer: Observer | None = None,
        retried: RetryObserver | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.engine = engine
        self.policy = policy or RetryPolicy()
        self.observer = observer
        self.retried = retried
        self._sleep = sleep

    def run(
        self,
        work: Callable[[sa.Connection, int], T],
        *,
        then: Callable[[sa.Connection, T], T] | None = None,
        admitted: Callable[[], contextlib.AbstractContextManager[object]] = contextlib.nullcontext,
        look: Callable[[sa.Connection], T | None] | None = None,
        isolation: str = SERIALIZABLE,
    ) -> T:
        """``work(connection, attempt)`` at ``isolation`` until it commits (attempt 1, 2, ...).

        ``Retry`` starts again, and so do the retryable SQLSTATEs; ``Rollback`` rolls back and
        answers its result; after the last attempt, ``Busy``. Each attempt's transaction runs
        inside ``admitted()`` (``core.admission``): the backoff between attempts and what
        follows the commit hold no place in its queue. Once ``work`` has committed (or rolled
        back with its answer), ``then(connection, result)`` may follow on the same connection
        in autocommit: an advisory read with neither a transaction nor a checkout of its own,
        never retried (the answer stands).

        ``look(connection)``: when the turn had to wait for another transaction's (its
        context manager says so), one read in autocommit before any transaction, which may
        answer instead of ``work`` (an answer that writes nothing, such as a refusal on what
        that other transaction wrote). ``None`` goes on with the transaction.
        """
        for attempt in range(1, self.policy.attempts + 1):
            committed = False
            try:
                # The turn is taken before a connection: a queue holds none of the pool's.
                with contextlib.ExitStack() as turn, _unreachable_reported():
                    waited = turn.enter_context(admitted())
                    with self.engine.connect() as raw:
                        result = self._look(raw, look) if look is not None and waited else None
                        outcome = "ok" if result is None else "seen"
                        try:
                            if result is None:
                                with self._begun(raw, isolation) as conn:
                                    result = work(conn, attempt)
                        except Rollback as rollback:  # rolled back, and still the answer
                            result = cast(T, rollback.result)
                        committed = True
                        turn.close()  # the commit ends the turn: what follows waits for none
                        if then is not None:
                            after = raw.execution_options(isolation_level="AUTOCOMMIT")
                            result = then(after, result)
            except Retry:
                self._retried("retry", "the operation asked to start again")
            except DBAPIError as err:
                if committed or sqlstate(err) not in RETRYABLE:
                    self._observe("error", attempt)
                    raise
                self._retried(sqlstate(err) or "", _reason(err))
            except DatabaseUnavailable:
                self._observe("error", attempt)
                raise
            else:
                self._observe(outcome, attempt)
                return result
            if attempt < self.policy.attempts:
                self._sleep(self.policy.delay(attempt))
        self._observe("busy", self.policy.attempts)
        raise Busy(self.policy.attempts)

    @staticmethod
    def _look(raw: sa.Connection, look: Callable[[sa.Connection], T | None]) -> T | None:
        # In place (SQLAlchemy 2): the attempt that may follow sets its own isolation level,
        # and begins once the autocommit block SQLAlchemy opened for the look is ended.
        after = raw.execution_options(isolation_level="AUTOCOMMIT")
        try:
            return look(after)
        finally:
            after.commit()

    def read(self, work: Callable[[sa.Connection], T]) -> T:
        """A read-only answer (preview, lists, dry runs) from one consistent snapshot."""
        with _unreachable_reported(), self._transaction("REPEATABLE READ", True) as conn:
            return work(conn)

    def committed(self, work: Callable[[sa.Connection], T]) -> T:
        """READ COMMITTED: row bookkeeping that decides no hold rule (outbox leases, part-day
        rows made ahead), where SERIALIZABLE would only add retries."""
        with _unreachable_reported(), self.engine.connect() as conn, conn.begin():
            return work(conn)

    def ping(self) -> None:
        """Raise ``DatabaseUnavailable`` unless the database answers."""
        with _unreachable_reported(), self.engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))

    @contextlib.contextmanager
    def _transaction(self, isolation: str, read_only: bool = False) -> Iterator[sa.Connection]:
        with self.engine.connect() as raw, self._begun(raw, isolation, read_only) as conn:
            yield conn

    @staticmethod
    @contextlib.contextmanager
    def _begun(
        raw: sa.Connection, isolation: str, read_only: bool = False
    ) -> Iterator[sa.Connection]:
        # Both go into the BEGIN statement itself: no round trip of their own.
        conn = raw.execution_options(isolation_level=isolation, postgresql_readonly=read_only)
        with conn.begin():
            yield conn

    def _observe(self, outcome: str, attempts: int) -> None:
        if self.observer is not None:
            self.observer(outcome, attempts)

    def _retried(self, state: str, reason: str) -> None:
        if self.retried is not None:
            self.retried(state, reason)


def sqlstate(err: DBAPIError) -> str | None:
    return getattr(err.orig, "sqlstate", None)


def _reason(err: DBAPIError) -> str:
    """PostgreSQL's detail ("Reason code: Canceled on identification as a pivot, during
    write.") or else its message's first line."""
    diag = getattr(err.orig, "diag", None)
    detail = getattr(diag, "message_detail", None) or getattr(diag, "message_primary", None)
    return str(detail or err.orig or err).strip().splitlines()[0]


@contextlib.contextmanager
def _unreachable_reported() -> Iterator[None]:
    """A connection that cannot be made or was lost becomes ``DatabaseUnavailable``."""
    try:
        yield
    except DBAPIError as err:
        state = sqlstate(err)
        lost = err.connection_invalidated or state is None or state.startswith("08")
        if isinstance(err, sa.exc.OperationalError | sa.exc.InterfaceError) and (
            lost or state in _GONE
        ):
            first = str(err.orig or err).strip().splitlines()
            raise DatabaseUnavailable(first[0] if first else type(err).__name__) from err
        raise
