"""The one error handler: engine trouble and bugs become a message with an id to quote.

Whatever went wrong, Slack gets a sentence, never a stack trace; the log gets the exception
with the same id. A request not yet acknowledged is answered in the HTTP response itself (a
modal shows it in place); one already acknowledged is answered on the side (ephemeral via
response_url, else a DM).
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from typing import Any

from slack_bolt import BoltResponse
from slack_sdk import WebClient
from slack_sdk.errors import SlackClientError
from slack_sdk.webhook import WebhookClient

from bot.texts import DEFAULT_LOCALE, esc, text
from bot.views.dialogs import info_modal

log = logging.getLogger("osae.bot")


class UserError(Exception):
    """Expected trouble a user can be told about plainly (no error id): a catalog key."""

    def __init__(self, key: str, **facts: Any) -> None:
        super().__init__(key)
        self.key = key
        self.facts = facts


class NoVenue(UserError):
    def __init__(self, team_id: str | None) -> None:
        super().__init__("error.no_venue")
        self.team_id = team_id


def error_handler(locale_of: Callable[[str], str]) -> Callable[..., BoltResponse | None]:
    """For ``app.error``; ``locale_of(user_id)`` picks the language of the answer."""

    def handle(
        error: Exception,
        body: dict[str, Any],
        response: BoltResponse | None,
        client: WebClient,
    ) -> BoltResponse | None:
        error_id = secrets.token_hex(4)
        user = _user(body)
        locale = _safe_locale(locale_of, user)
        if isinstance(error, UserError):
            log.warning(error.key, extra={"error_id": error_id, "user": user, **error.facts})
            facts = {k: esc(v) if isinstance(v, str) else v for k, v in error.facts.items()}
            message = text(locale, error.key, **facts)
        else:
            log.error(
                "bot.unexpected",
                exc_info=error,
                extra={"error_id": error_id, "user": user, "payload": _kind(body)},
            )
            message = text(locale, "error.unexpected", error_id=error_id)
        if response is not None:  # not acknowledged yet: the answer goes in the response
            return _answer(client, body, message, locale)
        _tell_later(client, body, user, message)
        return None

    return handle


def _answer(client: WebClient, body: dict[str, Any], message: str, locale: str) -> BoltResponse:
    if body.get("type") == "view_submission":  # shown in place of the modal
        view = info_modal(message, locale).to_dict()
        return _json({"response_action": "update", "view": view})
    if body.get("command"):  # a slash command's response body is an ephemeral message
        return _json({"response_type": "ephemeral", "text": message})
    _tell_later(client, body, _user(body), message)
    return BoltResponse(status=200, body="")


def _tell_later(client: WebClient, body: dict[str, Any], user: str, message: str) -> None:
    try:
        url = body.get("response_url")
        if url:
            WebhookClient(url).send(text=message, response_type="ephemeral", replace_original=False)
        elif user:
            client.chat_postMessage(channel=user, text=message)
    except (SlackClientError, OSError) as err:
        log.warning("bot.error_not_told", extra={"user": user, "error": str(err)})


def _json(data: dict[str, Any]) -> BoltResponse:
    return BoltResponse(
        status=200,
        body=json.dumps(data, ensure_ascii=False),
        headers={"content-type": "application/json;charset=utf-8"},
    )


def _user(body: dict[str, Any]) -> str:
    user = body.get("user")
    if isinstance(user, dict):
        return str(user.get("id") or "")
    event = body.get("event")
    if isinstance(event, dict) and event.get("user"):
        return str(event["user"])
    return str(body.get("user_id") or user or "")


def _kind(body: dict[str, Any]) -> str:
    event = body.get("event")
    return str(body.get("type") or body.get("command") or (event or {}).get("type") or "")


def _safe_locale(locale_of: Callable[[str], str], user: str) -> str:
    try:
        return locale_of(user) if user else DEFAULT_LOCALE
    except Exception:  # noqa: BLE001 - telling the user must not fail on the language
        return DEFAULT_LOCALE
