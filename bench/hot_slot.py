"""Hot slot and throughput: the engine beside a READ COMMITTED + FOR UPDATE baseline and a bare
INSERT + COMMIT floor, in one process on one database, printed as one table.

    python3 dev.py bench hot_slot [--trials 50] [--contenders 8] [--requests 1000] [--rounds 4]

Part 1 reproduces the seed's table: the outcome of N concurrent requests for one room and
time, over many trials (a naive READ COMMITTED variant shows what the race does). Part 2 runs
each mix (the hot slot, a low-contention mix on 1 venue, on 4 venues) for every variant,
alternating in rounds, each round starting from the next variant and on fresh planner
statistics (``in_turn``, ``bench.common.settle``), and prints requests/s, p50/p95/p99, attempts per
request and two ratios: to the FOR UPDATE baseline (the same work as the engine's request
with pessimistic locking, see ``bench.variants``; "bare lock" is that locking without the
work around the decision) and to the floor (a single-row INSERT and COMMIT from the same
client threads through the same pool: what the machine and the client can do at all). The
pessimistic variants have a pool of their own whose sessions keep no spans on the ledger
rows (``bench.variants``). Then why the engine's retried attempts were started again
(SQLSTATE and PostgreSQL's reason).

The decisions mix: bursts of confirm / release / extend, each burst 40 decisions on 40
unrelated holds of a fresh venue (each date a 1st and a 2nd, made before the clock starts)
from the client threads at once: the engine (REPEATABLE READ, row conflicts), the same
operations at SERIALIZABLE (as before issue 26), the FOR UPDATE design
(``bench.variants.for_update_decision``) and the floor; then the busy answers and why the
serializable decisions were started again.
"""

from __future__ import annotations

import argparse
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from functools import partial

import sqlalchemy as sa

from bench.common import bench_database, machine_line, mean, percentile, settle
from bench.variants import (
    DECISIONS,
    bare_for_update,
    for_update_baseline,
    for_update_decision,
    naive_read_committed,
    pessimistic_engine,
)
from core.admission import Admission
from core.engine import HoldEngine
from core.errors import Busy
from core.model import HoldRequest, Venue
from core.results import Code, Refused, RequestAnswer
from core.rules.requests import Ranked
from core.runner import Runner
from core.uow import SERIALIZABLE, UnitOfWork
from core.venue_cache import VenueCache
from tests.support import factories
from tests.support.factories import DAY, NOW, SALES

Take = Callable[[Venue, HoldRequest], object]
ENGINE, BASELINE, BARE, FLOOR = "engine", "FOR UPDATE", "bare lock", "floor"
SERIAL = "serializable"  # the decisions at SERIALIZABLE, as before issue 26
DECIDED = 40  # decisions in one burst, on as many unrelated holds
Decide = Callable[[Venue, str, int], object]
ROOMS = ("hoo", "hoo-a", "hoo-b", "sakura", "chapel")


@dataclass
class Measured:
    """One variant on one mix, over its rounds."""

    seconds: float = 0.0
    requests: int = 0
    latencies: list[float] = field(default_factory=list)
    attempts: list[int] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--contenders", type=int, default=8)
    parser.add_argument("--requests", type=int, default=1000, help="per round and variant")
    parser.add_argument("--threads", type=int, default=8)
    # Short rounds, many: this machine's speed drifts within seconds, and a variant's
    # segments spread over the run meet the same drift as the others'.
    parser.add_argument("--rounds", type=int, default=4, help="alternating rounds of each mix")
    parser.add_argument(
        "--writers", type=int, default=0, help="engine's venue cap of writers (0: no cap)"
    )
    parser.add_argument(
        "--no-queue", action="store_true", help="engine without admission (straight to the db)"
    )
    parser.add_argument(
        "--venues", type=int, default=4, help="venues the multi-venue mix spreads over"
    )
    parser.add_argument("--bursts", type=int, default=10, help="bursts of decisions per variant")
    args = parser.parse_args()
    pool = max(args.contenders, args.threads) + 4
    with bench_database(pool_size=pool) as (db, url):
        plain = pessimistic_engine(url, pool)
        try:
            measure(args, db, plain)
        finally:
            plain.dispose()


