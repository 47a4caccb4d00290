"""Talking back to Slack after an action, with the fallbacks a real workspace needs.

The bot may not be a member of the channel /hold was typed in; a response_url expires; a
trigger id lasts three seconds. Each function here tries the natural way first and falls
back to one that always works (a DM from the app needs only ``chat:write``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.web import SlackResponse
from slack_sdk.webhook import WebhookClient

from bot.metadata import Meta, Source
from bot.texts import text
from bot.views.dialogs import info_modal
from bot.views.messages import Message
from core.notices import CardSpot

log = logging.getLogger("osae.bot")


def post_result(
    client: WebClient, meta: Meta, user: str, message: Message, *, thread: str | None = None
) -> CardSpot | None:
    """Post where /hold was typed; not a member there: the command's response_url; else a DM.
    Returns where the card went when it went where /hold was typed (its changes redraw it).
    ``thread``: in that card's thread (an edit's new hold), shown in the channel too."""
    channel = meta.channel
    if channel:
        in_thread: dict[str, Any] = {"thread_ts": thread, "reply_broadcast": True} if thread else {}
        posted = _posted(
            "slack.post_failed",
            lambda: client.chat_postMessage(
                channel=channel, text=message.text, blocks=message.blocks, **in_thread
            ),
        )
        if posted is not None:
            return posted
    fields = {"text": message.text, "blocks": message.blocks}
    if meta.response_url and _webhook(meta.response_url, response_type="in_channel", **fields):
        return None
    if not channel:  # opened from App Home: the DM is the natural place
        client.chat_postMessage(channel=user, text=message.text, blocks=message.blocks)
        return None
    lead = text(meta.locale, "posted.fallback", channel=channel)
    client.chat_postMessage(channel=user, text=f"{lead}\n{message.text}", blocks=message.blocks)
    return None


def replace_message(client: WebClient, source: Source, message: Message) -> None:
    """Update the clicked message in place (chat.update; an ephemeral one via response_url)."""
    channel, ts = source.channel, source.ts
    if (
        not source.ephemeral
        and channel
        and ts
        and _attempt(
            "slack.update_failed",
            lambda: client.chat_update(
                channel=channel, ts=ts, text=message.text, blocks=message.blocks
            ),
        )
    ):
        return
    if source.response_url:
        _webhook(
            source.response_url, replace_original=True, text=message.text, blocks=message.blocks
        )


def tell(
    client: WebClient,
    user: str,
    message: str,
    locale: str,
    *,
    response_url: str | None = None,
    trigger_id: str | None = None,
) -> None:
    """Tell only the clicker: ephemeral in the conversation, a small modal from App Home, or DM."""
    if response_url and _webhook(
        response_url, text=message, response_type="ephemeral", replace_original=False
    ):
        return
    info = info_modal(message, locale).to_dict()
    if trigger_id and _attempt(  # the trigger lasts 3 s; past that, a DM
        "slack.info_modal_failed", lambda: client.views_open(trigger_id=trigger_id, view=info)
    ):
        return
    client.chat_postMessage(channel=user, text=message)


def _attempt(failure: str, call: Callable[[], object]) -> bool:
    """Run one Web API call; a refusal (not_in_channel, expired trigger...) is logged, False."""
    try:
        call()
    except SlackApiError as err:
        log.warning(failure, extra={"error": _err(err)})
        return False
    return True


def _posted(failure: str, call: Callable[[], SlackResponse]) -> CardSpot | None:
    """Like ``_attempt``, with where the message went (its channel and ts)."""
    try:
        answer = call()
    except SlackApiError as err:
        log.warning(failure, extra={"error": _err(err)})
        return None
    return CardSpot(str(answer["channel"]), str(answer["ts"]))


def _webhook(url: str, **fields: Any) -> bool:
    try:
        answer = WebhookClient(url, timeout=10).send_dict(fields)
    except (SlackClientError, OSError) as err:
        log.warning("slack.response_url_failed", extra={"error": str(err)})
        return False
    if answer.status_code != 200:
        log.warning(
            "slack.response_url_failed", extra={"status": answer.status_code, "body": answer.body}
        )
        return False
    return True


def _err(err: SlackApiError) -> str:
    return str(err.response.get("error") if err.response is not None else err)
