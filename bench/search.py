"""Finding a slot at scale: a search of 92 days × every room × 3 slots with 1,000,000 holds
in the table.

    python3 dev.py bench search [--holds 1000000] [--samples 200]

The holds are written set-based (``tests.support.bulk``), 20,000 to a venue of 11 rooms
with capacities and three slots. The searched venue has confirmed holds, 1st holds with 2nd
holds behind some, rooms left free, and released rows. Prints p50/p95 of ``engine.search``
(the whole call: the one statement and deciding each place) and of the statement alone, and
the statement's plan; then deciding alone (checking each date and times, deciding each place
on the rows read), the lean path the engine takes beside the whole-rule reference, on the
same rows in the same run (the machine may be shared: compare within a run). Target: p95
under 50 ms.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace
from datetime import date, timedelta

import sqlalchemy as sa

from bench.common import bench_database, latency_line, percentile
from core.engine import HoldEngine
from core.model import Room, Slot, Venue
from core.results import Availability, Outcome
from core.rules import search as rules
from core.rules.search import Search
from core.rules.spans import MAX_SPAN, local_instant
from core.store import availability
from tests.support import bulk, factories
from tests.support.factories import NOW

FIRST_DAY = date(2027, 4, 1)  # after every instant the bench acts at
ROOMS = 10
PER_VENUE = 20_000
DAYS = 92
SLOTS = tuple(
    Slot(name, start, end) for name, (start, end) in zip("朝昼夜", bulk.SLOTS, strict=True)
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--holds", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    with bench_database() as (db, _):
        engine = HoldEngine(db)
        started = time.perf_counter()
        measured = populate(db, engine, args.holds)
        with db.connect() as conn:
            conn.execution_options(isolation_level="AUTOCOMMIT").execute(sa.text("VACUUM ANALYZE"))
            total = conn.execute(sa.text("SELECT count(*) FROM holds")).scalar_one()
            spans = conn.execute(sa.text("SELECT count(*) FROM hold_spans")).scalar_one()
        print(
            f"filled {total:,} holds ({spans:,} live span rows) in "
            f"{time.perf_counter() - started:.0f} s"
        )
        searches(engine, measured, args.samples)
        statement(db, measured, args.samples)
        deciding(db, measured, args.samples)


def venue_spec(name: str) -> Venue:
    """Ten single-part rooms seating 40 to 130, a ballroom over three of them, three slots."""
    rooms = {
        f"r{i:02d}": Room(
            f"r{i:02d}", f"Room {i}", frozenset({f"p{i:02d}"}), 60, i, capacity=40 + 10 * i
        )
        for i in range(ROOMS)
    }
    rooms["whole"] = Room(
        "whole", "Ballroom", frozenset({"p00", "p01", "p02"}), 60, 99, capacity=300
    )
    return replace(factories.venue(), id=name, rooms=rooms, slots=SLOTS)


def populate(db: sa.Engine, engine: HoldEngine, total: int) -> Venue:
    """Venues of 20,000 holds each; the first is the one searched."""
    venues = max(1, total // PER_VENUE)
    rooms = [f"r{i:02d}" for i in range(ROOMS)]
    later = NOW + timedelta(days=7)
    measured = None
    for n in range(venues):
        venue = engine.save_venue(venue_spec(f"search-{n:03d}"), now=NOW)
        with db.begin() as conn:
            # confirmed on five rooms, 1st holds on three with a 2nd behind a third of them,
            # two rooms free; released rows to make up the 20,000
            for count, chosen, status, rank in (
                (5_000, rooms[:5], "confirmed", 1),
                (3_000, rooms[5:8], "tentative", 1),
                (1_000, rooms[5:8], "tentative", 2),
                (PER_VENUE - 9_000, rooms, "released", 1),
            ):
                bulk.fill(
                    conn, venue, count, first_day=FIRST_DAY, now=NOW, expires=later,
                    rooms=chosen, status=status, rank=rank,
                )  # fmt: skip
        measured = measured or venue
    assert measured is not None
    return measured


def queries(samples: int) -> list[Search]:
    rng = random.Random(1)
    firsts = [FIRST_DAY + timedelta(days=rng.randrange(240)) for _ in range(samples)]
    return [Search(first, first + timedelta(days=DAYS - 1)) for first in firsts]


def searches(engine: HoldEngine, venue: Venue, samples: int) -> None:
    engine.venue(venue.id)  # cached, as in a serving process
    latencies = []
    outcomes: dict[Outcome, int] = {}
    for query in queries(samples):
        started = time.perf_counter()
        answer = engine.search(venue.id, query, now=NOW)
        latencies.append(time.perf_counter() - started)
        assert isinstance(answer, Availability) and answer.looked == DAYS * len(venue.rooms) * 3
        for found in answer.found:
            outcomes[found.outcome] = outcomes.get(found.outcome, 0) + 1
    places = DAYS * len(venue.rooms) * 3
    print(f"\nsearch of {DAYS} days × {len(venue.rooms)} rooms × 3 slots ({places:,} places)")
    print("  " + latency_line("engine.search (whole call)", latencies))
    print("  outcomes: " + ", ".join(f"{o.value} {n:,}" for o, n in sorted(outcomes.items())))


def statement(db: sa.Engine, venue: Venue, samples: int) -> None:
    """The one statement alone, and its plan."""
    parts = sorted({p for room in venue.rooms.values() for p in room.parts})
    tz = venue.tz
    latencies = []
    ranges = [(q.first, q.last + timedelta(days=1)) for q in queries(samples)]
    with db.connect() as raw:
        conn = raw.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        for first, last in ranges:
            lo, hi = local_instant(first, 0, tz), local_instant(last, 0, tz)
            with conn.begin():
                started = time.perf_counter()
                availability.live_between(conn, venue, parts, lo, hi)
                latencies.append(time.perf_counter() - started)
        first, last = ranges[0]
        plan = (
            conn.execute(
                sa.text("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + availability._SPANS.text),
                {
                    "venue": venue.id,
                    "parts": parts,
                    "lo": local_instant(first, 0, tz),
                    "hi": local_instant(last, 0, tz),
                    "max_span": MAX_SPAN,
                },
            )
            .scalars()
            .all()
        )
        conn.rollback()
    print("  " + latency_line("its one statement", latencies))
    print("  plan:\n    " + "\n    ".join(plan))


def deciding(db: sa.Engine, venue: Venue, samples: int) -> None:
    """Checking and deciding every place of each search on rows read once: the lean path
    and the reference (the whole request check and rule at each place), which must agree."""
    today = NOW.astimezone(venue.tz).date()
    lean: list[float] = []
    reference: list[float] = []
    with db.connect() as raw:
        conn = raw.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        for query in queries(samples):
            looked = rules.places(query, venue, today)
            rooms = {place.room.id: place.room for place in looked}.values()
            asked = rules.check_all(looked, venue, query.kind, NOW)
            reach = rules.reach(asked, rooms)
            assert reach is not None
            parts = {part for room in rooms for part in room.parts}
            with conn.begin():
                ledger, deadlines = availability.live_between(conn, venue, parts, *reach)
            started = time.perf_counter()
            asked = rules.check_all(looked, venue, query.kind, NOW)
            got = rules.decide_all(looked, asked, ledger, deadlines, venue)
            lean.append(time.perf_counter() - started)
            started = time.perf_counter()
            asked = rules.check_all_reference(looked, venue, query.kind, NOW)
            want = rules.decide_all_reference(looked, asked, ledger, deadlines, venue)
            reference.append(time.perf_counter() - started)
            assert got == want
    print("  " + latency_line("deciding, lean (what search runs)", lean))
    print("  " + latency_line("deciding, whole-rule reference", reference))
    print(f"  lean / reference at p50: {percentile(lean, 50) / percentile(reference, 50):.2f}")


if __name__ == "__main__":
    main()