def measure(args: argparse.Namespace, db: sa.Engine, plain: sa.Engine) -> None:
    """Every part of the bench on one database: the engine on ``db``, the pessimistic
    variants on ``plain`` (their own pool, triggers off)."""
    attempts: list[int] = []
    causes: Counter[tuple[str, str]] = Counter()
    ended: Counter[str] = Counter()  # how each engine request ended: ok, seen, busy, error

    def observed(outcome: str, n: int) -> None:
        attempts.append(n)
        ended[outcome] += 1

    engine = HoldEngine(
        db,
        observer=observed,
        retried=lambda state, reason: causes.update([(state, reason)]),
        writers=args.writers or None,
        queue=not args.no_queue,
    )
    admission = "none" if args.no_queue else "part-day keys"
    print(f"engine admission: {admission}; venue cap: {args.writers or 'none'}")
    print(machine_line())
    _create_floor_table(db)
    variants: dict[str, Take] = {
        ENGINE: lambda v, r: engine.writes.request(v.id, r, now=NOW),
        BASELINE: lambda v, r: for_update_baseline(plain, v, r, NOW),
        BARE: lambda v, r: bare_for_update(plain, v, r, NOW),
        FLOOR: lambda v, r: _floor(db, r),
    }
    outcomes(engine, db, args.trials, args.contenders)
    table: dict[str, dict[str, Measured]] = {}
    causes.clear()
    ended.clear()
    table["hot slot"] = hot_mix(engine, db, variants, attempts, args.trials, args.contenders)
    for venues in (1, args.venues):
        name = f"{venues} venue{'s' if venues > 1 else ''}"
        table[name] = low_contention(
            engine, db, variants, attempts, args.requests, args.threads, venues, args.rounds
        )
    serial: Counter[tuple[str, str]] = Counter()
    table["decisions"] = decisions_mix(engine, db, plain, attempts, args, serial)
    print_table(table, args)
    requests = sum(len(m[ENGINE].attempts) for m in table.values())
    print_causes(causes, requests)
    print_causes(serial, args.bursts * DECIDED, who="serializable decisions", what="decisions")
    # core.uow: a request that waited for another's turn on its part-days and was refused on
    # what that turn wrote, with no transaction of its own
    print(f"engine requests refused on sight: {ended['seen']} in {requests}")


def outcomes(engine: HoldEngine, db: sa.Engine, trials: int, contenders: int) -> None:
    """The seed's table: what N concurrent requests for one slot get, per variant."""
    print(f"\nhot slot: {contenders} concurrent requests for one room and time, {trials} trials")
    writes = engine.writes
    variants: dict[str, Take] = {
        "engine (SERIALIZABLE + part-day bump)": lambda v, r: writes.request(v.id, r, now=NOW),
        "naive READ COMMITTED": lambda v, r: naive_read_committed(db, v, r, NOW),
        "READ COMMITTED + FOR UPDATE": lambda v, r: for_update_baseline(db, v, r, NOW),
    }
    for name, take in variants.items():
        table: Counter[tuple[int, tuple[int, ...]]] = Counter()
        for _ in range(trials):
            venue = engine.venues.save_venue(factories.venue(), now=NOW)
            answers = race(lambda v=venue, t=take: timed(t, v, factories.request()), contenders)
            ranks = tuple(sorted(a.rank for a, _ in answers if _accepted(a)))
            table[(len(ranks), ranks)] += 1
        print(f"  {name}")
        for (accepted, ranks), count in table.most_common():
            ranks_text = ",".join(map(str, ranks)) or "-"
            print(
                f"    {count:4d} trials  accepted {accepted} (ranks {ranks_text}), "
                f"refused {contenders - accepted}"
            )


def hot_mix(
    engine: HoldEngine,
    db: sa.Engine,
    variants: dict[str, Take],
    attempts: list[int],
    trials: int,
    n: int,
) -> dict[str, Measured]:
    """Each trial: ``n`` requests for one slot of a fresh venue at once; variants alternate."""
    measured = {name: Measured() for name in variants}
    settle(db)
    for trial in range(trials):
        for name, take in in_turn(variants, trial):
            venue = engine.venues.save_venue(factories.venue(), now=NOW)
            attempts.clear()
            started = time.perf_counter()
            answers = race(lambda v=venue, t=take: timed(t, v, factories.request()), n)
            m = measured[name]
            m.seconds += time.perf_counter() - started
            m.requests += n
            m.latencies += [seconds for _, seconds in answers]
            if name == ENGINE:
                m.attempts += attempts
    return measured


