"""The HTTP endpoint: Slack's signature checked, health, and nothing else served."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest

from bot.web import Server, build_wsgi
from bot.workspaces import VenueResolver
from cli import bootstrap
from core.engine import HoldEngine
from tests.bot.conftest import Harness, slack_settings, values
from tests.support import slack_requests as sr
from tests.support.slack_standin import SlackStandin


def get(url: str) -> tuple[int, dict[str, object]]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:  # noqa: S310 - a local test URL
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize(
    "forge",
    [
        {"signature": ""},  # unsigned
        {"signature": "v0=" + "0" * 64},  # signed with the wrong secret
        {"timestamp": int(time.time()) - 6 * 60},  # correctly signed, six minutes old
    ],
    ids=["unsigned", "wrong-signature", "too-old"],
)
def test_requests_not_signed_by_slack_get_401_and_change_nothing(
    bot: Harness, forge: dict[str, object]
) -> None:
    submission = sr.view_submission(values(), view_id="V0FORGED01", callback_id="hold_modal")
    for body in (sr.slash_command(text="鳳凰 3/10 11-15 婚礼 山田様"), submission):
        status, _, _ = bot.post(body, **forge)
        assert status == 401
    time.sleep(0.2)  # anything the bot would have done after an ack has had its chance
    assert bot.slack.calls == []
    assert bot.engine.holds(bot.venue.id) == []


def test_a_correctly_signed_request_is_accepted_even_four_minutes_old(bot: Harness) -> None:
    body = sr.slash_command(text="help")
    status, _, answer = bot.post(body, timestamp=int(time.time()) - 4 * 60)
    assert status == 200 and "/hold list" in answer


def test_health_is_200_when_healthy_and_503_when_not(
    engine: HoldEngine, slack: SlackStandin
) -> None:
    state = {"ok": True}
    settings = slack_settings(slack)
    app = bootstrap.bot_app(
        engine,
        settings,
        client=bootstrap.slack_client(settings),
        venues=VenueResolver(default="none"),
        now=time.time,  # type: ignore[arg-type]
    )

    def health() -> tuple[bool, dict[str, object]]:
        if state.get("boom"):
            raise RuntimeError("database gone")
        return bool(state["ok"]), {"db": "ok" if state["ok"] else "down"}

    with Server(build_wsgi(app, health)) as server:
        assert get(f"{server.url}/healthz") == (200, {"ok": True, "db": "ok"})
        state["ok"] = False
        assert get(f"{server.url}/healthz") == (503, {"ok": False, "db": "down"})
        state["boom"] = True
        assert get(f"{server.url}/healthz") == (503, {"ok": False, "error": "RuntimeError"})
        assert get(f"{server.url}/nothing-here")[0] == 404
        assert get(f"{server.url}/slack/events")[0] == 404  # Slack only POSTs


def test_events_api_url_verification_echoes_the_challenge(bot: Harness) -> None:
    status, _, answer = bot.post(sr.url_verification("the-challenge"))
    assert status == 200 and json.loads(answer) == {"challenge": "the-challenge"}
