"""Packages (a hold of several rooms) beside one-room holds, in one process on one database.

    python3 dev.py bench packages [--trials 50] [--contenders 8] [--requests 1000]

Part 1, the hot slot: N concurrent requests for the same 3-room wedding (the chapel, the
ballroom and a bridal room), half of them naming the rooms in the opposite order, over many
trials: every trial must end with one 1st and one 2nd, ranks by arrival, no request busy.
The same for N one-room requests, for comparison. Part 2, a low-contention mix from several
threads: latency of 3-room requests and of one-room requests on random slots, in
alternating rounds; the figure is the ratio of their p95.
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import date, timedelta
from functools import partial
from threading import Lock

from bench.common import bench_database, latency_line, mean, percentile
from bench.hot_slot import race, timed
from core.engine import HoldEngine
from core.model import HoldRequest, ItemRequest, Venue
from core.results import Refused, RequestAnswer
from tests.support import factories
from tests.support.factories import NOW

DAY = date(2027, 4, 14)
Make = Callable[[int], HoldRequest]  # contender number -> its request
Timed = tuple[object, float]  # an answer and its seconds


def wedding(day: date, hour: int, flip: bool = False) -> HoldRequest:
    """The chapel at ``hour``, the ballroom after it and a bridal room around both."""
    rooms = [
        ("chapel", hour * 60, hour * 60 + 60),
        ("hoo", hour * 60 + 90, hour * 60 + 270),
        ("sakura", hour * 60 - 60, hour * 60 + 300),
    ]
    if flip:
        rooms.reverse()
    (room, start, end), *also = rooms
    base = factories.request(room=room, day=day)
    return replace(
        base,
        start_min=start,
        end_min=end,
        also=tuple(ItemRequest(r, s, e) for r, s, e in also),
    )


def single(day: date, hour: int, room: str = "hoo") -> HoldRequest:
    base = factories.request(room=room, day=day)
    return replace(base, start_min=hour * 60, end_min=hour * 60 + 120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=50)
    parser.add_argument("--contenders", type=int, default=8)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--writers", type=int, default=2, help="per venue (0: no cap)")
    args = parser.parse_args()
    with bench_database(pool_size=max(args.contenders, args.threads) + 4) as (db, _):
        attempts: list[int] = []
        engine = HoldEngine(
            db, observer=lambda _, n: attempts.append(n), writers=args.writers or None
        )
        print(f"engine writers per venue: {args.writers or 'no cap'}")
        print(
            f"hot slot: {args.contenders} concurrent requests for the same rooms and times, "
            f"{args.trials} trials each"
        )
        shapes: dict[str, Make] = {
            "3-room wedding, rooms in opposite orders": lambda i: wedding(DAY, 11, i % 2 == 1),
            "one room": lambda _: single(DAY, 11),
        }
        for name, make in shapes.items():
            attempts.clear()
            table, latencies, busy = hot_slot(engine, make, args.trials, args.contenders)
            print(f"\n{name}")
            for (accepted, ranks), count in table.most_common():
                print(
                    f"  {count:4d} trials  accepted {accepted} (ranks {','.join(map(str, ranks))}),"
                    f" refused {args.contenders - accepted}"
                )
            print(f"  busy (no answer after every retry): {busy}")
            print("  " + latency_line("latency per request", latencies))
            print(f"  attempts per request: mean {mean(attempts):.2f}, max {max(attempts)}")
        mix(engine, attempts, args.requests, args.threads)


def hot_slot(
    engine: HoldEngine, make: Make, trials: int, contenders: int
) -> tuple[Counter[tuple[int, tuple[int, ...]]], list[float], int]:
    """Each trial in a venue of its own; the accepted ranks must follow the hold ids."""
    table: Counter[tuple[int, tuple[int, ...]]] = Counter()
    latencies: list[float] = []
    busy = 0
    take = partial(_take, engine)
    for _ in range(trials):
        venue = engine.venues.save_venue(factories.venue(), now=NOW)
        numbers = iter(range(contenders))
        lock = threading.Lock()

        def one(v: Venue = venue, ns: Iterator[int] = numbers, lk: Lock = lock) -> Timed:
            with lk:
                n = next(ns)
            return timed(take, v, make(n))

        answers = race(one, contenders)
        taken = sorted(
            (a for a, _ in answers if isinstance(a, RequestAnswer)), key=lambda a: a.hold.id
        )
        ranks = tuple(a.rank for a in taken)
        assert ranks == tuple(sorted(ranks)), "ranks must follow arrival order (hold ids)"
        busy += sum(1 for a, _ in answers if isinstance(a, Refused) and a.code.value == "busy")
        table[(len(ranks), ranks)] += 1
        latencies += [seconds for _, seconds in answers]
    return table, latencies, busy


def _take(engine: HoldEngine, venue: Venue, req: HoldRequest) -> object:
    return engine.writes.request(venue.id, req, now=NOW)


def mix(engine: HoldEngine, attempts: list[int], requests: int, threads: int) -> None:
    print(
        f"\nlow-contention mix: {requests} requests from {threads} threads on random slots "
        "(300 days x 4 start times), one-room and 3-room rounds alternating, two rounds each"
    )
    latencies: dict[str, list[float]] = {"one room": [], "3-room wedding": []}
    retries: dict[str, list[int]] = {name: [] for name in latencies}
    for _ in range(2):
        for name in latencies:
            attempts.clear()
            venue = engine.venues.save_venue(factories.venue(), now=NOW)
            rng = random.Random(11)
            work = []
            for _ in range(requests):
                day = date(2027, 3, 2) + timedelta(days=rng.randrange(300))
                hour = rng.choice([10, 12, 14, 16])
                rooms = ["hoo", "hoo-a", "hoo-b", "sakura", "chapel"]
                req = (
                    single(day, hour, rng.choice(rooms))
                    if name == "one room"
                    else wedding(day, hour)
                )
                work.append(req)
            latencies[name] += run_mix(engine, venue, work, threads)
            retries[name] += [a - 1 for a in attempts]
    for name, seconds in latencies.items():
        print("  " + latency_line(name, seconds))
        print(f"  {'':<34} retries per request {mean(retries[name]):.3f}")
    one, three = (percentile(s, 95) for s in latencies.values())
    print(f"  p95 of a 3-room request / p95 of a one-room request: {three / one:.2f}")


def run_mix(engine: HoldEngine, venue: Venue, work: list[HoldRequest], threads: int) -> list[float]:
    lock = threading.Lock()
    latencies: list[float] = []

    def go(req: HoldRequest) -> None:
        started = time.perf_counter()
        engine.writes.request(venue.id, req, now=NOW)
        seconds = time.perf_counter() - started
        with lock:
            latencies.append(seconds)

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(go, work))
    return latencies


if __name__ == "__main__":
    main()
