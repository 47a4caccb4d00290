"""A worker killed with SIGKILL while it sends: the notice is sent after its lease runs out."""

from __future__ import annotations

import signal
import time
from datetime import UTC, datetime
from pathlib import Path

from cli import bootstrap
from cli.settings import Settings
from core.engine import HoldEngine
from core.model import Venue
from jobs.clock import Clock, Schedule
from tests.jobs.conftest import eventually
from tests.jobs.processes import Child, osae_env
from tests.jobs.scenarios import SECOND, a_month_after, promote, quiet, rows
from tests.support import factories
from tests.support.slack_standin import SlackStandin

LEASE = 4  # seconds
CLAIM_TO_POST = 1.0  # at most this long from claiming a row to its post reaching Slack


def test_a_worker_killed_mid_send_loses_nothing(
    fresh_db: str,
    own_engine: HoldEngine,
    redis_url: str,
    namespace: str,
    slack: SlackStandin,
    tmp_path: Path,
) -> None:
    engine = own_engine
    venue: Venue = engine.save_venue(quiet(factories.venue()), now=datetime.now(UTC))
    env = osae_env(
        DATABASE_URL=fresh_db,
        REDIS_URL=redis_url,
        OSAE_QUEUE_NAMESPACE=namespace,
        SLACK_BOT_TOKEN="xoxb-test",
        SLACK_API_URL=slack.base_url,
        OSAE_OUTBOX_LEASE_SECONDS=str(LEASE),
        OSAE_SLACK_TIMEOUT_SECONDS="2",
        OSAE_WORKER_THREADS="2",
    )
    broker = bootstrap.broker(Settings.from_env(env), redis_url)  # the workers' namespace
    # The test plays the clock: a safety-net drain every half second.
    ticking = Clock(broker, lambda: {venue.id: venue.timezone}, Schedule(drain_every=0.5))
    children: list[Child] = []
    try:
        first = Child(["worker"], env, tmp_path)
        children.append(first)
        first.wait_for_output("worker started")
        slack.delay_next("chat.postMessage", 10.0)  # Slack stores the post, then stalls
        now = datetime.now(UTC)
        held = promote(engine, venue, now, day=a_month_after(now))
        ticking.start()

        stalled = slack.wait_for("chat.postMessage", 1, timeout=15)[0]
        first.kill()
        killed_at = time.time()
        (leased,) = rows(engine, venue, "pending")
        assert leased.attempts == 1 and leased.hold_id == held.id

        second = Child(["worker"], env, tmp_path)
        children.append(second)
        calls = slack.wait_for("chat.postMessage", 2, timeout=30)
        resent = calls[1]
        eventually(lambda: len(rows(engine, venue, "sent")) == 1, timeout=10, what="sent")

        assert resent.ok and resent.body["channel"] == SECOND
        # The lease was taken when the worker claimed the row, a little before its post reached
        # the stand-in (rendering, the locale lookup): the bound allows for that, and still
        # fails a resend that did not wait for the lease (it would come at once).
        assert resent.at - stalled.at >= LEASE - CLAIM_TO_POST, (
            "sent again before the lease ran out"
        )
        (sent,) = rows(engine, venue, "sent")
        assert sent.sent_ref == resent.response["ts"] and sent.attempts == 2
        stored = slack.messages(slack.dm_channel(SECOND))
        duplicates = len(stored) - 1
        print(
            f"\nkill test: killed {killed_at - stalled.at:.2f}s into the send; resent "
            f"{resent.at - stalled.at:.2f}s after the first post; duplicates in Slack: "
            f"{duplicates}"
        )
        # The stand-in stored the first post before it stalled, as Slack would: at least once.
        assert duplicates == 1
        assert second.stop(signal.SIGTERM) == 0, second.output()[-2000:]
    finally:
        ticking.stop()
        for child in children:
            if child.proc.poll() is None:
                child.kill()
        broker.client.close()