def low_contention(
    engine: HoldEngine,
    db: sa.Engine,
    variants: dict[str, Take],
    attempts: list[int],
    requests: int,
    threads: int,
    venues: int,
    rounds: int,
) -> dict[str, Measured]:
    """Random rooms, days and times of ``venues`` venues (5 rooms x 300 days x 6 starts)."""
    measured = {name: Measured() for name in variants}
    for turn in range(rounds):
        for name, take in in_turn(variants, turn):
            places = [engine.venues.save_venue(factories.venue(), now=NOW) for _ in range(venues)]
            # Measured without it: the variant that ran first read the holds in an answer's
            # way 2 to 3 times slower than the one after it, whichever variant it was.
            settle(db)
            attempts.clear()
            seconds, latencies = mix(take, places, requests, threads)
            m = measured[name]
            m.seconds += seconds
            m.requests += requests
            m.latencies += latencies
            if name == ENGINE:
                m.attempts += attempts
    return measured


def decisions_mix(
    engine: HoldEngine,
    db: sa.Engine,
    plain: sa.Engine,
    attempts: list[int],
    args: argparse.Namespace,
    causes: Counter[tuple[str, str]],
) -> dict[str, Measured]:
    """Bursts of ``DECIDED`` confirm / release / extend on unrelated holds, variants in turn."""
    serial_attempts: list[int] = []
    uow = UnitOfWork(
        db,
        observer=lambda _, n: serial_attempts.append(n),
        retried=lambda state, reason: causes.update([(state, reason)]),
    )
    runner = Runner(uow, Admission(None, queue=False), VenueCache())
    later = NOW + timedelta(minutes=1)
    variants: dict[str, Decide] = {
        ENGINE: lambda v, kind, i: getattr(engine.writes, kind)(v.id, i, actor=SALES, now=later),
        SERIAL: partial(_serializable, runner, now=later),
        BASELINE: lambda v, kind, i: for_update_decision(plain, v, kind, i, SALES, later),
        FLOOR: lambda v, kind, i: _floor_row(db, f"{kind} {i}"),
    }
    kept = {ENGINE: attempts, SERIAL: serial_attempts}
    measured = {name: Measured() for name in variants}
    busy: Counter[str] = Counter()
    for burst in range(args.bursts):
        for name, decide in in_turn(variants, burst):  # type: ignore[arg-type]
            venue, firsts = _unrelated_firsts(engine)
            settle(db)
            kept.get(name, []).clear()
            calls = [
                partial(decide, venue, list(DECISIONS)[n % 3], h) for n, h in enumerate(firsts)
            ]
            seconds, answers = _burst(calls, args.threads)
            m = measured[name]
            m.seconds += seconds
            m.requests += len(calls)
            m.latencies += [t for _, t in answers]
            m.attempts += kept.get(name, [])
            busy[name] += sum(isinstance(a, Refused) and a.code is Code.BUSY for a, _ in answers)
    print(f"\ndecisions answered busy: {dict(busy)} in {args.bursts * DECIDED} each")
    return measured


def _serializable(
    runner: Runner, venue: Venue, kind: str, hold_id: int, *, now: datetime
) -> object:
    operation = partial(DECISIONS[kind], hold_id=hold_id, actor=SALES)
    try:
        return runner.write(venue.id, now, operation, isolation=SERIALIZABLE)
    except Busy:
        return Refused(Code.BUSY)


def _unrelated_firsts(engine: HoldEngine) -> tuple[Venue, list[int]]:
    """A fresh venue with ``DECIDED`` dates, each a 1st and a 2nd: the 1sts' ids."""
    venue = engine.venues.save_venue(factories.venue(), now=NOW)
    firsts = []
    for n in range(DECIDED):
        day = DAY + timedelta(days=7 * n)
        first = engine.writes.request(venue.id, factories.request(day=day), now=NOW)
        engine.writes.request(venue.id, factories.request(day=day), now=NOW)
        assert isinstance(first, RequestAnswer)
        firsts.append(first.hold.id)
    return venue, firsts


def _burst(
    calls: list[Callable[[], object]], threads: int
) -> tuple[float, list[tuple[object, float]]]:
    """``threads`` clients released together, each making its share of ``calls`` in turn."""
    barrier = threading.Barrier(threads + 1)

    def client(share: list[Callable[[], object]]) -> list[tuple[object, float]]:
        barrier.wait()
        done = []
        for call in share:
            started = time.perf_counter()
            done.append((call(), time.perf_counter() - started))
        return done

    with ThreadPoolExecutor(threads) as pool:
        futures = [pool.submit(client, calls[i::threads]) for i in range(threads)]
        barrier.wait()
        started = time.perf_counter()
        answers = [a for f in futures for a in f.result()]
    return time.perf_counter() - started, answers


