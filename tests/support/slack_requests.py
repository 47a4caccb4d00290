"""Requests as Slack sends them to an app, signed as Slack signs them.

Slash commands and interactivity payloads are form bodies (``payload=<urlencoded JSON>`` for
the latter); Events API callbacks are JSON. Builders return the body bytes; :func:`sign` gives
the headers and :func:`post` sends both to the app's real HTTP endpoint.

    body = slash_command(text="鳳凰の間", response_url=slack.response_url("hold"))
    status, headers, text = post(app_url, body, SECRET)

The identity (team, app, bot) is the one :mod:`tests.support.slack_standin` plays.
State values for :func:`view_submission` are built with :func:`text_value`,
:func:`select_value`, :func:`date_value`, :func:`time_value`, :func:`user_value`, ...
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
import urllib.error
import urllib.request
from datetime import date, datetime
from datetime import time as clock_time
from typing import Any
from urllib.parse import parse_qs, parse_qsl, urlencode

from tests.support.slack_workspace import (
    APP_ID,
    BOT_ID,
    BOT_USER_ID,
    TEAM_DOMAIN,
    TEAM_ID,
    VERIFICATION_TOKEN,
)

FORM = "application/x-www-form-urlencoded"
JSON = "application/json"

USER_ID = "U0SALES01"
USER_NAME = "sato"
CHANNEL_ID = "C0SALES01"
CHANNEL_NAME = "sales"

Json = dict[str, Any]


# -------------------------------------------------------------------- signing


def slack_signature(body: bytes | str, secret: str, timestamp: int) -> str:
    """``v0=`` + hex HMAC-SHA256 of ``v0:{timestamp}:{body}``, keyed by the signing secret."""
    raw = body.encode() if isinstance(body, str) else body
    base = b"v0:" + str(timestamp).encode() + b":" + raw
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


def sign(
    body: bytes | str,
    secret: str,
    timestamp: int | None = None,
    *,
    content_type: str | None = None,
) -> dict[str, str]:
    """The headers Slack sends with ``body``: timestamp, signature, content type.

    The content type is guessed from the body (JSON if it starts with "{") unless given.
    """
    ts = int(time.time()) if timestamp is None else timestamp
    raw = body.encode() if isinstance(body, str) else body
    ctype = content_type or (JSON if raw.lstrip()[:1] == b"{" else FORM)
    return {
        "Content-Type": ctype,
        "X-Slack-Request-Timestamp": str(ts),
        "X-Slack-Signature": slack_signature(raw, secret, ts),
    }


def post(
    url: str,
    body: bytes | str,
    secret: str,
    timestamp: int | None = None,
    *,
    content_type: str | None = None,
    signature: str | None = None,
    retry_num: int | None = None,
    retry_reason: str = "http_timeout",
    timeout: float = 10.0,
    headers: dict[str, str | None] | None = None,
) -> tuple[int, dict[str, str], str]:
    """POST ``body`` to the app as Slack would; returns (status, headers, body text).

    ``signature`` replaces the computed one (e.g. "v0=bad" to test 401s); an old
    ``timestamp`` is signed correctly but stale. ``retry_num`` adds Slack's retry headers.
    ``headers`` are set last (None removes one), e.g. ``{"X-Slack-Request-Timestamp": "abc"}``.
    HTTP errors are returned, not raised.
    """
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"not an http(s) URL: {url}")
    raw = body.encode() if isinstance(body, str) else body
    sent = sign(raw, secret, timestamp, content_type=content_type)
    if signature is not None:
        sent["X-Slack-Signature"] = signature
    if retry_num is not None:
        sent["X-Slack-Retry-Num"] = str(retry_num)
        sent["X-Slack-Retry-Reason"] = retry_reason
    for name, value in (headers or {}).items():
        sent.pop(name, None)
        if value is not None:
            sent[name] = value
    request = urllib.request.Request(url, data=raw, headers=sent, method="POST")  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return response.status, dict(response.headers.items()), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers.items()), error.read().decode()


def bolt_request(body: bytes | str, secret: str, timestamp: int | None = None) -> Any:
    """A signed ``slack_bolt.BoltRequest``, for ``app.dispatch`` without HTTP."""
    from slack_bolt import BoltRequest

    text = body.decode() if isinstance(body, bytes) else body
    headers = {k.lower(): [v] for k, v in sign(text, secret, timestamp).items()}
    return BoltRequest(body=text, headers=headers)


def payload_of(body: bytes | str) -> Json:
    """The JSON payload inside a ``payload=...`` form body (or a JSON body)."""
    text = body.decode() if isinstance(body, bytes) else body
    if text.lstrip().startswith("{"):
        return json.loads(text)
    return json.loads(parse_qs(text)["payload"][0])


# ------------------------------------------------------------------ identity


def new_trigger_id() -> str:
    """A fresh trigger id shaped like Slack's ("1234567890123.1234567890123.<hex32>")."""
    return f"{_digits(13)}.{_digits(13)}.{secrets.token_hex(16)}"


