"""The bot on a real HTTP endpoint (waitress on a free port), the Slack stand-in for the Web
API, real PostgreSQL: requests go in signed exactly as Slack signs them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from bot import ids
from bot.app import BotApp
from bot.web import Server, build_wsgi
from bot.workspaces import VenueResolver
from cli import bootstrap
from cli.settings import Settings
from core.engine import HoldEngine
from core.model import Venue
from tests.support import fingerprint
from tests.support import slack_requests as sr
from tests.support.factories import DAY, MANAGER, NOW
from tests.support.slack_standin import Call, SlackStandin

SECRET = "test-signing-secret"
ENGLISH_USER = "U0ENGLISH1"
STRANGER = "U0STRANGER"
Values = dict[str, dict[str, Any]]


@dataclass
class Harness:
    url: str
    slack: SlackStandin
    engine: HoldEngine
    venue: Venue
    db: sa.Engine
    app: BotApp | None = None
    enqueued: list[str] = field(default_factory=list)
    clock: list[datetime] = field(default_factory=lambda: [NOW])
    enqueue_error: Exception | None = None  # what on_notices raises (Redis down), if anything

    @property
    def events_url(self) -> str:
        return f"{self.url}/slack/events"

    def post(self, body: bytes, **options: Any) -> tuple[int, dict[str, str], str]:
        return sr.post(self.events_url, body, SECRET, **options)

    def command(self, text: str = "", *, user: str = sr.USER_ID, name: str = "cmd") -> str:
        """Type ``/hold text``; returns the id of the modal it opened (after views.update)."""
        before = len(self.slack.calls_to("views.update"))
        opens = len(self.slack.calls_to("views.open"))
        body = sr.slash_command(text=text, user_id=user, response_url=self.slack.response_url(name))
        status, _, answer = self.post(body)
        assert status == 200, answer
        opened = self.slack.wait_for("views.open", opens + 1)[-1]
        self.slack.wait_for("views.update", before + 1)
        return str(opened.response["view"]["id"])

    def choose(
        self, view_id: str, values: Values, changed: str, *, user: str = sr.USER_ID
    ) -> tuple[int, str]:
        """A dispatch action from the modal: ``changed`` (a block id) was just set."""
        body = sr.block_actions(
            actions=[sr.changed(values, changed)],
            view=self.slack.view(view_id),
            values=values,
            user_id=user,
        )
        status, _, answer = self.post(body)
        return status, answer

    def submit(
        self, view_id: str, values: Values, *, user: str = sr.USER_ID
    ) -> tuple[int, dict[str, Any]]:
        body = sr.view_submission(values, view=self.slack.view(view_id), user_id=user)
        status, _, answer = self.post(body)
        return status, json.loads(answer) if answer else {}

    def settle(self) -> None:
        """Wait until the work the bot does after its acks is done."""
        assert self.app is not None and self.app.after.drain(), "after-ack work still running"

    def fingerprint(self) -> dict[str, str]:
        """Every table's contents (this venue's rows), to compare before and after; the work
        earlier requests left after their acks (App Homes published, names cached) done."""
        if self.app is not None:
            self.settle()
        return fingerprint.tables(self.db, self.venue.id)

    def preview_text(self, view_id: str) -> str:
        blocks = self.slack.view(view_id)["blocks"]
        block = next(b for b in blocks if b.get("block_id") == ids.PREVIEW)
        return str(block["elements"][0]["text"])


def values(
    room: str | None = "hoo",
    day: date | str | None = DAY,
    start: str | None = "11:00",
    end: str | None = "15:00",
    kind: str | None = "wedding",
    customer: str | None = "山田様",
    salesperson: str | None = sr.USER_ID,
    note: str | None = None,
) -> Values:
    """The modal's state.values, as Slack sends them."""
    return {
        ids.ROOM: {ids.ROOM: sr.select_value(room)},
        ids.DATE: {ids.DATE: sr.date_value(day)},
        ids.START: {ids.START: sr.time_value(start)},
        ids.END: {ids.END: sr.time_value(end)},
        ids.KIND: {ids.KIND: sr.select_value(kind, kind="radio_buttons")},
        ids.CUSTOMER: {ids.CUSTOMER: sr.text_value(customer)},
        ids.SALESPERSON: {ids.SALESPERSON: sr.user_value(salesperson, "users_select")},
        ids.NOTE: {ids.NOTE: sr.text_value(note)},
    }


