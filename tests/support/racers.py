"""Requests from separate processes released together, trial after trial (packages racing).

Each racer is its own OS process with its own engine and connection pool, as web processes
are; a barrier starts every trial in all of them at once. Answers come back as plain tuples.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from multiprocessing.synchronize import Barrier

from core.db import create_engine
from core.model import HoldRequest, ItemRequest
from core.results import Refused
from tests.support.engines import EngineForTests
from tests.support.factories import NOW

Answer = tuple[int, int, tuple[object, ...]]  # (trial, racer, outcome)


@dataclass(frozen=True)
class Package:
    """Rooms and times of one package, the first room first: (room, start, end) minutes."""

    items: tuple[tuple[str, int, int], ...]

    def request(self, day: date, salesperson: str) -> HoldRequest:
        (room, start, end), *also = self.items
        return HoldRequest(
            room_id=room,
            local_date=day,
            start_min=start,
            end_min=end,
            kind="wedding",
            customer=f"{salesperson}様",
            salesperson=salesperson,
            creator=salesperson,
            also=tuple(ItemRequest(r, s, e) for r, s, e in also),
        )


def race_packages(
    url: str, venues: Sequence[str], packages: Sequence[Package], day: date
) -> list[Answer]:
    """Racer ``i`` requests ``packages[i]`` in every venue, one venue a trial, all racers at
    once; every answer, in no particular order."""
    spawn = multiprocessing.get_context("spawn")
    barrier = spawn.Barrier(len(packages))
    answers = spawn.Queue()
    racers = [
        spawn.Process(target=_racer, args=(url, list(venues), p, i, day, barrier, answers))
        for i, p in enumerate(packages)
    ]
    for racer in racers:
        racer.start()
    got = [answers.get(timeout=120) for _ in range(len(venues) * len(packages))]
    for racer in racers:
        racer.join(timeout=60)
        assert racer.exitcode == 0, f"racer exited with {racer.exitcode}"
    return got


def _racer(
    url: str,
    venues: list[str],
    package: Package,
    index: int,
    day: date,
    barrier: Barrier,
    answers: multiprocessing.Queue,  # type: ignore[type-arg]
) -> None:
    db = create_engine(url, pool_size=2)
    engine = EngineForTests(db)  # this process's own admission, as a web process has
    try:
        for trial, venue_id in enumerate(venues):
            req = package.request(day, f"U0RACER{index:03d}")
            barrier.wait(timeout=60)
            got = engine.request(venue_id, req, now=NOW)
            if isinstance(got, Refused):
                answers.put((trial, index, ("refused", got.code.value, got.room)))
            else:
                outcome = ("ok", got.hold.id, got.rank, got.item_ranks)
                answers.put((trial, index, outcome))
    finally:
        db.dispose()
