"""Helpers for packages (several rooms) and candidate dates over signed HTTP."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from bot import ids
from bot.notices import render_failure_report, render_notice
from cli import bootstrap
from jobs.delivery import Courier
from tests.bot.conftest import Harness, Values, slack_settings
from tests.support import slack_requests as sr


def row(key: int, room: str | None, start: str | None, end: str | None) -> Values:
    """A further room row's state.values, as Slack sends them."""
    return {
        ids.item_room(key): {ids.item_room(key): sr.select_value(room)},
        ids.item_start(key): {ids.item_start(key): sr.time_value(start)},
        ids.item_end(key): {ids.item_end(key): sr.time_value(end)},
    }


def block(view: dict[str, Any], block_id: str) -> dict[str, Any]:
    return next(b for b in view["blocks"] if b.get("block_id") == block_id)


def has_block(view: dict[str, Any], block_id: str) -> bool:
    return any(b.get("block_id") == block_id for b in view["blocks"])


def row_keys(view: dict[str, Any]) -> list[int]:
    return list(json.loads(view["private_metadata"]).get("k", []))


def press(
    bot: Harness,
    view_id: str,
    state: Values,
    action_id: str,
    value: str,
    block_id: str,
    *,
    user: str = sr.USER_ID,
) -> None:
    """A button inside the modal (add / remove a row), with the form's state; waits for the
    view to be drawn again."""
    updates = len(bot.slack.calls_to("views.update"))
    button = sr.action(action_id, value, block_id=block_id)
    body = sr.block_actions(
        actions=[button], view=bot.slack.view(view_id), values=state, user_id=user
    )
    status, _, answer = bot.post(body)
    assert status == 200, answer
    bot.slack.wait_for("views.update", updates + 1)


def add_row(bot: Harness, view_id: str, state: Values) -> None:
    press(bot, view_id, state, ids.ADD_ROOM, "add", ids.ROWS_ACTIONS)


def remove_row(bot: Harness, view_id: str, state: Values, key: int) -> None:
    press(bot, view_id, state, ids.REMOVE_ROOM, str(key), ids.remove_row(key))


def choose(bot: Harness, view_id: str, state: Values, changed: str) -> str:
    """An input changed; returns the preview line drawn for it."""
    updates = len(bot.slack.calls_to("views.update"))
    status, answer = bot.choose(view_id, state, changed)
    assert status == 200, answer
    bot.slack.wait_for("views.update", updates + 1)
    return bot.preview_text(view_id)


def courier(bot: Harness) -> Courier:
    """The jobs' outbox delivery, as Slack DMs to the stand-in."""
    return Courier(
        delivery=bot.engine.delivery,
        transport=bootstrap.transport(slack_settings(bot.slack), bot.engine),
        render=render_notice,
        render_report=render_failure_report,
        now=lambda: bot.clock[0],
        lease=timedelta(minutes=1),
        report_locale="ja",
    )
