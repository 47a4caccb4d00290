"""Hot slot and throughput: the engine beside a naive READ COMMITTED variant and a
READ COMMITTED + FOR UPDATE baseline, in one process on one database.

    python3 dev.py bench hot_slot [--trials 50] [--contenders 8] [--requests 2000]

Part 1 reproduces the seed's table: the outcome of N concurrent requests for one room and
time, over many trials. Part 2 runs a low-contention mix (random rooms, days and times from
several threads) and prints latency percentiles, attempts per request and requests per
second; the figure is the engine's throughput as a ratio of the baseline's.
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import date, timedelta

from bench.common import bench_database, latency_line, mean
from bench.variants import for_update_baseline, naive_read_committed
from core.engine import HoldEngine
from core.model import HoldRequest, Venue
from core.results import Requested
from core.rules.requests import Ranked
from tests.support import factories
from tests.support.factories import NOW

Take = Callable[[Venue, HoldRequest], object]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--contenders", type=int, default=8)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument(
        "--writers", type=int, default=2, help="engine's writers per venue (0: no cap)"
    )
    parser.add_argument(
        "--venues", type=int, default=4, help="venues the multi-venue mix spreads over"
    )
    parser.add_argument("--no-mix", action="store_true", help="only the hot-slot trials")
    args = parser.parse_args()
    with bench_database(pool_size=max(args.contenders, args.threads) + 4) as (db, _):
        attempts: list[int] = []
        engine = HoldEngine(
            db, observer=lambda outcome, n: attempts.append(n), writers=args.writers or None
        )
        print(f"engine writers per venue: {args.writers or 'no cap'}")
        variants: dict[str, Take] = {
            "engine (SERIALIZABLE + part-day bump)": lambda v, r: engine.request(v.id, r, now=NOW),
            "naive READ COMMITTED": lambda v, r: naive_read_committed(db, v, r, NOW),
            "READ COMMITTED + FOR UPDATE": lambda v, r: for_update_baseline(db, v, r, NOW),
        }
        print(
            f"hot slot: {args.contenders} concurrent requests for one room and time, "
            f"{args.trials} trials each"
        )
        for name, take in variants.items():
            attempts.clear()
            table, latencies = hot_slot(engine, take, args.trials, args.contenders)
            print(f"\n{name}")
            for (accepted, ranks), count in table.most_common():
                ranks_text = ",".join(map(str, ranks)) or "-"
                print(
                    f"  {count:4d} trials  accepted {accepted} (ranks {ranks_text}), "
                    f"refused {args.contenders - accepted}"
                )
            print("  " + latency_line("latency per request", latencies))
            if attempts:
                print(f"  attempts per request: mean {mean(attempts):.2f}, max {max(attempts)}")
        for venues in () if args.no_mix else (1, args.venues):
            throughput(engine, variants, attempts, args.requests, args.threads, venues)


def hot_slot(
    engine: HoldEngine, take: Take, trials: int, contenders: int
) -> tuple[Counter[tuple[int, tuple[int, ...]]], list[float]]:
    table: Counter[tuple[int, tuple[int, ...]]] = Counter()
    latencies: list[float] = []
    for _ in range(trials):
        venue = engine.save_venue(factories.venue(), now=NOW)
        answers = race(lambda v=venue: timed(take, v, factories.request()), contenders)
        ranks = tuple(sorted(a.rank for a, _ in answers if _accepted(a)))
        table[(len(ranks), ranks)] += 1
        latencies += [seconds for _, seconds in answers]
    return table, latencies


def throughput(
    engine: HoldEngine,
    variants: dict[str, Take],
    attempts: list[int],
    requests: int,
    threads: int,
    venues: int,
) -> None:
    print(
        f"\nlow-contention mix: {requests} requests from {threads} threads on random slots of "
        f"{venues} venue(s) (5 rooms x 300 days x 6 start times each), two rounds, alternating"
    )
    contenders = {k: v for k, v in variants.items() if not k.startswith("naive")}
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    lat: dict[str, list[float]] = {name: [] for name in contenders}
    retries: list[int] = []
    for _ in range(2):
        for name, take in contenders.items():
            attempts.clear()
            places = [engine.save_venue(factories.venue(), now=NOW) for _ in range(venues)]
            seconds, per_request = mix(take, places, requests, threads)
            rates[name].append(requests / seconds)
            lat[name] += per_request
            if name.startswith("engine"):
                retries += [a - 1 for a in attempts]
    for name in contenders:
        print("  " + latency_line(name, lat[name]))
        print(f"  {'':<34} {mean(rates[name]):8.1f} requests/s")
    engine_rate, base_rate = (mean(r) for r in rates.values())
    print(f"  engine retries per request (false positives at low contention): {mean(retries):.3f}")
    print(f"  throughput ratio engine / FOR UPDATE baseline: {engine_rate / base_rate:.2f}")


def mix(take: Take, venues: list[Venue], requests: int, threads: int) -> tuple[float, list[float]]:
    rng = random.Random(7)
    rooms = ["hoo", "hoo-a", "hoo-b", "sakura", "chapel"]
    work = [
        (
            rng.choice(venues),
            slot(
                rng.choice(rooms),
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
    return isinstance(answer, Requested | Ranked)


if __name__ == "__main__":
    main()
