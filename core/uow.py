"""The one way the engine writes: a SERIALIZABLE transaction, retried when PostgreSQL says so."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar, cast

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError

T = TypeVar("T")

# serialization_failure, deadlock_detected, exclusion_violation (the final gate saw a race),
# unique_violation (two first submissions of one idempotency key).
RETRYABLE = frozenset({"40001", "40P01", "23P01", "23505"})


class Busy(Exception):
    """The transaction kept conflicting through every attempt."""

    def __init__(self, attempts: int) -> None:
        super().__init__(f"still conflicting after {attempts} attempts")
        self.attempts = attempts


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


Observer = Callable[[str, int], None]  # (outcome: "ok" | "busy" | "error", attempts)


class UnitOfWork:
    """Runs ``work(connection)`` in its own SERIALIZABLE transaction until it commits."""

    def __init__(
        self,
        engine: sa.Engine,
        policy: RetryPolicy | None = None,
        *,
        observer: Observer | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.engine = engine
        self.policy = policy or RetryPolicy()
        self.observer = observer
        self._sleep = sleep

    def run(self, work: Callable[[sa.Connection], T]) -> T:
        for attempt in range(1, self.policy.attempts + 1):
            try:
                result = self._attempt(work)
            except Rollback as rollback:
                self._observe("ok", attempt)
                return cast(T, rollback.result)
            except Retry:
                pass
            except DBAPIError as err:
                if sqlstate(err) not in RETRYABLE:
                    self._observe("error", attempt)
                    raise
            else:
                self._observe("ok", attempt)
                return result
            if attempt < self.policy.attempts:
                self._sleep(self.policy.delay(attempt))
        self._observe("busy", self.policy.attempts)
        raise Busy(self.policy.attempts)

    def read(self, work: Callable[[sa.Connection], T]) -> T:
        """A read-only answer (preview, lists, dry runs) from one consistent snapshot."""
        with self.engine.connect() as raw:
            conn = raw.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                conn.execute(sa.text("SET TRANSACTION READ ONLY"))
                return work(conn)

    def _attempt(self, work: Callable[[sa.Connection], T]) -> T:
        with self.engine.connect() as raw:
            conn = raw.execution_options(isolation_level="SERIALIZABLE")
            with conn.begin():
                return work(conn)

    def _observe(self, outcome: str, attempts: int) -> None:
        if self.observer is not None:
            self.observer(outcome, attempts)


def sqlstate(err: DBAPIError) -> str | None:
    return getattr(err.orig, "sqlstate", None)
