"""Fixtures for the jobs: a real Redis, a Dramatiq namespace per test, the Slack stand-in,
a runtime whose clock starts at the engine tests' NOW and moves with real time."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
import redis

from cli import bootstrap, local_redis, localservices
from cli.bootstrap import Runtime
from cli.settings import Settings, Tuning
from core.db import create_engine
from core.engine import HoldEngine
from tests.jobs import processes
from tests.support import databases, factories
from tests.support.engines import EngineForTests
from tests.support.slack_standin import SlackStandin

LOCAL_REDIS = "redis://127.0.0.1:6379/0"
SALES_CHANNEL = "C0SALES01"


class MovingClock:
    """Starts at ``start`` and moves on with real time, so Retry-After waits are real."""

    def __init__(self, start: datetime) -> None:
        self.start = start
        self.t0 = time.monotonic()

    def __call__(self) -> datetime:
        return self.start + timedelta(seconds=time.monotonic() - self.t0)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """REDIS_URL, else the machine's Redis, else a throwaway one for this run (always with
    ``OSAE_TEST_REDIS=throwaway``: the fresh-machine path), removed when the run ends."""
    throwaway = os.environ.get("OSAE_TEST_REDIS") == "throwaway"
    if os.environ.get("REDIS_URL") and not throwaway:
        yield os.environ["REDIS_URL"]
        return
    if not throwaway and localservices.redis_answers("127.0.0.1", 6379):
        yield LOCAL_REDIS
        return
    url, discard = databases.throwaway_service(local_redis.start_redis, "osae-redis-")
    yield url
    discard()


@pytest.fixture(autouse=True)
def _no_child_left_running() -> Iterator[None]:
    yield
    processes.stop_leftovers()


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """`osae serve`'s data folder, under /tmp itself: as root, PostgreSQL runs as its own
    account, which cannot enter pytest's private tmp_path (osae would then place the cluster
    under /var/lib/osae-local: right, but slower to clean up)."""
    parent = Path(tempfile.mkdtemp(prefix="osae-serve-"))
    parent.chmod(0o755)
    yield parent / "data"
    shutil.rmtree(parent, ignore_errors=True)


@pytest.fixture
def own_engine(fresh_db: str) -> Iterator[HoldEngine]:
    """An engine of its own on an empty database, as `osae` processes build it (with admission)."""
    engine = EngineForTests(create_engine(fresh_db, pool_size=2))  # as bootstrap.hold_engine
    yield engine
    engine.close()


@pytest.fixture
def namespace(redis_url: str) -> Iterator[str]:
    """A Dramatiq namespace of this test's own: no test sees another's messages."""
    name = f"osae-test-{uuid.uuid4().hex[:10]}"
    yield name
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(f"{name}*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def slack() -> Iterator[SlackStandin]:
    with SlackStandin() as standin:
        yield standin


@pytest.fixture
def clock() -> MovingClock:
    return MovingClock(factories.NOW)


@pytest.fixture
def tuning(namespace: str) -> Tuning:
    return Tuning(
        namespace=namespace,
        worker_threads=4,
        lease=timedelta(seconds=5),
        slack_timeout=2,
        drain_every=1.0,
    )


def slack_env(slack: SlackStandin) -> dict[str, str]:
    return {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_API_URL": slack.base_url,
        "OSAE_SALES_CHANNEL": SALES_CHANNEL,
    }


@pytest.fixture
def settings(slack: SlackStandin, tuning: Tuning) -> Settings:
    return replace(Settings.from_env(slack_env(slack)), tuning=tuning)


@pytest.fixture
def runtime(
    engine: HoldEngine, settings: Settings, redis_url: str, clock: MovingClock
) -> Iterator[Runtime]:
    broker = bootstrap.broker(settings, redis_url)
    yield Runtime(settings, engine, broker, now=clock)
    broker.close()
    broker.client.close()


@pytest.fixture
def worker(runtime: Runtime) -> Iterator[Runtime]:
    """A real Dramatiq worker in this process, retrying transient errors after ~0.3 s."""
    courier = replace(runtime.courier(), backoff_base=0.3)
    worker = runtime.worker(courier)
    worker.start()
    yield runtime
    worker.stop(timeout=10_000)


def eventually(check: Callable[[], bool], timeout: float = 10.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached in {timeout}s")
        time.sleep(0.05)


def settle(runtime: Runtime) -> None:
    """Wait until the worker has taken every queued message (and finished, give or take)."""
    for queue in ("holds", "notices"):
        runtime.broker.join(queue, timeout=10_000)
    time.sleep(0.5)
