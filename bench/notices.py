"""Notice delivery: DMs per second to a rate-limited Slack stand-in, and the time from a
deadline passing to the promoted salesperson's DM.

    python -m bench.notices [--users 300] [--busy-users 40] [--samples 30]

Runs real `osae worker` processes on a real Redis and PostgreSQL; the stand-in
limits chat.postMessage to about one message a second per channel (bursts of three), as
Slack does. The latency part ticks the sweep every second, as the clock does every minute:
deadline -> DM there is tick wait + pipeline, so in production add up to 60 s of tick wait.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from slack_sdk import WebClient

from bench.common import bench_database, percentile
from cli import local_redis, localservices
from cli.bootstrap import Runtime
from cli.settings import Settings
from core.engine import HoldEngine
from core.model import Policy, Venue
from core.results import RequestAnswer
from jobs import queues
from jobs.queues import DRAIN, SWEEP
from tests.support import factories
from tests.support.slack_standin import DEFAULT_TOKEN, SlackStandin

ROOMS = ("sakura", "chapel")
TIMES = (("11:00", "13:00"), ("15:00", "17:00"), ("19:00", "21:00"))
HOLD_DAYS = timedelta(days=7)  # a wedding 1st hold's deadline
# The promoted DMs are what is measured: the 1sts are not told of the 2nds behind them.
QUIET = Policy(notify_first_of_second=False)


@dataclass(frozen=True)
class Slot:
    room: str
    day: date
    start: str
    end: str


def slots(first_day: date) -> Iterator[Slot]:
    """Slots that never conflict with each other: two rooms, three times a day."""
    for offset in itertools.count():
        day = first_day + timedelta(days=offset)
        for room in ROOMS:
            for start, end in TIMES:
                yield Slot(room, day, start, end)


def hold(engine: HoldEngine, venue: Venue, slot: Slot, person: str, now: datetime) -> int:
    req = factories.request(
        room=slot.room, day=slot.day, start=slot.start, end=slot.end, salesperson=person
    )
    result = engine.writes.request(venue.id, req, now=now)
    assert isinstance(result, RequestAnswer), result
    return result.hold.id


def user(kind: str, n: int) -> str:
    return f"U0{kind}{n:05d}"


def meet(slack: SlackStandin, people: list[str]) -> None:
    """Workspace members, so locale lookups (users.info) answer as they would in Slack."""
    for person in people:
        slack.set_user(person, locale="ja-JP")


# -- throughput -----------------------------------------------------------------------------
def pile_up(engine: HoldEngine, venue: Venue, users: int, per_user: int, tag: str) -> int:
    """users x per_user promotions; returns the notices now waiting in the outbox."""
    now = datetime.now(UTC)
    free = slots((now + timedelta(days=20)).astimezone(factories.JST).date())
    firsts = []
    for n in range(users):
        for _ in range(per_user):
            slot = next(free)
            firsts.append(hold(engine, venue, slot, user(f"F{tag}", n), now))
            hold(engine, venue, slot, user(f"P{tag}", n), now)
    for hold_id in firsts:
        engine.writes.release(venue.id, hold_id, actor=factories.MANAGER, now=now)
    return len(firsts)


def throughput(
    rt: Runtime, slack: SlackStandin, users: int, per_user: int, tag: str, drains: int
) -> str:
    venue = rt.engine.venues.save_venue(factories.venue(QUIET), now=datetime.now(UTC))
    count = pile_up(rt.engine, venue, users, per_user, tag)
    meet(slack, [user(f"P{tag}", n) for n in range(users)])
    slack.clear()
    started = time.time()
    for _ in range(drains):  # one per worker thread, as a burst of commits would
        queues.enqueue(rt.broker, DRAIN, venue.id)
    calls = slack.wait_for("chat.postMessage", count, timeout=300, predicate=lambda c: c.ok)
    took = calls[-1].at - started
    limited = sum(1 for c in slack.calls_to("chat.postMessage") if c.status == 429)
    lookups = len(slack.calls_to("users.info"))
    return (
        f"{users} users x {per_user} notices: {count} DMs in {took:.2f}s = "
        f"{count / took:.1f}/s; 429s answered: {limited}; users.info lookups: {lookups}"
    )


def ceiling(slack: SlackStandin, posts: int = 400, threads: int = 8) -> str:
    """How fast the stand-in itself answers: the throughput figures cannot exceed it."""
    client = WebClient(token=DEFAULT_TOKEN, base_url=slack.base_url, retry_handlers=[])

    def post(k: int) -> None:
        for i in range(posts // threads):
            client.chat_postMessage(channel=f"C0CEIL{k:02d}{i:04d}", text="calibration")

    started = time.time()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(post, range(threads)))
    rate = posts / (time.time() - started)
    slack.clear()
    return f"stand-in ceiling: {rate:.0f} calls/s ({threads} threads, no rate limit per channel)"


# -- deadline -> DM -------------------------------------------------------------------------
@dataclass(frozen=True)
class Sample:
    second: str  # the salesperson who will be promoted
    deadline: float  # unix seconds


def deadlines(engine: HoldEngine, venue: Venue, samples: int, spacing: float) -> list[Sample]:
    """1st holds whose deadline passes `spacing` s apart, a few seconds from now, each with
    a 2nd waiting. RequestAnswer "7 days ago" so the deadline falls in the next seconds."""
    start = datetime.now(UTC) + timedelta(seconds=3)
    free = slots((start + timedelta(days=20)).astimezone(factories.JST).date())
    found = []
    for n in range(samples):
        due = start + timedelta(seconds=n * spacing)
        slot = next(free)
        hold(engine, venue, slot, user("L", n), due - HOLD_DAYS)
        hold(engine, venue, slot, user("W", n), due - HOLD_DAYS)
        found.append(Sample(user("W", n), due.timestamp()))
    return found


def latency(rt: Runtime, slack: SlackStandin, samples: int) -> list[str]:
    venue = rt.engine.venues.save_venue(factories.venue(QUIET), now=datetime.now(UTC))
    waiting = deadlines(rt.engine, venue, samples, spacing=0.37)
    meet(slack, [user(k, n) for k in ("L", "W") for n in range(samples)])
    slack.clear()
    ticks: list[float] = []
    last = waiting[-1].deadline
    while time.time() < last + 1.5:  # the clock: one sweep tick a second
        ticks.append(time.time())
        queues.enqueue(rt.broker, SWEEP, venue.id)
        time.sleep(1.0)
    people = {s.second for s in waiting}
    arrived = slack.wait_for(
        "chat.postMessage",
        samples,
        timeout=60,
        predicate=lambda c: c.ok and c.body["channel"] in people,
    )
    dm_at = {c.body["channel"]: c.at for c in arrived}
    total = [dm_at[s.second] - s.deadline for s in waiting]
    pipeline = [dm_at[s.second] - next(t for t in ticks if t >= s.deadline) for s in waiting]
    return [
        _line("deadline -> DM (1 s ticks)", total),
        _line("tick -> sweep -> drain -> DM", pipeline),
        "with the production clock (sweep each minute at :00) add 0-60 s of tick wait",
    ]


def _line(name: str, seconds: list[float]) -> str:
    return (
        f"{name:<30} p50 {percentile(seconds, 50) * 1000:7.1f} ms  "
        f"p95 {percentile(seconds, 95) * 1000:7.1f} ms  max {max(seconds) * 1000:7.1f} ms  "
        f"(n={len(seconds)})"
    )


# -- plumbing -------------------------------------------------------------------------------
@contextmanager
def redis_server() -> Iterator[str]:
    if localservices.redis_answers("127.0.0.1", 6379):
        yield "redis://127.0.0.1:6379/0"
        return
    service = local_redis.start_redis(Path(tempfile.mkdtemp(prefix="osae-bench-redis-")))
    try:
        yield service.url
    finally:
        service.stop()


@contextmanager
def running(
    url: str, redis_url: str, slack: SlackStandin, workers: int, threads: int
) -> Iterator[Runtime]:
    """``workers`` `osae worker` processes, as deployed; the bench itself only enqueues."""
    namespace = f"osae-bench-{uuid.uuid4().hex[:8]}"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "OSAE_"))},
        "DATABASE_URL": url,
        "REDIS_URL": redis_url,
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_API_URL": slack.base_url,
        "OSAE_QUEUE_NAMESPACE": namespace,
        "OSAE_WORKER_THREADS": str(threads),
        "OSAE_LOG_FORMAT": "text",
    }
    logs = Path(tempfile.mkdtemp(prefix="osae-bench-logs-"))
    children = [_worker(env, logs / f"worker-{n}.log") for n in range(workers)]
    runtime = Runtime.open(
        Settings.from_env(env), database_url=url, redis_url=redis_url, pool_size=4
    )
    try:
        for child, log in children:
            _wait_started(child, log)
        yield runtime
    finally:
        for child, _ in children:
            child.send_signal(signal.SIGTERM)
        for child, _ in children:
            child.wait(30)
        for name in list(runtime.broker.client.scan_iter(f"{namespace}*")):
            runtime.broker.client.delete(name)
        runtime.close()


def _worker(env: dict[str, str], log: Path) -> tuple[subprocess.Popen[bytes], Path]:
    out = log.open("w")
    child = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "worker"], env=env, stdout=out, stderr=out
    )
    return child, log


def _wait_started(child: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while "worker started" not in log.read_text():
        if child.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"worker did not start:\n{log.read_text()[-2000:]}")
        time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--users", type=int, default=300, help="recipients, one DM each")
    parser.add_argument("--busy-users", type=int, default=40, help="recipients of six DMs each")
    parser.add_argument("--samples", type=int, default=30, help="deadlines to time")
    parser.add_argument("--workers", type=int, default=2, help="`osae worker` processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # a warning per 429 would drown the figures
    with (
        bench_database() as (_, url),
        redis_server() as redis_url,
        SlackStandin(per_channel_rate=1.0, per_channel_burst=3) as slack,
        running(url, redis_url, slack, args.workers, args.threads) as rt,
    ):
        print(
            f"{args.workers} worker processes x {args.threads} threads; "
            "stand-in: 1 msg/s per channel, bursts of 3"
        )
        print(ceiling(slack))
        drains = args.workers * args.threads
        print(throughput(rt, slack, args.users, 1, "A", drains))
        print(throughput(rt, slack, args.busy_users, 6, "B", drains))
        for line in latency(rt, slack, args.samples):
            print(line)


if __name__ == "__main__":
    main()
