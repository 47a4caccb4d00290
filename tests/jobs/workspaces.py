"""Two workspaces that install osae through Bolt's OAuth flow on the real HTTP endpoint
(``two``), with the Runtime in many-workspaces mode, for the tests of issue 29."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest

from bot.web import Server, build_wsgi
from cli import bootstrap
from cli.bootstrap import Runtime
from cli.settings import Settings, Tuning
from core.engine import HoldEngine
from core.model import Venue
from tests.jobs.conftest import MovingClock
from tests.support import factories
from tests.support import slack_requests as sr
from tests.support.slack_oauth import CLIENT_ID, CLIENT_SECRET
from tests.support.slack_standin import Call, SlackStandin

SECRET = "many-workspaces-signing-secret"
INSTALLER_A, INSTALLER_B = "U0HOTELA1", "U0HOTELB1"


@dataclass
class Two:
    url: str
    slack: SlackStandin
    runtime: Runtime
    team_a: str
    team_b: str
    hotel_a: Venue
    hotel_b: Venue
    team_c: str  # a third workspace no venue is linked to: it sets one up in Slack

    def post(self, body: bytes) -> tuple[int, str]:
        status, _, answer = sr.post(f"{self.url}/slack/events", body, SECRET)
        return status, answer

    def command(self, team: str, user: str) -> tuple[int, str]:
        body = sr.slash_command(
            team_id=team, user_id=user, response_url=self.slack.response_url(team)
        )
        status, _, answer = sr.post(f"{self.url}/slack/events", body, SECRET)
        return status, answer

    def token(self, team: str) -> str:
        return self.slack.installs.tokens_of(team)[-1]


def bearer(call: Call) -> str:
    return (call.header("Authorization") or "").removeprefix("Bearer ")


@pytest.fixture
def two(
    engine: HoldEngine,
    slack: SlackStandin,
    tuning: Tuning,
    redis_url: str,
    db_url: str,
    clock: MovingClock,
) -> Iterator[Two]:
    team_a, team_b, team_c = (f"T0{side}{secrets.token_hex(4).upper()}" for side in "ABC")
    hotel_a = engine.save_venue(
        factories.venue(name="ホテルA", sales_channel="C0HOTELA"), now=clock()
    )
    hotel_b = engine.save_venue(
        factories.venue(name="ホテルB", sales_channel="C0HOTELB"), now=clock()
    )
    env = {
        "SLACK_CLIENT_ID": CLIENT_ID,
        "SLACK_CLIENT_SECRET": CLIENT_SECRET,
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": slack.base_url,
        "OSAE_VENUES": f"{team_a}={hotel_a.id},{team_b}={hotel_b.id}",
    }
    settings = replace(Settings.from_env(env), tuning=tuning)
    broker = bootstrap.broker(settings, redis_url)
    runtime = Runtime(settings, engine, broker, now=clock, database_url=db_url)
    app = runtime.bot()
    with Server(build_wsgi(app, runtime.health), threads=8) as server:
        yield Two(server.url, slack, runtime, team_a, team_b, hotel_a, hotel_b, team_c)
        app.after.drain()
    runtime.stores().close()
    broker.close()
    broker.client.close()
