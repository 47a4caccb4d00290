"""Faults, on a PostgreSQL of the test's own (never the machine's shared one): a burst of
requests while that PostgreSQL's postmaster is killed and started again by osae's supervisor,
and a worker killed in the middle of a sweep. Nothing acknowledged is lost, no two 1st or
confirmed holds overlap, every due hold is swept and its notices sent once (at most one
duplicate per kill), and each part is back within 10 s."""

from __future__ import annotations

import os
import random
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from cli import bootstrap, localservices, migrate
from cli.settings import Settings
from cli.supervisor import Supervisor, Watched
from core.db import create_engine
from core.engine import HoldEngine
from core.errors import DatabaseUnavailable
from core.model import Status, Venue
from core.results import Refused, RequestAnswer
from jobs import queues
from jobs.queues import SWEEP
from tests.jobs.conftest import eventually
from tests.jobs.processes import Child, osae_env
from tests.jobs.scenarios import quiet, rows
from tests.support import factories, invariants
from tests.support.engines import EngineForTests
from tests.support.slack_standin import SlackStandin

BACK_WITHIN = 10.0  # seconds
CLIENTS = 8  # the burst: 8 threads asking until the database has been back a second
DUE = 30  # 1st holds whose deadline has passed, each with a 2nd behind it
FIRST, SECOND = "U0FAULTA", "U0FAULTB"  # and the slot's number


@dataclass
class OwnPostgres:
    service: localservices.Service
    url: str  # its database "osae", migrated
    folder: Path

    def postmaster(self) -> int:
        return int((self.folder / "pgdata" / "postmaster.pid").read_text().split()[0])


@pytest.fixture
def own_pg() -> Iterator[OwnPostgres]:
    """A throwaway PostgreSQL (with osae's access rules) in a folder of its own."""
    folder = Path(tempfile.mkdtemp(prefix="osae-faults-"))
    folder.chmod(0o755)  # as root, the server's own account passes through it
    service = localservices.start_postgres(folder / "pg", durable=False)
    with psycopg.connect(service.url, autocommit=True) as conn:
        conn.execute("CREATE DATABASE osae")
    url = service.url.rsplit("/", 1)[0] + "/osae"
    migrate.upgrade(url)
    try:
        yield OwnPostgres(service, url, folder / "pg")
    finally:
        service.discard()
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Burst:
    """What the clients were told: acknowledged holds by id, and how many were not."""

    acknowledged: dict[int, int] = field(default_factory=dict)  # hold id -> rank told
    unavailable: int = 0
    refused: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    over: threading.Event = field(default_factory=threading.Event)


def client(engine: HoldEngine, venue: Venue, seed: int, burst: Burst, start: float) -> None:
    rng = random.Random(seed)
    day0 = (datetime.now(UTC) + timedelta(days=40)).astimezone(venue.tz).date()
    while time.monotonic() < start:
        time.sleep(0.001)
    while not burst.over.is_set():
        room = rng.choice(["hoo", "hoo-a", "hoo-b", "sakura"])
        day = day0 + timedelta(days=rng.randrange(60))
        asked = factories.request(room=room, day=day, salesperson=f"{FIRST}{seed:02d}")
        try:
            answer = engine.request(venue.id, asked, now=datetime.now(UTC))
        except DatabaseUnavailable:
            with burst.lock:
                burst.unavailable += 1
            time.sleep(0.05)
            continue
        with burst.lock:
            if isinstance(answer, RequestAnswer):
                burst.acknowledged[answer.hold.id] = answer.rank
            else:
                burst.refused += 1
        time.sleep(0.01)


def test_a_burst_of_requests_while_postgres_is_killed_loses_no_acknowledged_hold(
    own_pg: OwnPostgres,
) -> None:
    engine = EngineForTests(create_engine(own_pg.url, pool_size=CLIENTS))
    said: list[str] = []
    restart = own_pg.service.restart
    assert restart is not None
    watched = [Watched("part.postgres", own_pg.service.alive, restart)]
    supervisor = Supervisor(watched, said.append, command="osae serve").start()
    try:
        venue = engine.save_venue(quiet(factories.venue()), now=datetime.now(UTC))
        burst = Burst()
        start = time.monotonic() + 0.5
        clients = [
            threading.Thread(target=client, args=(engine, venue, seed, burst, start))
            for seed in range(CLIENTS)
        ]
        for thread in clients:
            thread.start()
        time.sleep(1.5)  # the burst is under way
        assert burst.acknowledged, "requests were answered before the kill"
        os.kill(own_pg.postmaster(), signal.SIGKILL)
        killed = time.monotonic()
        eventually(lambda: len(said) == 2, timeout=BACK_WITHIN, what="died, then back")
        while True:  # served again: a request is answered
            try:
                engine.ping()
                break
            except DatabaseUnavailable:
                assert time.monotonic() - killed < BACK_WITHIN, said
                time.sleep(0.1)
        back = time.monotonic() - killed
        time.sleep(1.0)  # requests answered again after the restart
        burst.over.set()
        for thread in clients:
            thread.join(timeout=120)
    finally:
        supervisor.stop()

    db = create_engine(own_pg.url, pool_size=1)
    live = invariants.check(db, venue)  # no two 1st or confirmed holds overlap, and the rest
    db.dispose()
    kept = {hold.id for hold in live}
    lost = sorted(set(burst.acknowledged) - kept)
    print(
        f"\nburst: {len(burst.acknowledged)} acknowledged, {burst.refused} refused, "
        f"{burst.unavailable} told the database was unavailable; back {back:.1f}s after the "
        f"kill; lost {len(lost)}"
    )
    assert lost == [], f"acknowledged holds lost: {lost}"
    assert burst.unavailable > 0, "the kill landed inside the burst"
    assert back <= BACK_WITHIN
    engine.close()


