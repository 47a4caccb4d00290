"""Trouble: users get a sentence with an error id (never a trace), the log gets the trace."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot import ids
from bot.metadata import Meta
from bot.web import Server, build_wsgi
from bot.workspaces import VenueResolver
from core.engine import HoldEngine
from core.model import Status
from tests.bot.conftest import SECRET, Harness, unlinked_app, values
from tests.bot.releasing import release
from tests.support import slack_requests as sr
from tests.support.slack_standin import SlackStandin

ERROR_ID = re.compile(r"エラーID `([0-9a-f]{8})`")


def boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("the database went away")


def logged_ids(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.__dict__["error_id"]
        for r in caplog.records
        if r.getMessage() == "bot.unexpected" and r.exc_info
    ]


def test_an_engine_failure_on_submit_shows_an_error_id_in_the_modal(
    bot: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    view_id = bot.command()
    monkeypatch.setattr(bot.engine.writes, "request", boom)
    status, answer = bot.submit(view_id, values())

    assert status == 200
    assert answer["response_action"] == "update"
    shown = json.dumps(answer["view"], ensure_ascii=False)
    match = ERROR_ID.search(shown)
    assert match is not None
    assert "Traceback" not in shown and "database went away" not in shown
    assert match.group(1) in logged_ids(caplog)


def test_a_failure_after_the_ack_is_told_on_the_side_with_its_id(
    bot: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(bot.engine.reads, "holds", boom)
    body = sr.slash_command(text="list", response_url=bot.slack.response_url("list"))
    status, _, answer = bot.post(body)
    assert (status, answer) == (200, "")

    told = bot.slack.wait_for("response_url")[0].body
    assert told["response_type"] == "ephemeral"
    match = ERROR_ID.search(told["text"])
    assert match is not None and match.group(1) in logged_ids(caplog)


def test_holds_still_work_when_the_jobs_queue_is_down(
    bot: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    bot.enqueue_error = ConnectionError("Redis is down")
    view_id = bot.command()
    bot.submit(view_id, values())
    post = bot.slack.wait_for("chat.postMessage")[0]
    (hold,) = bot.engine.holds(bot.venue.id)  # type: ignore[misc]

    release(bot, hold.id, channel=post.response["channel"], ts=post.response["ts"])
    assert bot.engine.hold(bot.venue.id, hold.id).status is Status.RELEASED  # type: ignore[union-attr]
    assert bot.enqueued == [bot.venue.id]
    assert any(r.getMessage() == "outbox.enqueue_failed" for r in caplog.records)
    assert bot.slack.responses("click") == []  # nobody was shown an error


def test_a_workspace_without_a_venue_is_told_so(engine: HoldEngine, slack: SlackStandin) -> None:
    app = unlinked_app(engine, slack)
    with Server(build_wsgi(app, lambda: (True, {}))) as server:
        body = sr.slash_command(response_url=slack.response_url("cmd"))
        status, _, _ = sr.post(f"{server.url}/slack/events", body, SECRET)
        assert status == 200
        told = slack.wait_for("response_url")[0].body
    assert "会場に結び付けられていません" in told["text"]
    assert slack.calls_to("views.open") == []  # no modal that could not be filled


def test_a_submission_for_a_venue_never_loaded_is_told_how_to_load_it(
    engine: HoldEngine, slack: SlackStandin
) -> None:
    """The venue is configured (OSAE_VENUE) but was never loaded: the submission is
    refused in the modal with the command that would load it, and nothing is written."""
    app = unlinked_app(engine, slack, venues=VenueResolver(default="never-loaded"))
    with Server(build_wsgi(app, lambda: (True, {}))) as server:
        body = sr.view_submission(
            values(),
            callback_id=ids.HOLD_MODAL,
            private_metadata=Meta(channel=sr.CHANNEL_ID).dump(),
        )
        status, _, answer = sr.post(f"{server.url}/slack/events", body, SECRET)
    assert status == 200
    assert "never-loaded" in answer and "osae venue load" in answer
    assert "Traceback" not in answer
    assert engine.venue("never-loaded") is None
    assert slack.calls_to("chat.postMessage") == []
