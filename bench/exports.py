"""The ledger taken out, at size: a venue's calendar feed of 10,000 live holds, the 304 of an
unchanged poll, and a year's export (20,000 rows) as xlsx and as CSV.

    python3 dev.py bench exports [--feed 10000] [--rows 20000] [--samples 30]

The feed is asked of a real `osae web` (waitress, over HTTP) as a calendar app asks: a full
GET after one hold changed (its events rendered again, the others' kept), a GET of an
unchanged feed without validators, and a poll with If-None-Match (304, one aggregate). The
first GET of a process renders every hold once (the ``icalendar`` library, about 1 ms a
hold): printed apart, it is not what a polling calendar meets. Targets: the feed under
300 ms, the 304 under 20 ms, the year's export under 5 s.
"""

from __future__ import annotations

import argparse
import time
import urllib.request
from datetime import UTC, date, datetime, timedelta

import sqlalchemy as sa

from bench.common import bench_database, latency_line, machine_line, percentile, settle
from bench.scale import big_venue
from bot.feeds import CalendarFeeds
from bot.web import Server, build_wsgi
from cli.export_commands import render
from core.engine import HoldEngine
from core.exports.feed_tokens import FeedKey, Scope
from tests.support import bulk
from tests.support.factories import NOW

FIRST_DAY = date(2027, 3, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--feed", type=int, default=10_000, help="live holds in the feed")
    parser.add_argument("--rows", type=int, default=20_000, help="rows of the export")
    parser.add_argument("--samples", type=int, default=30)
    args = parser.parse_args()
    print(machine_line())
    with bench_database() as (db, _):
        engine = HoldEngine(db)
        venue = engine.venues.save_venue(big_venue("exports"), now=NOW - timedelta(days=1))
        rooms = sorted(r for r in venue.rooms if r != "whole")
        with db.begin() as conn:
            half = args.feed // 2
            bulk.fill(conn, venue, half, first_day=FIRST_DAY, now=NOW, expires=NOW,
                      rooms=rooms, status="confirmed")  # fmt: skip
            later = FIRST_DAY + timedelta(days=half // (3 * len(rooms)) + 1)
            bulk.fill(conn, venue, args.feed - half, first_day=later, now=NOW,
                      expires=NOW + timedelta(days=5), rooms=rooms)  # fmt: skip
            past = FIRST_DAY + timedelta(days=2 * half // (3 * len(rooms)) + 2)
            extra = max(0, args.rows - args.feed)
            bulk.fill(conn, venue, extra, first_day=past, now=NOW, expires=NOW,
                      rooms=rooms, status="released")  # fmt: skip
        settle(db, vacuum=True)
        print(f"venue: {len(rooms)} rooms, {args.feed} live holds, {extra} that left")
        feed_figures(db, engine, venue.id, args.samples)
        export_figures(engine, venue.id, args.rows, max(3, args.samples // 10))


def feed_figures(db: sa.Engine, engine: HoldEngine, venue_id: str, samples: int) -> None:
    token = engine.writes.feed_token(FeedKey(venue_id, Scope.VENUE), secret=b"bench", now=NOW)
    assert isinstance(token, str)
    feeds = CalendarFeeds(engine, lambda: datetime(2027, 3, 1, tzinfo=UTC))
    with Server(build_wsgi(None, lambda: (True, {}), feeds)) as server:
        url = f"{server.url}/calendar/{token}.ics"
        started = time.perf_counter()
        status, etag, size = _get(url)
        cold = time.perf_counter() - started
        assert status == 200
        print(f"feed: {size / 1e6:.1f} MB; first GET of the process (every hold rendered) "
              f"{cold * 1000:.0f} ms")  # fmt: skip
        changed, unchanged, polls = [], [], []
        ids = [i for (i,) in _rows(db, "SELECT id FROM holds ORDER BY id LIMIT :n", samples)]
        for hold_id in ids:
            _touch(db, hold_id)  # one hold changes, as an edit or a promotion changes it
            started = time.perf_counter()
            status, etag, _ = _get(url)
            changed.append(time.perf_counter() - started)
            assert status == 200
            started = time.perf_counter()
            assert _get(url)[0] == 200
            unchanged.append(time.perf_counter() - started)
            started = time.perf_counter()
            assert _get(url, etag)[0] == 304
            polls.append(time.perf_counter() - started)
    print(latency_line("feed GET after one change", changed))
    print(latency_line("feed GET, nothing changed", unchanged))
    print(latency_line("feed poll, If-None-Match (304)", polls))
    ratio = percentile(changed, 50) / max(percentile(polls, 50), 1e-9)
    print(f"x 304 poll, full GET after a change {ratio:.1f}")
    _verdict("feed after a change (p50)", percentile(changed, 50), 0.300)
    _verdict("304 poll (p50)", percentile(polls, 50), 0.020)


def export_figures(engine: HoldEngine, venue_id: str, rows: int, samples: int) -> None:
    venue = engine.venues.venue(venue_id)
    assert venue is not None
    # Every hold, live or not (`osae export --all`): the export's heavier read.
    last = FIRST_DAY + timedelta(days=3650)
    found = engine.reads.ledger_out(venue_id, FIRST_DAY, last, left=True)
    spent: dict[str, list[float]] = {"read": [], "xlsx": [], "csv": []}
    written = 0
    for _ in range(samples):
        started = time.perf_counter()
        found = engine.reads.ledger_out(venue_id, FIRST_DAY, last, left=True)
        spent["read"].append(time.perf_counter() - started)
        for fmt in ("xlsx", "csv"):
            started = time.perf_counter()
            _, written = render(found, venue, fmt, with_contact=True)
            spent[fmt].append(time.perf_counter() - started)
    print(f"export: {written} rows ({len(found.holds)} holds)")
    print(latency_line("export read (--all)", spent["read"]))
    for fmt in ("xlsx", "csv"):
        print(latency_line(f"export {fmt} (rows + file)", spent[fmt]))
    whole = percentile(spent["read"], 50) + percentile(spent["xlsx"], 50)
    _verdict(f"a year's export, {written} rows, read + xlsx (p50)", whole, 5.0)


def _get(url: str, etag: str | None = None) -> tuple[int, str, int]:
    headers = {"If-None-Match": etag} if etag else {}
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 - our own server
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:  # noqa: S310
            body = answer.read()
            return answer.status, answer.headers.get("ETag", ""), len(body)
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("ETag", ""), 0


def _rows(db: sa.Engine, statement: str, n: int) -> list[tuple[int]]:
    with db.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.text(statement), {"n": n})]  # type: ignore[misc]


def _touch(db: sa.Engine, hold_id: int) -> None:
    with db.begin() as conn:
        conn.execute(
            sa.text("UPDATE holds SET version = version + 1, updated_at = now() WHERE id = :id"),
            {"id": hold_id},
        )


def _verdict(what: str, seconds: float, target: float) -> None:
    verdict = "under" if seconds < target else "OVER"
    print(f"{what} {seconds:.3f} s: {verdict} {target:g} s")


if __name__ == "__main__":
    main()