class PatientStandin(SlackStandin):
    """Waits longer than the stand-in's default: a busy CI machine is slow, not wrong."""

    def wait_for(
        self,
        method: str,
        count: int = 1,
        timeout: float = 20.0,
        predicate: Callable[[Call], bool] | None = None,
    ) -> list[Call]:
        return super().wait_for(method, count, timeout, predicate)


def slack_settings(slack: SlackStandin) -> Settings:
    """What the bot is configured with: the stand-in's URL, a token, the signing secret."""
    env = {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_API_URL": slack.base_url}
    return Settings.from_env({**env, "SLACK_SIGNING_SECRET": SECRET})


@pytest.fixture
def slack() -> Iterator[SlackStandin]:
    with PatientStandin() as standin:
        for user in (sr.USER_ID, MANAGER, STRANGER, "U0SALES001"):
            standin.set_user(user, locale="ja-JP")
        standin.set_user(ENGLISH_USER, locale="en-US")
        yield standin
        assert standin.errors == []


@pytest.fixture
def bot(
    request: pytest.FixtureRequest,
    engine: HoldEngine,
    venue: Venue,
    slack: SlackStandin,
    sa_engine: sa.Engine,
) -> Iterator[Harness]:
    """The bot on waitress; ``parametrize("bot", [True], indirect=True)`` runs it with
    ``process_before_response`` (acks after the listener returns, as on FaaS)."""
    harness = Harness(url="", slack=slack, engine=engine, venue=venue, db=sa_engine)
    lock = threading.Lock()

    def enqueue(venue_id: str) -> None:
        with lock:
            harness.enqueued.append(venue_id)
        if harness.enqueue_error is not None:
            raise harness.enqueue_error

    settings = slack_settings(slack)
    app = bootstrap.bot_app(
        engine,
        settings,
        client=bootstrap.slack_client(settings),
        venues=VenueResolver(default=venue.id),
        now=lambda: harness.clock[0],
        on_notices=enqueue,
        process_before_response=getattr(request, "param", False),
    )
    harness.app = app
    wsgi = build_wsgi(app, health=lambda: (True, {"db": "ok"}))
    with Server(wsgi, threads=8) as server:
        harness.url = server.url
        yield harness
        app.after.drain()  # nothing of this test may still be talking to Slack after it


def unlinked_app(
    engine: HoldEngine,
    slack: SlackStandin,
    *,
    process_before_response: bool = False,
    venues: VenueResolver | None = None,
) -> BotApp:
    """The bot as a workspace no venue is linked to sees it (OSAE_VENUES names another), or
    with ``venues``, one whose venue is not in the database."""
    settings = slack_settings(slack)
    return bootstrap.bot_app(
        engine,
        settings,
        client=bootstrap.slack_client(settings),
        venues=venues or VenueResolver(by_team={"T0OTHER": "somewhere"}),
        now=lambda: NOW,
        process_before_response=process_before_response,
    )


def click(
    bot: Harness,
    action_id: str,
    hold_id: int,
    *,
    channel: str,
    ts: str,
    user: str = sr.USER_ID,
    name: str = "click",
) -> tuple[int, str]:
    """A click on a button of the stored message ``channel``/``ts``."""
    message = bot.slack.message(channel, ts)
    assert message is not None, "no such message"
    button = sr.action(action_id, str(hold_id), block_id=ids.card_actions(hold_id))
    body = sr.block_actions(
        actions=[button],
        message=message,
        channel_id=channel,
        user_id=user,
        response_url=bot.slack.response_url(name, channel=channel, ts=ts),
    )
    status, _, answer = bot.post(body)
    return status, answer
