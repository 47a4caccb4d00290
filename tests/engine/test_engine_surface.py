"""The engine's edges: its typed errors, its one venue cache, and the path a request takes."""

from __future__ import annotations

import time
import traceback
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from core.db import create_engine
from core.engine import HoldEngine
from core.errors import DatabaseUnavailable, UnknownVenue
from core.model import Venue
from core.results import Code, Refused, RequestAnswer
from core.rules import calendar, lunisolar
from core.rules.rokuyo import rokuyo
from core.store import hold_writes, holds
from tests.support import factories
from tests.support.engines import EngineForTests
from tests.support.factories import NOW, SALES, request

NOWHERE = "no-such-venue"
# The most Python frames from ``Writes.request`` to the hold's INSERT, both counted: the
# request's phases are written in that one method, not handed on as callbacks.
REQUEST_FRAMES = 4


def test_reads_of_an_unknown_venue_raise_and_writes_answer_a_refusal(engine: HoldEngine) -> None:
    reads = [
        lambda: engine.holds(NOWHERE),
        lambda: engine.hold(NOWHERE, 1),
        lambda: engine.overview(NOWHERE, SALES, now=NOW),
        lambda: engine.preview(NOWHERE, request(), now=NOW),
        lambda: engine.confirm_plan(NOWHERE, 1, actor=SALES, now=NOW),
    ]
    for read in reads:
        with pytest.raises(UnknownVenue) as caught:
            read()
        assert caught.value.venue_id == NOWHERE
    writes: list[Any] = [
        engine.request(NOWHERE, request(), now=NOW),
        engine.confirm(NOWHERE, 1, actor=SALES, now=NOW),
        engine.sweep(NOWHERE, now=NOW),
        engine.queue_reminders(NOWHERE, now=NOW),
    ]
    for answer in writes:
        assert isinstance(answer, Refused) and answer.code is Code.UNKNOWN_VENUE, answer
        assert answer.detail == NOWHERE
    assert engine.venue(NOWHERE) is None


