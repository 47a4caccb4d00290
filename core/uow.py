"""Transactions: the SERIALIZABLE unit of work retried when PostgreSQL says so, read-only
snapshots, and READ COMMITTED bookkeeping. A database that cannot be reached is reported as
``DatabaseUnavailable``, whichever of them met it."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

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
    """Raised by an operation to roll its transaction back and still answer ``result``
    (an import that places nothing unless it places every row)."""

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
# on a row both write (docs/concurrency.md, Decisions under a crowd).
SERIALIZABLE = "SERIALIZABLE"
ROW_CONFLICTS = "REPEATABLE READ"

Observer = Callable[[str, int], None]  # (outcome: "ok" | "seen" | "busy" | "error", attempts)
# (SQLSTATE, PostgreSQL's reason) of each attempt started again: where false aborts come from
RetryObserver = Callable[[str, str], None]


class UnitOfWork:
    """Transactions on the database behind ``engine``; a write's are ``attempts()``."""

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

    def attempts(self) -> Iterator[Attempt]:
        """The attempts of one write, each on a fresh snapshot, with the policy's backoff
        between them: ``for attempt in uow.attempts(): with attempt: ... return answer``.

        An attempt that meets a retryable SQLSTATE, or raises ``Retry``, before it has its
        answer ends quietly and the next one follows. When the last has ended that way the
        loop ends too, and the caller answers that it is busy.
        """
        for number in range(1, self.policy.attempts + 1):
            attempt = Attempt(self, number)
            yield attempt
            if attempt.answered:  # a body that did not return: its answer stands
                return
            if number < self.policy.attempts:
                self._sleep(self.policy.delay(number))
        self.observe("busy", self.policy.attempts)

    def run(self, work: Callable[[sa.Connection, int], T], *, isolation: str = SERIALIZABLE) -> T:
        """``work(connection, attempt)`` at ``isolation`` until it commits (attempt 1, 2,
        ...); ``Busy`` after the last attempt."""
        for attempt in self.attempts():
            with attempt, attempt.transaction(attempt.connect(), isolation) as transaction:
                return work(transaction.connection, attempt.number)
        raise Busy(self.policy.attempts)

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

    def observe(self, outcome: str, attempts: int) -> None:
        if self.observer is not None:
            self.observer(outcome, attempts)

    def started_again(self, state: str, reason: str) -> None:
        if self.retried is not None:
            self.retried(state, reason)


class Attempt:
    """One attempt of a write: its connection, taken when it asks (after any turn in a
    queue, so a queue holds none of the pool's), closed when it ends.

    It has its answer once its transaction has ended cleanly (``transaction``) or it
    answered without one (``seen``); what fails after that is raised, never retried.
    """

    def __init__(self, uow: UnitOfWork, number: int) -> None:
        self.number = number  # 1, then 2, ... on a fresh snapshot each
        self.answered = False
        self._uow = uow
        self._outcome = "ok"
        self._conn: sa.Connection | None = None

    def connect(self) -> sa.Connection:
        self._conn = self._uow.engine.connect()
        return self._conn

    @contextlib.contextmanager
    def transaction(
        self, conn: sa.Connection, isolation: str = SERIALIZABLE
    ) -> Iterator[sa.RootTransaction]:
        """``conn`` in a transaction at ``isolation`` (the level goes into the BEGIN itself:
        no round trip of its own), committed at the end unless the body ended it."""
        begun = conn.execution_options(isolation_level=isolation, postgresql_readonly=False)
        with begun.begin() as transaction:
            yield transaction
        self.answered = True

    def seen(self) -> None:
        """Answered without a transaction, on what another attempt committed."""
        self.answered = True
        self._outcome = "seen"

    def __enter__(self) -> Attempt:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: object
    ) -> bool:
        if self._conn is not None:
            self._conn.close()
        if err is None:
            self.answered = True
            self._uow.observe(self._outcome, self.number)
            return False
        if isinstance(err, Retry) and not self.answered:
            self._uow.started_again("retry", "the operation asked to start again")
            return True
        if isinstance(err, DBAPIError):
            unavailable = _unavailable(err)
            if unavailable is None and not self.answered and sqlstate(err) in RETRYABLE:
                self._uow.started_again(sqlstate(err) or "", _reason(err))
                return True
            self._uow.observe("error", self.number)
            if unavailable is not None:
                raise unavailable from err
        elif isinstance(err, DatabaseUnavailable):
            self._uow.observe("error", self.number)
        return False


@contextlib.contextmanager
def autocommit(conn: sa.Connection) -> Iterator[sa.Connection]:
    """``conn`` in autocommit: each statement its own snapshot, no transaction to end. In
    place (SQLAlchemy 2); the block SQLAlchemy begins for it is ended after, so a
    transaction at another level may follow on the same connection."""
    after = conn.execution_options(isolation_level="AUTOCOMMIT")
    yield after
    after.commit()


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
        unavailable = _unavailable(err)
        if unavailable is not None:
            raise unavailable from err
        raise


def _unavailable(err: DBAPIError) -> DatabaseUnavailable | None:
    """``err`` as ``DatabaseUnavailable`` if it says the database cannot be reached."""
    state = sqlstate(err)
    lost = err.connection_invalidated or state is None or state.startswith("08")
    if isinstance(err, sa.exc.OperationalError | sa.exc.InterfaceError) and (
        lost or state in _GONE
    ):
        first = str(err.orig or err).strip().splitlines()
        return DatabaseUnavailable(first[0] if first else type(err).__name__)
    return None
