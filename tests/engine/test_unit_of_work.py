"""The unit of work against real serialization failures, not mocks."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator
from datetime import date
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError, ProgrammingError

from core.admission import Admission, Key
from core.errors import Busy
from core.model import Venue
from core.operations import answering
from core.results import Code, Refused, RequestAnswer
from core.roles.writes import Writes
from core.runner import Runner
from core.store import part_days
from core.uow import RetryPolicy, UnitOfWork, sqlstate
from core.venue_cache import VenueCache
from tests.support.engines import EngineForTests
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
    engine = EngineForTests(sa_engine, retry=RetryPolicy(attempts=2, base_delay=0, max_delay=0))
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


class Gate(Admission):
    """Admission that makes every write wait until ``go`` and says it waited ``waited``:
    a turn taken while another request's transaction held the part-days."""

    def __init__(self, *, waited: bool = False) -> None:
        super().__init__()
        self.waited = waited
        self.waiting, self.go, self.over = threading.Event(), threading.Event(), threading.Event()

    @contextlib.contextmanager
    def write(self, venue_id: str, keys: Iterable[Key] = ()) -> Iterator[bool]:
        self.over.clear()
        self.waiting.set()
        self.go.wait(5)
        try:
            yield self.waited
        finally:
            self.over.set()


def writes_through(db: sa.Engine, gate: Admission, **uow: Any) -> Writes:
    """The engine's writes, as ``HoldEngine`` builds them, queued by ``gate``."""
    return Writes(Runner(UnitOfWork(db, **uow), gate, VenueCache()))


def test_a_write_waiting_for_its_turn_holds_no_connection_and_its_turn_ends_at_commit(
    sa_engine: sa.Engine, venue: Venue, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crowd queued in admission must not take the pool from everyone else, and the reads
    after the commit (the holds ahead of a 2nd) keep nobody waiting."""
    gate = Gate()
    writes = writes_through(sa_engine, gate)
    gate.go.set()
    assert isinstance(writes.request(venue.id, request(), now=NOW), RequestAnswer)
    gate.go.clear()
    gate.waiting.clear()
    read_after: list[bool] = []
    shown = answering.shown

    def recording_shown(*args: Any, **kwargs: Any) -> Any:
        read_after.append(gate.over.is_set())
        return shown(*args, **kwargs)

    monkeypatch.setattr(answering, "shown", recording_shown)
    answers: list[object] = []
    second = request(salesperson="U0SECOND")
    writer = threading.Thread(
        target=lambda: answers.append(writes.request(venue.id, second, now=NOW))
    )
    writer.start()
    assert gate.waiting.wait(5)
    checked_out = sa_engine.pool.checkedout()  # type: ignore[attr-defined]
    gate.go.set()
    writer.join(5)
    assert checked_out == 0, "waiting for its turn, it held a connection"
    (answer,) = answers
    assert isinstance(answer, RequestAnswer) and answer.rank == 2 and answer.ahead
    assert read_after == [True], "the turn is over before the reads after the commit"


def test_a_request_that_waited_may_be_refused_on_sight_and_else_goes_to_its_transaction(
    sa_engine: sa.Engine, venue: Venue
) -> None:
    """Refused on sight only after a turn that waited, and only when the slot is full:
    otherwise its own SERIALIZABLE transaction decides (the observer says which)."""
    outcomes: list[str] = []
    waited, not_waited = Gate(waited=True), Gate(waited=False)
    for gate in (waited, not_waited):
        gate.go.set()
    observed = {"observer": lambda outcome, _: outcomes.append(outcome)}
    after_a_wait = writes_through(sa_engine, waited, **observed)
    straight = writes_through(sa_engine, not_waited, **observed)

    first = after_a_wait.request(venue.id, request(room="hoo-a"), now=NOW)  # room: on
    second = straight.request(venue.id, request(room="hoo-a"), now=NOW)
    full = straight.request(venue.id, request(room="hoo-a"), now=NOW)  # full: no wait
    seen = after_a_wait.request(venue.id, request(room="hoo-a"), now=NOW)  # full, waited
    assert isinstance(first, RequestAnswer) and isinstance(second, RequestAnswer)
    for refused in (full, seen):
        assert isinstance(refused, Refused) and refused.code is Code.RANK_TOO_LOW
        assert first.hold.id in {h.id for h in refused.holders}, "worded after: who is in the way"
    assert outcomes == ["ok", "ok", "ok", "seen"]
