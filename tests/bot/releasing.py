"""Releasing through Slack as people do: Release clicked, its dialog answered (a reason of
the list, a note) and submitted over signed HTTP."""

from __future__ import annotations

from typing import Any

from bot import ids
from tests.bot.conftest import Harness, click
from tests.support import slack_requests as sr


def why(reason: str | None, note: str | None = None) -> dict[str, dict[str, Any]]:
    """The release dialog's state.values, as Slack sends them."""
    return {
        ids.RELEASE_REASON: {ids.RELEASE_REASON: sr.select_value(reason)},
        ids.RELEASE_NOTE: {ids.RELEASE_NOTE: sr.text_value(note)},
    }


def open_release(
    bot: Harness, hold_id: int, *, channel: str, ts: str, user: str = sr.USER_ID
) -> dict[str, Any]:
    """Click Release on the card ``channel``/``ts``; the dialog it opened (as stored)."""
    opens = len(bot.slack.calls_to("views.open"))
    status, _ = click(bot, ids.RELEASE, hold_id, channel=channel, ts=ts, user=user)
    assert status == 200
    opened = bot.slack.wait_for("views.open", opens + 1)[-1]
    assert opened.body["view"]["callback_id"] == ids.RELEASE_MODAL
    return bot.slack.view(opened.response["view"]["id"])


def submit_release(
    bot: Harness,
    dialog: dict[str, Any],
    reason: str | None,
    note: str | None = None,
    *,
    user: str = sr.USER_ID,
) -> tuple[int, str]:
    """Submit the release dialog with ``reason`` (a code) and ``note``; the raw answer."""
    body = sr.view_submission(why(reason, note), view=dialog, user_id=user)
    status, _, answer = bot.post(body)
    return status, answer


def release(
    bot: Harness,
    hold_id: int,
    *,
    channel: str,
    ts: str,
    user: str = sr.USER_ID,
    reason: str = "budget",
    note: str | None = None,
) -> None:
    """Release ``hold_id`` from its card with ``reason``; waits for the card's redraw."""
    updates = len(bot.slack.calls_to("chat.update"))
    dialog = open_release(bot, hold_id, channel=channel, ts=ts, user=user)
    assert submit_release(bot, dialog, reason, note, user=user) == (200, "")
    bot.slack.wait_for("chat.update", updates + 1)
