"""What managers read, on a busy venue: a day's rooms, the team's home, a month's counts.

    python3 dev.py bench team [--holds 20000] [--firsts 2000] [--events 100000]

One venue of ``--holds`` decided and confirmed holds, ``--firsts`` 1st holds due within the
week (a 2nd behind every fifth) and ``--events`` audit events in the month; prints the p50 /
p95 of each read and how many statements it ran (a fixed number, whatever the size).
"""

from __future__ import annotations

import argparse
import time
from datetime import date, timedelta

import sqlalchemy as sa

from bench.common import bench_database, latency_line, settle
from bench.scale import big_venue
from core.engine import HoldEngine
from tests.support import bulk
from tests.support.factories import NOW

FIRST_DAY = date(2027, 3, 2)
ROOMS = [f"r{i:02d}" for i in range(10)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--holds", type=int, default=20_000)
    parser.add_argument("--firsts", type=int, default=2_000)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    with bench_database() as (db, _):
        engine = HoldEngine(db)
        venue = engine.venues.save_venue(big_venue("team"), now=NOW - timedelta(days=1))
        with db.begin() as conn:
            later = FIRST_DAY + timedelta(days=1 + args.firsts // 30)  # after the 1st holds
            for status in ("confirmed", "released"):
                bulk.fill(conn, venue, args.holds // 2, first_day=later, now=NOW, expires=NOW,
                          rooms=ROOMS, status=status)  # fmt: skip
            bulk.fill(conn, venue, args.firsts, first_day=FIRST_DAY, now=NOW,
                      expires=NOW + timedelta(days=5), rooms=ROOMS)  # fmt: skip
            bulk.fill(conn, venue, args.firsts // 5, first_day=FIRST_DAY, now=NOW,
                      expires=NOW, rooms=ROOMS, rank=2, salesperson="U0WAITING1")  # fmt: skip
            conn.execute(
                sa.text(
                    "INSERT INTO audit_events (venue_id, hold_id, actor, action, at, detail) "
                    "SELECT :v, n, 'U0BULK0001', (ARRAY['confirmed','expired','released','lost',"
                    "'requested','promoted'])[1 + n % 6], :at + n * interval '10 seconds', '{}' "
                    "FROM generate_series(1, :n) AS n"
                ),
                {"v": venue.id, "at": NOW, "n": args.events},
            )
        settle(db, vacuum=True)
        statements: list[str] = []
        sa.event.listen(db, "before_cursor_execute", lambda *a: statements.append(a[2]))
        engine.venues.venue(venue.id)
        reads = {
            "day (10 rooms, a busy day)": lambda: engine.reads.day(venue.id, FIRST_DAY),
            "team home": lambda: engine.reads.team_home(venue.id, now=NOW),
            "month counts": lambda: engine.reads.month_counts(venue.id, 2027, 3),
        }
        home = engine.reads.team_home(venue.id, now=NOW)
        print(
            f"venue: {args.holds + args.firsts + args.firsts // 5:,} holds, {args.events:,} "
            f"audit events; home: {len(home.today) + len(home.week)} deadlines, "
            f"{len(home.queues)} waiting"
        )
        for name, read in reads.items():
            latencies = []
            for _ in range(args.samples):
                statements.clear()
                started = time.perf_counter()
                read()
                latencies.append(time.perf_counter() - started)
            print(f"{latency_line(name, latencies)}  ({len(statements)} statements)")


if __name__ == "__main__":
    main()