def action_ts() -> str:
    return f"{time.time():.6f}"


def _digits(n: int) -> str:
    return str(secrets.randbelow(9 * 10 ** (n - 1)) + 10 ** (n - 1))


def _team(team_id: str) -> Json:
    return {"id": team_id, "domain": TEAM_DOMAIN}


def _user(user_id: str, user_name: str, team_id: str) -> Json:
    return {"id": user_id, "username": user_name, "name": user_name, "team_id": team_id}


def _response_url(kind: str, team_id: str) -> str:
    return f"https://hooks.slack.com/{kind}/{team_id}/{_digits(13)}/{secrets.token_urlsafe(18)}"


def form_body(fields: dict[str, str]) -> bytes:
    """A form body (``a=1&b=2``), as slash commands come."""
    return urlencode(fields).encode()


def form_fields(body: bytes | str) -> dict[str, str]:
    """The fields of a form body (a slash command's), blank ones kept."""
    text = body.decode() if isinstance(body, bytes) else body
    return dict(parse_qsl(text, keep_blank_values=True))


def interaction_body(payload: Any) -> bytes:
    """An interactivity body: ``payload=<urlencoded JSON>`` (any JSON value, for odd ones)."""
    return form_body({"payload": json.dumps(payload, ensure_ascii=False)})


# ------------------------------------------------------------- slash command


def slash_command(
    command: str = "/hold",
    text: str = "",
    *,
    user_id: str = USER_ID,
    user_name: str = USER_NAME,
    channel_id: str = CHANNEL_ID,
    channel_name: str = CHANNEL_NAME,
    team_id: str = TEAM_ID,
    team_domain: str = TEAM_DOMAIN,
    api_app_id: str = APP_ID,
    trigger_id: str | None = None,
    response_url: str | None = None,
    token: str = VERIFICATION_TOKEN,
) -> bytes:
    """The form body of a slash command, with every field Slack sends, in Slack's order."""
    return form_body(
        {
            "token": token,
            "team_id": team_id,
            "team_domain": team_domain,
            "channel_id": channel_id,
            "channel_name": channel_name,
            "user_id": user_id,
            "user_name": user_name,
            "command": command,
            "text": text,
            "api_app_id": api_app_id,
            "is_enterprise_install": "false",
            "response_url": response_url or _response_url("commands", team_id),
            "trigger_id": trigger_id or new_trigger_id(),
        }
    )


# -------------------------------------------------------------- state values


def text_value(value: str | None, kind: str = "plain_text_input") -> Json:
    """A plain_text_input's state (also "number_input", "email_text_input", "url_text_input")."""
    return {"type": kind, "value": value}


def option(value: str, text: str | None = None) -> Json:
    return {"text": {"type": "plain_text", "text": text or value, "emoji": True}, "value": value}


def select_value(value: str | None, text: str | None = None, kind: str = "static_select") -> Json:
    """A single select's state ("static_select", "external_select", "radio_buttons", ...)."""
    return {"type": kind, "selected_option": None if value is None else option(value, text)}


def multi_select_value(values: list[str], kind: str = "multi_static_select") -> Json:
    return {"type": kind, "selected_options": [option(v) for v in values]}


def checkboxes_value(values: list[str]) -> Json:
    return {"type": "checkboxes", "selected_options": [option(v) for v in values]}


def date_value(value: date | str | None) -> Json:
    """A datepicker's state: ``selected_date`` as "YYYY-MM-DD"."""
    selected = value.isoformat() if isinstance(value, date) else value
    return {"type": "datepicker", "selected_date": selected}


def time_value(value: clock_time | str | None, timezone: str | None = None) -> Json:
    """A timepicker's state: ``selected_time`` "HH:MM" (and the element's ``timezone``)."""
    selected = value.strftime("%H:%M") if isinstance(value, clock_time) else value
    state: Json = {"type": "timepicker", "selected_time": selected}
    if timezone is not None:
        state["timezone"] = timezone
    return state


def datetime_value(value: datetime | None) -> Json:
    """A datetimepicker's state: ``selected_date_time`` in Unix seconds."""
    return {
        "type": "datetimepicker",
        "selected_date_time": None if value is None else int(value.timestamp()),
    }


def user_value(user_id: str | None, kind: str = "users_select") -> Json:
    return {"type": kind, "selected_user": user_id}


def conversation_value(conversation_id: str | None) -> Json:
    return {"type": "conversations_select", "selected_conversation": conversation_id}


# --------------------------------------------------------------------- views


