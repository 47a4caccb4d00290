"""The engine at scale: 1,000,000 holds in the table.

    python3 dev.py bench scale [--holds 1000000] [--due 10000]

Times the conflict check (the index-only span read a request makes) and shows its plan, a
whole request, and a sweep of ``--due`` 1st holds whose deadline has passed, some with a 2nd
waiting behind them. Targets: conflict check p95 under 2 ms; sweep of 10,000 under 5 s.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace
from datetime import date, timedelta

import sqlalchemy as sa

from bench.common import bench_database, latency_line, settle
from core.engine import HoldEngine
from core.model import Room, Venue
from core.results import Refused, Swept
from core.rules.requests import check_request
from core.store import holds
from jobs import sweeping
from tests.support import bulk, factories
from tests.support.factories import NOW

FIRST_DAY = date(2027, 4, 1)  # after every instant the bench acts at
ROOMS_PER_VENUE = 10
PER_VENUE = 20_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--holds", type=int, default=1_000_000)
    parser.add_argument("--due", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    with bench_database() as (db, _):
        engine = HoldEngine(db)
        started = time.perf_counter()
        busy = populate(db, engine, args.holds)
        due_venue = populate_due(db, engine, args.due)
        settle(db, vacuum=True)
        with db.connect() as conn:
            total = conn.execute(sa.text("SELECT count(*) FROM holds")).scalar_one()
            spans = conn.execute(sa.text("SELECT count(*) FROM hold_spans")).scalar_one()
        print(
            f"filled {total:,} holds ({spans:,} live span rows) in "
            f"{time.perf_counter() - started:.0f} s"
        )
        conflict_check(db, busy, args.samples, total)
        requests(engine, busy, args.samples // 4, total)
        sweep(engine, due_venue, args.due)


def big_venue(name: str) -> Venue:
    rooms = {
        f"r{i:02d}": Room(f"r{i:02d}", f"Room {i}", frozenset({f"p{i:02d}"}), 60, i)
        for i in range(ROOMS_PER_VENUE)
    }
    rooms["whole"] = Room("whole", "Ballroom", frozenset({"p00", "p01", "p02"}), 60, 99)
    return replace(factories.venue(), id=name, rooms=rooms)


def populate(db: sa.Engine, engine: HoldEngine, total: int) -> Venue:
    """Half live (confirmed), half released, across venues of 20,000 holds each."""
    venues = max(1, total // PER_VENUE)
    measured = None
    for n in range(venues):
        venue = engine.venues.save_venue(big_venue(f"scale-{n:03d}"), now=NOW)
        rooms = [f"r{i:02d}" for i in range(ROOMS_PER_VENUE)]
        with db.begin() as conn:
            for status in ("confirmed", "released"):
                bulk.fill(
                    conn,
                    venue,
                    PER_VENUE // 2,
                    first_day=FIRST_DAY,
                    now=NOW,
                    expires=NOW,
                    rooms=rooms,
                    status=status,
                )
        measured = measured or venue
    assert measured is not None
    return measured


def populate_due(db: sa.Engine, engine: HoldEngine, due: int) -> Venue:
    """``due`` 1st holds past their deadline; a 2nd waits behind every fifth of them."""
    venue = engine.venues.save_venue(big_venue("scale-due"), now=NOW)
    rooms = [f"r{i:02d}" for i in range(ROOMS_PER_VENUE)]
    with db.begin() as conn:
        bulk.fill(
            conn,
            venue,
            due,
            first_day=FIRST_DAY,
            now=NOW,
            expires=NOW + timedelta(days=3),
            rooms=rooms,
        )
        bulk.fill(
            conn,
            venue,
            due // 5,
            first_day=FIRST_DAY,
            now=NOW,
            expires=NOW,
            rooms=rooms,
            rank=2,
            salesperson="U0WAITING1",
        )
    return venue


def conflict_check(db: sa.Engine, venue: Venue, samples: int, total: int) -> None:
    rng = random.Random(1)
    days = (PER_VENUE // 2) // (ROOMS_PER_VENUE * 3)
    checks = []
    for _ in range(samples):
        room = rng.choice([*venue.rooms])
        req = factories.request(room=room, day=FIRST_DAY + timedelta(days=rng.randrange(days)))
        checked = check_request(req, venue, NOW)
        assert not isinstance(checked, Refused)
        checks.append(checked.span)
    latencies = []
    with db.connect() as raw:
        conn = raw.execution_options(isolation_level="SERIALIZABLE")
        for span in checks:
            with conn.begin():
                started = time.perf_counter()
                found = holds.occupants(conn, venue, [span])
                latencies.append(time.perf_counter() - started)
                assert found, "every sampled slot is taken in the filled venue"
        explain_sql = holds._OCCUPANTS.text  # the statement a request runs
        probe = checks[0]
        plan = (
            conn.execute(
                sa.text("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + explain_sql),
                {
                    "venue": venue.id,
                    "parts": sorted(probe.parts),
                    "starts": [probe.start] * len(probe.parts),
                    "ends": [probe.end] * len(probe.parts),
                    "max_span": "48 hours",
                },
            )
            .scalars()
            .all()
        )
        conn.rollback()
    print(
        f"\nconflict check at {total:,} holds (the span read of a request, in a SERIALIZABLE txn)"
    )
    print("  " + latency_line("occupants of a random slot", latencies))
    print(
        "  plan: "
        + "\n        ".join(line for line in plan if "Scan" in line or "Execution" in line)
    )


def requests(engine: HoldEngine, venue: Venue, count: int, total: int) -> None:
    rng = random.Random(2)
    latencies = []
    for _ in range(count):
        room = rng.choice([f"r{i:02d}" for i in range(ROOMS_PER_VENUE)])
        day = FIRST_DAY + timedelta(days=rng.randrange(700))
        req = replace(
            factories.request(room=room, day=day), start_min=21 * 60 + 30, end_min=23 * 60
        )
        started = time.perf_counter()
        engine.writes.request(venue.id, req, now=NOW)
        latencies.append(time.perf_counter() - started)
    print(f"\nrequest at {total:,} holds (late-evening slots, free or 2nd)")
    print("  " + latency_line("engine.writes.request", latencies))


def sweep(engine: HoldEngine, venue: Venue, due: int) -> None:
    at = NOW + timedelta(days=3)
    started = time.perf_counter()
    swept = sweeping.sweep(engine.writes, venue.id, now=at)
    seconds = time.perf_counter() - started
    assert isinstance(swept, Swept)
    print(f"\nsweep of {due:,} due 1st holds ({due // 5:,} with a 2nd waiting)")
    print(
        f"  expired {len(swept.expired):,}, promoted {len(swept.promoted):,} in {seconds:.2f} s "
        f"({len(swept.expired) / seconds:,.0f} holds/s)"
    )


if __name__ == "__main__":
    main()
