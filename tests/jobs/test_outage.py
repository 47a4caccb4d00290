"""Redis away for a while: holds are still taken; their notices go out once it is back."""

from __future__ import annotations

import logging
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot import ids
from bot.web import Server, build_wsgi
from cli import bootstrap, local_redis, localservices
from cli.bootstrap import Runtime
from cli.settings import Settings
from core.engine import HoldEngine
from core.model import Hold, Status, Venue
from core.results import RequestAnswer
from jobs.clock import Clock
from tests.bot.releasing import why
from tests.jobs.conftest import MovingClock, eventually
from tests.jobs.scenarios import FIRST, SECOND, quiet, rows
from tests.support import factories
from tests.support.slack_requests import block_actions, post, view_submission
from tests.support.slack_standin import SlackStandin

SECRET = "signing-secret-for-tests"


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[int, list[localservices.Service]]]:
    """A throwaway redis-server on a free port; the test stops and restarts it."""
    port = localservices.free_port()
    running = [local_redis.start_redis(tmp_path / "redis", port=port)]
    yield port, running
    for service in running:
        service.stop()


def released(engine: HoldEngine, venue: Venue, hold_id: int) -> bool:
    found = engine.hold(venue.id, hold_id)
    return isinstance(found, Hold) and found.status is Status.RELEASED


def health_status(url: str) -> int:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=10) as answer:  # noqa: S310
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return err.code


def test_holds_are_taken_while_redis_is_down_and_notices_arrive_after(
    engine: HoldEngine,
    venue: Venue,
    slack: SlackStandin,
    clock: MovingClock,
    settings: Settings,
    own_redis: tuple[int, list[localservices.Service]],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    venue = engine.save_venue(quiet(venue), now=clock())
    port, running = own_redis
    tuning = replace(settings.tuning, drain_every=0.5)
    settings = replace(settings, slack_signing_secret=SECRET, venue_id=venue.id, tuning=tuning)
    broker = bootstrap.broker(settings, running[0].url)  # its password too
    runtime = Runtime(settings, engine, broker, now=clock)
    worker = runtime.worker()
    worker.start()
    ticking = Clock(broker, lambda: {venue.id: venue.timezone}, tuning.schedule, now=clock)
    ticking.start()
    try:
        running.pop().stop()  # Redis goes away
        assert not localservices.redis_answers("127.0.0.1", port)

        started = time.monotonic()
        first = engine.request(venue.id, factories.request(salesperson=FIRST), now=clock())
        second = engine.request(venue.id, factories.request(salesperson=SECOND), now=clock())
        assert isinstance(first, RequestAnswer) and isinstance(second, RequestAnswer)
        assert (first.rank, second.rank) == (1, 2)
        runtime.on_notices()(venue.id)  # the hook itself never raises for a missing Redis
        with Server(build_wsgi(runtime.bot(), runtime.health)) as web:
            click = block_actions(ids.RELEASE, str(first.hold.id), user_id=FIRST)
            status, _, _ = post(f"{web.url}/slack/events", click, SECRET)
            assert status == 200
            opened = slack.wait_for("views.open", 1, timeout=10)[0]  # Release asks why
            dialog = slack.view(opened.response["view"]["id"])
            answer = view_submission(why("no_answer"), view=dialog, user_id=FIRST)
            assert post(f"{web.url}/slack/events", answer, SECRET)[0] == 200
            eventually(lambda: released(engine, venue, first.hold.id), what="released via Slack")
            assert health_status(web.url) == 503  # the web still works, but says Redis is away
        took = time.monotonic() - started
        outcomes = [getattr(r, "outcome", None) for r in caplog.records]
        assert "broker_unreachable" in outcomes  # logged by the hook, with the error
        assert not [r for r in caplog.records if r.getMessage() == "outbox.enqueue_failed"], (
            "the hook raised into the bot"
        )
        assert took < 8.0, f"taking holds waited {took:.1f}s on Redis"
        held = second.hold

        time.sleep(2.0)  # a while without Redis: clock ticks are lost, nothing is sent
        assert slack.calls_to("chat.postMessage") == []
        assert [n.hold_id for n in rows(engine, venue, "pending")] == [held.id]

        running.append(local_redis.start_redis(tmp_path / "redis", port=port))
        back = time.time()
        call = slack.wait_for("chat.postMessage", 1, timeout=20)[0]
        delay = call.at - back
        print(f"\nredis outage: notice delivered {delay:.2f}s after Redis came back")
        assert call.body["channel"] == SECOND
        eventually(lambda: len(rows(engine, venue, "sent")) == 1, what="row marked sent")
        assert rows(engine, venue, "pending") == []
    finally:
        ticking.stop()
        worker.stop(timeout=10_000)
        broker.client.close()