def in_turn(variants: dict[str, Take], turn: int) -> list[tuple[str, Take]]:
    """The variants, from the ``turn``-th on: no variant always runs first, after another's
    writes (or, in the first round, on tables the bench has just filled)."""
    order = list(variants.items())
    start = turn % len(order)
    return order[start:] + order[:start]


def print_table(table: dict[str, dict[str, Measured]], args: argparse.Namespace) -> None:
    print(
        f"\nthroughput: hot slot = {args.trials} trials x {args.contenders} at once; "
        f"mixes = {args.requests} requests x {args.rounds} rounds from {args.threads} threads"
    )
    head = (
        f"{'mix':<10} {'variant':<12} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
        f"{'attempts':>9} {'x FOR UPDATE':>13} {'x floor':>8}"
    )
    print(head)
    print("-" * len(head))
    for mix_name, rows in table.items():
        base, floor = rows[BASELINE].rate, rows[FLOOR].rate
        for name, m in rows.items():
            ms = [s * 1000 for s in m.latencies]
            tries = f"{mean(m.attempts):.3f}" if m.attempts else "1"
            print(
                f"{mix_name:<10} {name:<12} {m.rate:8.1f} {percentile(ms, 50):8.2f} "
                f"{percentile(ms, 95):8.2f} {percentile(ms, 99):8.2f} {tries:>9} "
                f"{m.rate / base:13.2f} {m.rate / floor:8.3f}"
            )


def print_causes(
    causes: Counter[tuple[str, str]], requests: int, who: str = "engine", what: str = "requests"
) -> None:
    total = sum(causes.values())
    print(f"\n{who} attempts started again: {total} in {requests} {what}")
    merged: Counter[tuple[str, str]] = Counter()
    for (state, reason), count in causes.items():
        merged[(state, re.sub(r"pivot \d+", "pivot N", reason))] += count
    for (state, reason), count in merged.most_common():
        print(f"  {count:6d}  {state}  {reason}")


def mix(take: Take, venues: list[Venue], requests: int, threads: int) -> tuple[float, list[float]]:
    rng = random.Random(7)
    work = [
        (
            rng.choice(venues),
            slot(
                rng.choice(ROOMS),
                date(2027, 3, 2) + timedelta(days=rng.randrange(300)),
                rng.choice([8, 10, 12, 14, 16, 18]),
            ),
        )
        for _ in range(requests)
    ]
    lock = threading.Lock()
    latencies: list[float] = []

    def run(item: tuple[Venue, HoldRequest]) -> None:
        venue, req = item
        _, seconds = timed(take, venue, req)
        with lock:
            latencies.append(seconds)

    started = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(run, work))
    return time.perf_counter() - started, latencies


_FLOOR_TABLE = "CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, note text)"
_FLOOR_INSERT = sa.text("INSERT INTO bench_floor (note) VALUES (:note)")


def _create_floor_table(db: sa.Engine) -> None:
    with db.begin() as conn:
        conn.execute(sa.text(_FLOOR_TABLE))  # logged: it pays the same commit as a hold


def _floor(db: sa.Engine, req: HoldRequest) -> object:
    return _floor_row(db, req.customer)


def _floor_row(db: sa.Engine, note: str) -> object:
    with db.connect() as conn, conn.begin():
        conn.execute(_FLOOR_INSERT, {"note": note})
    return None


def slot(room: str, day: date, hour: int) -> HoldRequest:
    return replace(
        factories.request(room=room, day=day), start_min=hour * 60, end_min=hour * 60 + 120
    )


def timed(take: Take, venue: Venue, req: HoldRequest) -> tuple[object, float]:
    started = time.perf_counter()
    answer = take(venue, req)
    return answer, time.perf_counter() - started


def race(call: Callable[[], tuple[object, float]], n: int) -> list[tuple[object, float]]:
    barrier = threading.Barrier(n)

    def run() -> tuple[object, float]:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(lambda _: run(), range(n)))


def _accepted(answer: object) -> bool:
    return isinstance(answer, RequestAnswer | Ranked)


if __name__ == "__main__":
    main()
