"""Shared bench plumbing: a throwaway migrated database, percentiles, tables."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import sqlalchemy as sa

from core.db import create_engine
from tests.support import databases


@contextmanager
def bench_database(pool_size: int = 20) -> Iterator[tuple[sa.Engine, str]]:
    """A fresh migrated database on the test server, dropped afterwards."""
    server, discard = databases.server_url()
    template = databases.migrated_template(server)
    name = databases.create_database(server, template=template)
    url = databases.with_database(server, name)
    engine = create_engine(url, pool_size=pool_size)
    try:
        yield engine, url
    finally:
        engine.dispose()
        databases.drop_database(server, name)
        databases.drop_database(server, template)
        discard()  # a throwaway server started for this run; nothing for the machine's own


def settle(db: sa.Engine, *, vacuum: bool = False) -> None:
    """Planner statistics for the tables as they stand (with ``vacuum``, their visibility maps
    too: index-only scans), as autovacuum keeps them on a database in use. A bench's new
    database has none until autovacuum's next visit, up to a minute later: until then
    statements, and the one generic plan psycopg's prepared statements keep, are planned for
    the tables as they were. ANALYZE makes every cached plan be made again."""
    command = "VACUUM ANALYZE" if vacuum else "ANALYZE"
    with db.connect() as conn:
        conn.execution_options(isolation_level="AUTOCOMMIT").execute(sa.text(command))


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def latency_line(name: str, seconds: Sequence[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (
        f"{name:<34} p50 {percentile(ms, 50):7.2f} ms  p95 {percentile(ms, 95):7.2f} ms  "
        f"p99 {percentile(ms, 99):7.2f} ms  (n={len(ms)})"
    )


def mean(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


def machine_line(loops: int = 5) -> str:
    """This machine's pure-Python speed, to compare figures across runs and machines: the
    benches' absolute times scale with it (the VM's speed has varied twofold between
    sessions), their ratios much less."""
    spent = []
    for _ in range(loops):
        started = time.process_time()
        sum(i * i for i in range(1_000_000))
        spent.append(time.process_time() - started)
    took = statistics.median(spent) * 1000
    return f"machine: Python reference loop {took:.0f} ms CPU (median of {loops})"