def due_holds(engine: HoldEngine, venue: Venue) -> list[int]:
    """``DUE`` slots, each a 1st whose deadline passed a minute ago and a 2nd behind it,
    each of its own salespeople (Slack takes about one post a second per DM channel)."""
    now = datetime.now(UTC)
    asked_at = now - timedelta(days=7, minutes=1)  # a wedding's 7 days: due a minute ago
    day0 = (now + timedelta(days=60)).astimezone(venue.tz).date()
    firsts = []
    for n in range(DUE):
        day = day0 + timedelta(days=n)
        ahead, behind = f"{FIRST}{n:02d}", f"{SECOND}{n:02d}"
        first = engine.request(
            venue.id, factories.request(day=day, salesperson=ahead), now=asked_at
        )
        second = engine.request(venue.id, factories.request(day=day, salesperson=behind), now=now)
        assert isinstance(first, RequestAnswer) and isinstance(second, RequestAnswer)
        firsts.append(first.hold.id)
    return firsts


def waiting_on_a_lock(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        found = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        ).fetchone()
    return bool(found and found[0])


def statuses(engine: HoldEngine, venue: Venue, ids: list[int]) -> list[Status]:
    found = []
    for hold_id in ids:
        hold = engine.hold(venue.id, hold_id)
        assert not isinstance(hold, Refused)
        found.append(hold.status)
    return found


def test_a_worker_killed_mid_sweep_sweeps_every_due_hold_and_sends_each_notice_once(
    own_pg: OwnPostgres, redis_url: str, namespace: str, slack: SlackStandin, tmp_path: Path
) -> None:
    engine = EngineForTests(create_engine(own_pg.url, pool_size=2))
    venue = engine.save_venue(quiet(factories.venue()), now=datetime.now(UTC))
    firsts = due_holds(engine, venue)
    env = osae_env(
        DATABASE_URL=own_pg.url,
        REDIS_URL=redis_url,
        OSAE_QUEUE_NAMESPACE=namespace,
        SLACK_BOT_TOKEN="xoxb-test",
        SLACK_API_URL=slack.base_url,
        OSAE_OUTBOX_LEASE_SECONDS="4",  # a row left leased by the kill is sent after it
        OSAE_SLACK_TIMEOUT_SECONDS="2",  # a send must end within the lease
        OSAE_WORKER_THREADS="1",  # one job at a time: one in flight when killed
    )
    broker = bootstrap.broker(Settings.from_env(env), redis_url)
    locker = psycopg.connect(own_pg.url)
    try:
        # The last due 1st is locked by the test: the sweep waits on it, its transaction
        # open, when the worker is killed.
        locker.execute("SELECT 1 FROM holds WHERE id = %s FOR UPDATE", (firsts[-1],))
        first = Child(["worker"], env, tmp_path)
        first.wait_for_output("worker started", timeout=60)
        assert queues.try_enqueue(broker, SWEEP, venue.id)
        eventually(lambda: waiting_on_a_lock(own_pg.url), timeout=30, what="sweep under way")
        first.kill()
        killed = time.monotonic()
        locker.rollback()
        assert set(statuses(engine, venue, firsts)) == {Status.TENTATIVE}, "nothing half-swept"

        second = Child(["worker"], env, tmp_path)  # as a process manager starts it again
        second.wait_for_output("worker started", timeout=60)
        ready = time.monotonic()
        assert queues.try_enqueue(broker, SWEEP, venue.id)  # the clock's next tick
        eventually(
            lambda: set(statuses(engine, venue, firsts)) == {Status.EXPIRED},
            timeout=BACK_WITHIN,
            what="every due hold swept",
        )
        try:
            eventually(
                lambda: len(rows(engine, venue, "sent")) == len(rows(engine, venue)) > 0,
                timeout=BACK_WITHIN,
                what="every notice sent",
            )
        except AssertionError:
            left = [
                (n.id, n.kind, n.status, n.recipient, n.attempts, n.last_error, n.available_at)
                for n in rows(engine, venue)
                if n.status != "sent"
            ]
            raise AssertionError(f"{left[:10]} {len(left)}\n{second.output()[-3000:]}") from None
        swept = time.monotonic()
        dms = [
            call
            for call in slack.calls_to("chat.postMessage")
            if str(call.body.get("channel", "")).startswith((FIRST, SECOND))
        ]
        sent = rows(engine, venue, "sent")
        print(
            f"\nworker killed mid-sweep: {DUE} due holds swept and {len(sent)} notices sent "
            f"{swept - ready:.1f}s after the new worker started ({ready - killed:.1f}s to "
            f"start it); posts {len(dms)}, duplicates {len(dms) - len(sent)}"
        )
        told = {(n.recipient, n.hold_id) for n in sent}
        assert told >= {(f"{FIRST}{i:02d}", h) for i, h in enumerate(firsts)}, "each 1st told"
        assert len({n.recipient for n in sent} & {f"{SECOND}{i:02d}" for i in range(DUE)}) == DUE
        assert 0 <= len(dms) - len(sent) <= 1, "at most one duplicate for the one kill"
        assert swept - ready <= BACK_WITHIN
        assert second.stop(signal.SIGTERM) == 0, second.output()[-2000:]
    finally:
        locker.close()
        broker.client.close()
        engine.close()
