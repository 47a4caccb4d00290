"""The unit of work against real serialization failures, not mocks."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from datetime import date

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError, ProgrammingError

from core.engine import HoldEngine
from core.errors import Busy
from core.model import Venue
from core.results import Code, Refused
from core.store import part_days
from core.uow import RetryPolicy, UnitOfWork, sqlstate
from tests.support.factories import NOW, request

KEY = {("A1", date(2027, 3, 10)): 0}  # a bump that leaves the span count alone


def concurrent_bump(db: sa.Engine, venue_id: str) -> None:
    """Another transaction bumps and commits the row after ours took its snapshot."""
    with db.begin() as conn:
        part_days.bump(conn, venue_id, KEY)


def test_a_serialization_failure_is_retried_on_a_fresh_snapshot(
    sa_engine: sa.Engine, venue: Venue
) -> None:
    outcomes: list[tuple[str, int]] = []
    causes: list[tuple[str, str]] = []
    uow = UnitOfWork(
        sa_engine,
        observer=lambda o, a: outcomes.append((o, a)),
        retried=lambda state, reason: causes.append((state, reason)),
        sleep=lambda _: None,
    )
    attempts: list[int] = []

    def work(conn: sa.Connection, attempt: int) -> int:
        conn.execute(sa.text("SELECT 1"))  # takes this attempt's snapshot
        attempts.append(attempt)
        if attempt == 1:
            concurrent_bump(sa_engine, venue.id)
        part_days.bump(conn, venue.id, KEY)  # 40001 on the first attempt only
        return attempt

    assert uow.run(work) == 2
    assert attempts == [1, 2], "each attempt is told its number"
    assert outcomes == [("ok", 2)]
    assert causes == [("40001", "could not serialize access due to concurrent update")]


def test_busy_after_the_last_attempt_with_backoff_between(
    sa_engine: sa.Engine, venue: Venue
) -> None:
    slept: list[float] = []
    policy = RetryPolicy(attempts=4, base_delay=0.01, max_delay=0.02)
    uow = UnitOfWork(sa_engine, policy, sleep=slept.append)

    def always_conflicts(conn: sa.Connection, attempt: int) -> None:
        conn.execute(sa.text("SELECT 1"))
        concurrent_bump(sa_engine, venue.id)
        part_days.bump(conn, venue.id, KEY)

    with pytest.raises(Busy) as caught:
        uow.run(always_conflicts)
    assert caught.value.attempts == 4
    assert len(slept) == 3
    assert all(0 <= s <= 0.02 for s in slept)


def test_other_database_errors_are_not_retried(sa_engine: sa.Engine) -> None:
    calls = []

    def broken(conn: sa.Connection, attempt: int) -> None:
        calls.append(1)
        conn.execute(sa.text("SELECT * FROM no_such_table"))

    with pytest.raises(ProgrammingError):
        UnitOfWork(sa_engine, sleep=lambda _: None).run(broken)
    assert calls == [1]


def test_a_read_sees_one_snapshot_and_cannot_write(sa_engine: sa.Engine, venue: Venue) -> None:
    uow = UnitOfWork(sa_engine)

    def settings(conn: sa.Connection) -> tuple[str, str]:
        isolation = conn.execute(sa.text("SHOW transaction_isolation")).scalar_one()
        read_only = conn.execute(sa.text("SHOW transaction_read_only")).scalar_one()
        return isolation, read_only

    assert uow.read(settings) == ("repeatable read", "on")
    with pytest.raises(DBAPIError) as caught:
        uow.read(lambda conn: part_days.bump(conn, venue.id, KEY))
    assert sqlstate(caught.value) == "25006"  # read_only_sql_transaction
    assert uow.run(lambda conn, _: settings(conn)) == ("serializable", "off")


def test_the_engine_answers_busy_when_every_attempt_conflicts(
    sa_engine: sa.Engine, venue: Venue
) -> None:
    """A writer that holds the slot's ledger row and keeps committing makes requests busy."""
    engine = HoldEngine(sa_engine, retry=RetryPolicy(attempts=2, base_delay=0, max_delay=0))
    stop = threading.Event()

    def hammer() -> None:
        while not stop.is_set():
            concurrent_bump(sa_engine, venue.id)

    threads = [threading.Thread(target=hammer) for _ in range(2)]
    for t in threads:
        t.start()
    try:
        answers = [engine.request(venue.id, request(room="hoo-a"), now=NOW) for _ in range(20)]
    finally:
        stop.set()
        for t in threads:
            t.join()
    busy = [a for a in answers if isinstance(a, Refused) and a.code is Code.BUSY]
    assert busy, "expected at least one busy answer under constant conflicting commits"


def test_a_write_waiting_for_its_turn_holds_no_connection_and_its_turn_ends_at_commit(
    sa_engine: sa.Engine,
) -> None:
    """A crowd queued in admission must not take the pool from everyone else, and the reads
    after the commit keep nobody waiting."""
    uow = UnitOfWork(sa_engine)
    waiting, go = threading.Event(), threading.Event()
    turn_over = threading.Event()
    checked_out: list[int] = []

    @contextlib.contextmanager
    def admitted() -> Iterator[None]:
        waiting.set()
        go.wait(5)
        try:
            yield
        finally:
            turn_over.set()

    def then(conn: sa.Connection, result: int) -> int:
        assert turn_over.is_set(), "the turn is over before the reads after the commit"
        return result + int(conn.execute(sa.text("SELECT 1")).scalar_one())

    answers: list[int] = []
    writer = threading.Thread(
        target=lambda: answers.append(
            uow.run(
                lambda conn, _: int(conn.execute(sa.text("SELECT 1")).scalar_one()),
                then=then,
                admitted=admitted,
            )
        )
    )
    writer.start()
    assert waiting.wait(5)
    checked_out.append(sa_engine.pool.checkedout())  # type: ignore[attr-defined]
    go.set()
    writer.join(5)
    assert checked_out == [0], "waiting for its turn, it held a connection"
    assert answers == [2]


def test_a_look_answers_only_after_a_turn_that_waited_and_else_the_transaction_follows(
    sa_engine: sa.Engine,
) -> None:
    """The look reads in autocommit; ``None`` goes on to the SERIALIZABLE attempt, and what
    follows the commit is still outside any transaction."""
    outcomes: list[str] = []
    uow = UnitOfWork(sa_engine, observer=lambda o, _: outcomes.append(o))

    @contextlib.contextmanager
    def turn(waited: bool) -> Iterator[bool]:
        yield waited

    def isolation(conn: sa.Connection) -> str:
        return str(conn.execute(sa.text("SHOW transaction_isolation")).scalar_one())

    def own_transactions(conn: sa.Connection) -> bool:
        first, second = (conn.execute(sa.text("SELECT txid_current()")).scalar() for _ in "12")
        return bool(first != second)

    def look(conn: sa.Connection) -> str:
        assert own_transactions(conn)
        return "seen"

    def work(conn: sa.Connection, _: int) -> str:
        return isolation(conn)

    def then(conn: sa.Connection, result: str) -> str:
        return f"{result}, then {'autocommit' if own_transactions(conn) else 'in one'}"

    assert uow.run(work, admitted=lambda: turn(False), look=look) == "serializable"
    assert uow.run(work, admitted=lambda: turn(True), look=look) == "seen"
    assert uow.run(work, admitted=lambda: turn(True), look=lambda _: None, then=then) == (
        "serializable, then autocommit"
    )
    assert outcomes == ["ok", "seen", "ok"]