def test_the_venue_is_the_kept_copy_until_its_stored_revision_moves(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """One cache, one rule: a copy is handed out while the stored revision is its own, and a
    save by another process is seen by the very next read, not after a time to live."""
    spec = factories.venue()
    saved = engine.save_venue(spec, now=NOW)
    first = engine.venue(saved.id)
    assert first is not None and first is engine.venue(saved.id), "unchanged: not read again"
    other_process = EngineForTests(sa_engine, queue=False)
    renamed = other_process.save_venue(replace(spec, name="ホテル新館"), now=NOW)
    seen = engine.venue(saved.id)
    assert seen is not None and seen is not first
    assert (seen.name, seen.revision) == ("ホテル新館", renamed.revision)


def test_an_unreachable_database_is_a_typed_error_and_close_lets_go(db_url: str) -> None:
    nowhere = EngineForTests(create_engine("postgresql://postgres@127.0.0.1:1/none", pool_size=1))
    with pytest.raises(DatabaseUnavailable) as caught:
        nowhere.ping()
    assert "connection" in caught.value.reason.lower()
    with pytest.raises(DatabaseUnavailable):
        nowhere.venue_ids()
    pool = create_engine(db_url, pool_size=1)
    engine = EngineForTests(pool, queue=False)
    engine.ping()
    assert pool.pool.checkedin() == 1  # type: ignore[attr-defined]
    engine.close()
    assert pool.pool.checkedin() == 0  # type: ignore[attr-defined]
    engine.ping()  # asked again, it connects again
    engine.close()


def test_a_request_reaches_its_insert_in_few_frames(
    engine: HoldEngine, venue: Venue, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine's plumbing stays thin: admission, unit of work and venue in one pass."""
    stacks: list[list[traceback.FrameSummary]] = []
    insert = hold_writes.insert

    def recorded(*args: Any, **kwargs: Any) -> Any:
        stacks.append(traceback.extract_stack()[:-1])
        return insert(*args, **kwargs)

    monkeypatch.setattr(hold_writes, "insert", recorded)
    for key in (None, "view-1"):
        answer = engine.request(venue.id, request(), now=NOW, idempotency_key=key)
        assert isinstance(answer, RequestAnswer)
        venue = engine.save_venue(factories.venue(), now=NOW)  # an empty slot for the next
    for stack in stacks:
        entry = max(
            i
            for i, f in enumerate(stack)
            if f.name == "request" and Path(f.filename).parts[-2:] == ("roles", "writes.py")
        )
        path = [f"{Path(f.filename).name}:{f.name}" for f in stack[entry:]] + [
            "hold_writes.py:insert"
        ]
        assert len(path) <= REQUEST_FRAMES, path


def test_a_replayed_answer_warns_of_the_same_customer_as_the_first_did(
    engine: HoldEngine, venue: Venue
) -> None:
    """The twin of a submission that filled the line is refused on its first attempt and
    answered with the first's answer, rolled back: the answer's reads after the transaction
    (the same customer elsewhere) follow it as they follow a commit."""
    elsewhere = engine.request(venue.id, request(room="sakura", customer="山田様"), now=NOW)
    ahead = engine.request(venue.id, request(customer="佐藤様"), now=NOW)
    assert isinstance(elsewhere, RequestAnswer) and isinstance(ahead, RequestAnswer)
    twin = request(customer="山田様")
    first = engine.request(venue.id, twin, now=NOW, idempotency_key="V1")
    again = engine.request(venue.id, twin, now=NOW, idempotency_key="V1")
    assert isinstance(first, RequestAnswer) and isinstance(again, RequestAnswer)
    assert (first.rank, again.rank, again.replayed) == (2, 2, True)
    assert [h.id for w in first.warnings for h in w.holds] == [elsewhere.hold.id]
    assert again.warnings == first.warnings


def backend_pid(pool: sa.Engine) -> int:
    with pool.connect() as conn:
        pid: int = conn.execute(sa.text("SELECT pg_backend_pid()")).scalar_one()
    return pid


def terminate(db_url: str, pid: int) -> None:
    """The server closes that connection, as a restart or an idle timeout would."""
    other = create_engine(db_url, pool_size=1)
    with other.connect() as conn:
        conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    other.dispose()


def test_a_connection_the_server_closed_while_it_sat_idle_is_replaced_unseen(db_url: str) -> None:
    pool = create_engine(db_url, pool_size=1, idle_before_ping=0.05)
    engine = EngineForTests(pool, queue=False)
    gone = backend_pid(pool)
    terminate(db_url, gone)
    time.sleep(0.1)  # idle longer than the pool waits before it pings
    engine.ping()
    assert backend_pid(pool) != gone
    engine.close()


def test_a_connection_in_steady_use_is_not_pinged_so_its_loss_is_met_once(db_url: str) -> None:
    pool = create_engine(db_url, pool_size=1, idle_before_ping=60)
    engine = EngineForTests(pool, queue=False)
    gone = backend_pid(pool)
    terminate(db_url, gone)
    with pytest.raises(DatabaseUnavailable):
        engine.ping()  # used again at once: no ping, the loss is met by the statement
    engine.ping()  # and that connection is not handed out again
    assert backend_pid(pool) != gone
    engine.close()


def test_warming_reads_every_venue_and_the_calendars_of_the_years_it_can_book(
    sa_engine: sa.Engine, venue: Venue
) -> None:
    """What ``osae web`` does once built: the first request after a start reads none of it."""
    calendar._national.cache_clear()
    lunisolar._span.cache_clear()
    fresh = EngineForTests(sa_engine, queue=False)  # a new process: nothing kept yet
    assert fresh.kept_venue(venue.id) is None
    assert venue.id in fresh.warm(now=NOW)
    kept = fresh.kept_venue(venue.id)
    assert kept is not None
    assert kept.revision == venue.revision
    last = NOW.date() + timedelta(days=venue.policy.horizon_days)
    national, months = calendar._national.cache_info(), lunisolar._span.cache_info()
    assert national.currsize >= len(range(NOW.year, last.year + 1))  # jp_holidays, each year
    # A weekday near the first and the last bookable day (a weekend looks up no holidays):
    # nothing left to read
    for day in (_weekday(NOW.date(), 1), _weekday(last, -1)):
        calendar.is_priority_day(day, venue.policy.priority_days)
        rokuyo(day)
    assert calendar._national.cache_info().misses == national.misses
    assert lunisolar._span.cache_info().misses == months.misses


def _weekday(day: date, step: int) -> date:
    while day.weekday() >= 5:
        day += timedelta(days=step)
    return day


def test_a_full_lines_refusal_names_the_holds_in_its_way_as_they_stand_after_its_rollback(
    engine: HoldEngine, venue: Venue, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request's transaction decides from its bump and rolls back; the holds it names
    are read after, outside its turn, and one that left in between is not named."""
    first = engine.request(venue.id, request(customer="山田様"), now=NOW)
    second = engine.request(venue.id, request(customer="佐藤様", salesperson="U0SECOND"), now=NOW)
    assert isinstance(first, RequestAnswer) and isinstance(second, RequestAnswer)
    levels: list[str] = []
    get_many = holds.get_many

    def read_after_a_release(conn: sa.Connection, *args: Any, **kwargs: Any) -> Any:
        levels.append(conn.get_isolation_level())
        # the 2nd leaves between the decision and its wording (not while the request's
        # transaction, which has bumped the rows a release bumps, is still open)
        if len(levels) == 1 and levels[0] != "SERIALIZABLE":
            left = engine.release(venue.id, second.hold.id, actor="U0SECOND", now=NOW)
            assert not isinstance(left, Refused)
        return get_many(conn, *args, **kwargs)

    monkeypatch.setattr(holds, "get_many", read_after_a_release)
    refused = engine.request(venue.id, request(customer="鈴木様", salesperson="U0THIRD"), now=NOW)
    assert isinstance(refused, Refused)
    assert refused.code is Code.RANK_TOO_LOW
    assert levels[0] != "SERIALIZABLE"  # read after the request's transaction, not in it
    assert [h.id for h in refused.holders] == [first.hold.id]
    assert [w.hold.id for w in refused.in_way] == [first.hold.id]


def test_a_refusal_leaves_its_connection_the_statements_it_had_prepared(db_url: str) -> None:
    """psycopg forgets a connection's prepared statements on ``rollback()``; a refusal rolls
    back having dropped nothing, so its connection keeps them (no DEALLOCATE ALL, no parse
    and plan again for the requests that follow on it)."""
    db = create_engine(db_url, pool_size=1)
    engine = EngineForTests(db, queue=False)
    venue = engine.save_venue(factories.venue(), now=NOW)
    prepared = sa.text("SELECT pg_backend_pid(), count(*) FROM pg_prepared_statements")

    def statements() -> sa.Row[Any]:
        # in autocommit: a transaction of this read would end with its own rollback()
        with db.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            return conn.execute(prepared).one()

    try:
        for day in range(8):  # psycopg prepares a statement on its fifth run
            engine.request(venue.id, request(day=factories.DAY + timedelta(days=day)), now=NOW)
        before = statements()
        assert before[1] >= 2, before  # the bump and the insert at least
        for salesperson in ("U0SECOND", "U0THIRD"):  # a 2nd, then a refusal
            engine.request(venue.id, request(salesperson=salesperson), now=NOW)
        after = statements()
        assert after[0] == before[0], "not the same connection"
        assert after[1] >= before[1], (before, after)
    finally:
        db.dispose()