def view_object(
    *,
    view: Json | None = None,
    values: dict[str, dict[str, Json]] | None = None,
    callback_id: str = "hold",
    private_metadata: str = "",
    view_id: str = "V0OSAE0001",
    hash: str | None = None,
    blocks: list[Json] | None = None,
    title: str = "仮押さえ",
    external_id: str = "",
    view_type: str = "modal",
) -> Json:
    """A view as it appears in payloads. ``view`` (e.g. ``standin.view(id)``) is the base:
    its id, hash, callback_id, blocks, ... are kept; ``values`` becomes ``state.values``.
    """
    if view is not None:
        base = json.loads(json.dumps(view))
    else:
        base = {
            "id": view_id,
            "team_id": TEAM_ID,
            "type": view_type,
            "blocks": blocks or [],
            "private_metadata": private_metadata,
            "callback_id": callback_id,
            "hash": hash or f"{int(time.time())}.{secrets.token_urlsafe(6)[:8]}",
            "title": {"type": "plain_text", "text": title, "emoji": True},
            "clear_on_close": False,
            "notify_on_close": False,
            "close": {"type": "plain_text", "text": "キャンセル", "emoji": True},
            "submit": {"type": "plain_text", "text": "送信", "emoji": True},
            "previous_view_id": None,
            "root_view_id": view_id,
            "app_id": APP_ID,
            "external_id": external_id,
            "app_installed_team_id": TEAM_ID,
            "bot_id": BOT_ID,
        }
    base["state"] = {"values": values or {}}
    return base


def _interaction(kind: str, user_id: str, user_name: str, team_id: str) -> Json:
    return {
        "type": kind,
        "team": _team(team_id),
        "user": _user(user_id, user_name, team_id),
        "api_app_id": APP_ID,
        "token": VERIFICATION_TOKEN,
        "is_enterprise_install": False,
        "enterprise": None,
    }


def view_submission(
    values: dict[str, dict[str, Json]] | None = None,
    *,
    view: Json | None = None,
    callback_id: str = "hold",
    private_metadata: str = "",
    view_id: str = "V0OSAE0001",
    hash: str | None = None,
    user_id: str = USER_ID,
    user_name: str = USER_NAME,
    team_id: str = TEAM_ID,
    trigger_id: str | None = None,
    response_urls: list[Json] | None = None,
) -> bytes:
    """A ``view_submission`` payload body: ``values`` is block_id -> action_id -> state.

    ``response_urls`` lists ``{block_id, action_id, channel_id, response_url}`` for modals
    with a conversation select marked ``response_url_enabled``.
    """
    payload = _interaction("view_submission", user_id, user_name, team_id)
    payload["trigger_id"] = trigger_id or new_trigger_id()
    payload["view"] = view_object(
        view=view,
        values=values,
        callback_id=callback_id,
        private_metadata=private_metadata,
        view_id=view_id,
        hash=hash,
    )
    payload["response_urls"] = response_urls or []
    return interaction_body(payload)


def view_closed(
    *,
    view: Json | None = None,
    callback_id: str = "hold",
    private_metadata: str = "",
    view_id: str = "V0OSAE0001",
    is_cleared: bool = False,
    user_id: str = USER_ID,
    user_name: str = USER_NAME,
    team_id: str = TEAM_ID,
) -> bytes:
    """A ``view_closed`` payload body (sent only for views with ``notify_on_close``)."""
    payload = _interaction("view_closed", user_id, user_name, team_id)
    payload["view"] = view_object(
        view=view, callback_id=callback_id, private_metadata=private_metadata, view_id=view_id
    )
    payload["is_cleared"] = is_cleared
    return interaction_body(payload)


# ------------------------------------------------------------------- actions


def action(
    action_id: str,
    value: str | None = None,
    *,
    block_id: str = "actions",
    action_type: str = "button",
    text: str | None = None,
    **fields: Any,
) -> Json:
    """One element of ``actions``. A button carries ``value``; other kinds take their fields,
    e.g. ``action("room", action_type="static_select", selected_option=option("A1"))``.
    """
    element: Json = {"action_id": action_id, "block_id": block_id, "type": action_type}
    if action_type == "button":
        element["text"] = {"type": "plain_text", "text": text or action_id, "emoji": True}
        if value is not None:
            element["value"] = value
    elif value is not None:
        element["value"] = value
    element.update(fields)
    element["action_ts"] = action_ts()
    return element


def changed(values: dict[str, dict[str, Json]], block_id: str) -> Json:
    """The action a modal input sends when it changes (``dispatch_action``): its element's
    state, from ``values``, as the ``actions`` entry."""
    element = values[block_id][block_id]
    return action(
        block_id,
        block_id=block_id,
        action_type=element["type"],
        **{k: v for k, v in element.items() if k != "type"},
    )


