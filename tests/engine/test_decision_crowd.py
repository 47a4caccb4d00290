"""A crowd of decisions on unrelated holds: none may abort another into "busy".

Requests for unrelated slots never abort each other; decisions (confirm, release, extend,
cancel, edit) on unrelated holds must not either. Each run: 40 dates, each with a 1st and a
2nd hold (a confirmed booking for the cancels), and 8 clients at once, each on its own
connection, making 5 decisions in a row. 10 runs; not one may answer busy. Decisions run at
SERIALIZABLE aborted each other here (PostgreSQL: "identification as a pivot"), 50 to 90
retried attempts a run and now and then a busy answer (docs/concurrency.md, Decisions
under a crowd).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
import sqlalchemy as sa

from core.db import create_engine
from core.engine import HoldEngine
from core.model import Hold, HoldEdit, Venue
from core.results import Code, Refused, RequestAnswer
from tests.support import factories, invariants
from tests.support.engines import EngineForTests
from tests.support.factories import DAY, MANAGER, NOW, SALES, request

RUNS = 10
DATES = 40
CLIENTS = 8
KINDS = ("release", "confirm", "extend", "cancel", "edit")

pytestmark = pytest.mark.slow


@pytest.fixture
def crowd(fresh_db: str) -> Iterator[tuple[HoldEngine, sa.Engine, list[str]]]:
    """An engine that reports PostgreSQL's reason for every attempt it starts again."""
    db = create_engine(fresh_db, pool_size=CLIENTS + 2)
    retried: list[str] = []
    yield EngineForTests(db, queue=False, retried=lambda _, why: retried.append(why)), db, retried
    db.dispose()


def _truncate(db: sa.Engine) -> None:
    """Every run on empty tables: few pages, where unrelated rows share the most."""
    with db.begin() as conn:
        conn.execute(
            sa.text(
                "TRUNCATE venues, parts, rooms, room_parts, enquiries, holds, hold_items,"
                " hold_spans, part_days, outbox, audit_events, idempotency_records CASCADE"
            )
        )


def _first_and_second(engine: HoldEngine, venue: Venue, n: int) -> Hold:
    """Date ``n`` gets a 1st and a 2nd for the same slot; the 1st is answered."""
    day = DAY + timedelta(days=7 * n)
    first = engine.request(venue.id, request(day=day), now=NOW)
    second = engine.request(venue.id, request(day=day), now=NOW)
    assert isinstance(first, RequestAnswer) and first.rank == 1, first
    assert isinstance(second, RequestAnswer) and second.rank == 2, second
    return first.hold


def _decision(engine: HoldEngine, venue: Venue, kind: str, hold: Hold) -> Callable[[], object]:
    at = NOW + timedelta(minutes=1)
    if kind == "release":
        return lambda: engine.release(venue.id, hold.id, actor=SALES, now=at)
    if kind == "confirm":
        return lambda: engine.confirm(venue.id, hold.id, actor=SALES, now=at)
    if kind == "extend":
        return lambda: engine.extend(venue.id, hold.id, actor=SALES, now=at)
    if kind == "cancel":
        booked = engine.confirm(venue.id, hold.id, actor=SALES, now=NOW)
        assert not isinstance(booked, Refused), booked
        return lambda: engine.cancel(venue.id, hold.id, actor=MANAGER, now=at, reason="中止")
    shrink = HoldEdit(hold.id, hold.version, SALES, start_min=12 * 60)  # 11:00 -> 12:00
    return lambda: engine.edit(venue.id, shrink, now=at)


def _crowd(calls: list[Callable[[], object]]) -> list[object]:
    """``CLIENTS`` threads released together, each making its share of the calls in turn."""
    barrier = threading.Barrier(CLIENTS)
    shares = [calls[i::CLIENTS] for i in range(CLIENTS)]

    def client(share: list[Callable[[], object]]) -> list[object]:
        barrier.wait()
        return [call() for call in share]

    with ThreadPoolExecutor(CLIENTS) as pool:
        return [a for f in [pool.submit(client, s) for s in shares] for a in f.result()]


def test_forty_decisions_on_unrelated_holds_from_eight_clients_never_answer_busy(
    crowd: tuple[HoldEngine, sa.Engine, list[str]],
) -> None:
    engine, db, retried = crowd
    busy: list[int] = []
    reasons: Counter[str] = Counter()
    for _ in range(RUNS):
        _truncate(db)
        venue = engine.save_venue(factories.venue(), now=NOW)
        holds = [_first_and_second(engine, venue, n) for n in range(DATES)]
        calls = [_decision(engine, venue, KINDS[n % len(KINDS)], h) for n, h in enumerate(holds)]
        retried.clear()
        answers = _crowd(calls)
        reasons.update(retried)
        codes = Counter(a.code for a in answers if isinstance(a, Refused))
        busy.append(codes[Code.BUSY])
        assert set(codes) <= {Code.BUSY}, codes
        invariants.check(db, venue)
    assert busy == [0] * RUNS, f"busy answers per run of {DATES}: {busy}; retried: {reasons}"
    # Unrelated holds share no row: not one attempt had to start again.
    assert not reasons, reasons
