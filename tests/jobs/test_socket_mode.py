"""Socket Mode end to end: `osae web` with SLACK_APP_TOKEN against a local stand-in of
apps.connections.open and its WebSocket. A /hold, a modal submission and a button click
arrive as Slack's envelopes and are acknowledged within 3 s; a dropped socket and Slack's
refresh both end in a new connection that works."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest

from bot import ids
from cli import localservices
from core.engine import HoldEngine
from core.model import Hold, Status, Venue
from tests.bot.conftest import values
from tests.bot.releasing import why
from tests.jobs.conftest import eventually
from tests.jobs.processes import Child, osae_env
from tests.jobs.scenarios import a_month_after
from tests.support import factories
from tests.support import slack_requests as sr
from tests.support.slack_standin import SlackStandin
from tests.support.socket_mode_standin import APP_TOKEN, SocketModeStandin

SLACK_LIMIT = 3.0  # seconds Slack waits for an ack before it tells the user it failed


@pytest.fixture
def socket_mode(slack: SlackStandin) -> Iterator[SocketModeStandin]:
    with SocketModeStandin(slack) as standin:
        yield standin


def slash(slack: SlackStandin, text: str = "") -> dict[str, Any]:
    """A /hold as Socket Mode carries it: the slash command's fields as a JSON object."""
    body = sr.slash_command(text=text, response_url=slack.response_url("hold"))
    return dict(parse_qsl(body.decode()))


def holds(engine: HoldEngine, venue: Venue) -> list[Hold]:
    found = engine.holds(venue.id)
    assert isinstance(found, list)
    return found


def test_socket_mode_commands_forms_and_buttons_are_acked_and_a_dropped_socket_reconnects(
    fresh_db: str,
    own_engine: HoldEngine,
    redis_url: str,
    namespace: str,
    slack: SlackStandin,
    socket_mode: SocketModeStandin,
    tmp_path: Path,
) -> None:
    venue = own_engine.save_venue(factories.venue(), now=datetime.now(UTC))
    slack.set_user(sr.USER_ID, locale="en-US")
    env = osae_env(
        DATABASE_URL=fresh_db,
        REDIS_URL=redis_url,
        OSAE_QUEUE_NAMESPACE=namespace,
        OSAE_VENUE=venue.id,
        SLACK_BOT_TOKEN="xoxb-test",
        SLACK_APP_TOKEN=APP_TOKEN,
        SLACK_API_URL=slack.base_url,
        PORT=str(localservices.free_port()),
    )
    web = Child(["web"], env, tmp_path / "logs")
    web.wait_for_output("Socket Mode", timeout=60)
    socket_mode.wait_for_connections(1)

    command = socket_mode.request("slash_commands", slash(slack))
    assert command.within(SLACK_LIMIT), command.seconds
    opened = slack.wait_for("views.open", 1, timeout=10)[0]
    view_id = str(opened.response["view"]["id"])
    slack.wait_for("views.update", 1, timeout=10)  # the form replaces the loading view

    form = values(day=a_month_after(datetime.now(UTC)), salesperson=sr.USER_ID)
    submission = sr.payload_of(sr.view_submission(form, view=slack.view(view_id)))
    submitted = socket_mode.request("interactive", submission)
    assert submitted.within(SLACK_LIMIT), submitted.seconds
    assert (submitted.payload or {}).get("response_action") != "errors", submitted.payload
    eventually(lambda: len(holds(own_engine, venue)) == 1, what="the hold is written")
    (held,) = holds(own_engine, venue)
    assert held.rank == 1 and held.salesperson == sr.USER_ID

    card = slack.wait_for(
        "chat.postMessage", 1, timeout=10, predicate=lambda c: c.body["channel"] == sr.CHANNEL_ID
    )[0]
    channel, ts = str(card.response["channel"]), str(card.response["ts"])
    button = sr.action(ids.RELEASE, str(held.id), block_id=ids.card_actions(held.id))
    click = sr.block_actions(
        actions=[button],
        message=slack.message(channel, ts),
        channel_id=channel,
        response_url=slack.response_url("click", channel=channel, ts=ts),
    )
    clicked = socket_mode.request(
        "interactive", sr.payload_of(click), accepts_response_payload=False
    )
    assert clicked.within(SLACK_LIMIT), clicked.seconds
    asks = lambda c: c.body["view"]["callback_id"] == ids.RELEASE_MODAL  # noqa: E731
    opened = slack.wait_for("views.open", 1, timeout=10, predicate=asks)[0]  # Release asks why
    dialog = sr.view_submission(why("budget"), view=slack.view(opened.response["view"]["id"]))
    answered = socket_mode.request("interactive", sr.payload_of(dialog))
    assert answered.within(SLACK_LIMIT), answered.seconds
    eventually(
        lambda: holds(own_engine, venue)[0].status is Status.RELEASED, what="released by click"
    )

    dropped_at = time.monotonic()
    socket_mode.drop()
    socket_mode.wait_for_connections(2, timeout=60)
    back_after = time.monotonic() - dropped_at
    again = socket_mode.request("slash_commands", slash(slack))
    assert again.within(SLACK_LIMIT), again.seconds
    socket_mode.refresh()
    socket_mode.wait_for_connections(3, timeout=60)
    after_refresh = socket_mode.request("slash_commands", slash(slack))
    assert after_refresh.within(SLACK_LIMIT), after_refresh.seconds
    assert slack.wait_for("views.open", 3, timeout=10)
    assert socket_mode.opened == 3 and socket_mode.refused == []
    print(
        f"\nsocket mode acks: /hold {command.seconds:.3f}s, submission "
        f"{submitted.seconds:.3f}s, click {clicked.seconds:.3f}s; a dropped socket replaced "
        f"after {back_after:.1f}s, then {again.seconds:.3f}s; after a refresh "
        f"{after_refresh.seconds:.3f}s"
    )
    assert web.stop(signal.SIGINT) == 0, web.output()[-2000:]