def bot_message(ts: str, *, text: str = "", blocks: list[Json] | None = None) -> Json:
    """A message the bot posted, as it appears in ``block_actions``."""
    return {
        "bot_id": BOT_ID,
        "type": "message",
        "text": text,
        "user": BOT_USER_ID,
        "ts": ts,
        "app_id": APP_ID,
        "team": TEAM_ID,
        "blocks": blocks or [],
    }


def block_actions(
    action_id: str = "confirm",
    value: str | None = None,
    *,
    actions: list[Json] | None = None,
    block_id: str = "actions",
    action_type: str = "button",
    message: Json | None = None,
    message_ts: str | None = None,
    channel_id: str = CHANNEL_ID,
    channel_name: str = CHANNEL_NAME,
    is_ephemeral: bool = False,
    view: Json | None = None,
    values: dict[str, dict[str, Json]] | None = None,
    user_id: str = USER_ID,
    user_name: str = USER_NAME,
    team_id: str = TEAM_ID,
    trigger_id: str | None = None,
    response_url: str | None = None,
) -> bytes:
    """A ``block_actions`` payload body: a click on a message button, or inside ``view``.

    For a message: pass ``message`` (e.g. ``standin.message(ch, ts)``) or ``message_ts``;
    ``channel_id`` is where it sits (a "D..." id for a DM). For a modal or App Home, pass
    ``view`` (e.g. ``standin.view(id)``) with its current ``values``.
    """
    payload = _interaction("block_actions", user_id, user_name, team_id)
    payload["trigger_id"] = trigger_id or new_trigger_id()
    payload["actions"] = actions or [
        action(action_id, value, block_id=block_id, action_type=action_type)
    ]
    if view is not None:
        payload["container"] = {"type": "view", "view_id": view["id"]}
        payload["view"] = view_object(view=view, values=values)
        payload["state"] = {"values": values or {}}
        return interaction_body(payload)
    if message is None:
        message = bot_message(message_ts or action_ts())
    payload["container"] = {
        "type": "message",
        "message_ts": message["ts"],
        "channel_id": channel_id,
        "is_ephemeral": is_ephemeral,
    }
    payload["channel"] = {
        "id": channel_id,
        "name": "directmessage" if channel_id[:1] == "D" else channel_name,
    }
    payload["message"] = message
    payload["state"] = {"values": values or {}}
    payload["response_url"] = response_url or _response_url("actions", team_id)
    return interaction_body(payload)


def block_suggestion(
    action_id: str,
    value: str,
    *,
    block_id: str = "search",
    view: Json | None = None,
    values: dict[str, dict[str, Json]] | None = None,
    user_id: str = USER_ID,
    user_name: str = USER_NAME,
    team_id: str = TEAM_ID,
) -> bytes:
    """A ``block_suggestion`` payload body: the user typed ``value`` in an external select."""
    payload = _interaction("block_suggestion", user_id, user_name, team_id)
    shown = view_object(view=view, values=values)
    payload.update(
        {
            "container": {"type": "view", "view_id": shown["id"]},
            "action_id": action_id,
            "block_id": block_id,
            "value": value,
            "view": shown,
        }
    )
    return interaction_body(payload)


# --------------------------------------------------------------- Events API


def event_callback(event: Json, *, team_id: str = TEAM_ID) -> bytes:
    """An Events API ``event_callback`` body (JSON) wrapping ``event``."""
    body = {
        "token": VERIFICATION_TOKEN,
        "team_id": team_id,
        "context_team_id": team_id,
        "context_enterprise_id": None,
        "api_app_id": APP_ID,
        "event": event,
        "type": "event_callback",
        "event_id": f"Ev{secrets.token_hex(5).upper()}",
        "event_time": int(time.time()),
        "authorizations": [
            {
                "enterprise_id": None,
                "team_id": team_id,
                "user_id": BOT_USER_ID,
                "is_bot": True,
                "is_enterprise_install": False,
            }
        ],
        "is_ext_shared_channel": False,
        "event_context": f"4-{secrets.token_urlsafe(24)}",
    }
    return json.dumps(body, ensure_ascii=False).encode()


def app_home_opened_event(
    user_id: str = USER_ID,
    *,
    channel: str | None = None,
    tab: str = "home",
    view: Json | None = None,
    team_id: str = TEAM_ID,
) -> bytes:
    """``app_home_opened``: ``view`` (the published home, if any) is present once one exists."""
    event: Json = {
        "type": "app_home_opened",
        "user": user_id,
        "channel": channel or f"D{user_id[1:]}",
        "tab": tab,
        "event_ts": action_ts(),
    }
    if view is not None:
        event["view"] = view
    return event_callback(event, team_id=team_id)


def url_verification(challenge: str | None = None) -> bytes:
    """The Events API handshake: the app must echo ``challenge``."""
    body = {
        "token": VERIFICATION_TOKEN,
        "challenge": challenge or secrets.token_urlsafe(36),
        "type": "url_verification",
    }
    return json.dumps(body).encode()
