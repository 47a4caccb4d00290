"""Reading a verified request's body by field, and checking its shape, before Bolt sees it.

Bolt reads a form body as an interaction whenever the substring ``payload`` occurs anywhere in
it (so ``/hold … payload`` was lost), raises on a payload that is not JSON, and indexes fields
without checking their types (``"actions": []``, ``"event": 5``, ``"view": null`` were 500s).
Here a body is parsed field by field: a form with a ``payload`` *field* is an interaction, any
other form is a slash command; JSON must be an object. Then every field that osae's listeners
or Bolt's own routing read is checked for its type (Slack ids for ids, URLs for response URLs)
for each kind of request osae handles. What fails is ``Malformed``: the caller answers 400 and
logs where, never echoing the input.

``check`` is also what Socket Mode payloads go through, so both transports read the same shapes.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl

from bot.shapes import (
    Check,
    Malformed,
    anything,
    boolean,
    either,
    integer,
    listof,
    mapping,
    obj,
    optional,
    string,
)

FORM = "application/x-www-form-urlencoded"
JSON = "application/json"
MAX_FORM_FIELDS = 50  # a slash command has 14; an interaction, one


def read_body(raw: bytes, content_type: str | None) -> dict[str, Any]:
    """The body as a dict of fields (an interaction's ``payload`` JSON, a slash command's form,
    an event's JSON), shape-checked; ``Malformed`` if it is none of those."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Malformed("body", "not UTF-8") from None
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media == JSON:
        body = _json(text, "body")
    elif media == FORM:
        body = _form(text)
    else:
        raise Malformed("content-type", "neither a form nor JSON")
    check(body)
    return body


def check(body: Any) -> None:
    """Raise ``Malformed`` unless ``body`` is a request osae handles, in the shape Slack sends."""
    if not isinstance(body, dict):
        raise Malformed("body", "not an object")
    _ENVELOPE(body, "")
    if "command" in body:
        _SLASH_COMMAND(body, "")
        return
    if "ssl_check" in body:
        _SSL_CHECK(body, "")
        return
    kind = body.get("type")
    shape = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    if shape is None:
        raise Malformed("type", "not a request osae handles")
    shape(body, "")


def _json(text: str, where: str) -> dict[str, Any]:
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise Malformed(where, "not JSON") from None
    if not isinstance(value, dict):
        raise Malformed(where, "not a JSON object")
    try:  # "\ud800" is valid JSON but no text: it could be neither stored nor sent back
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise Malformed(where, "not valid Unicode") from None
    return value


def _no_constant(name: str) -> None:
    raise ValueError(name)  # NaN and Infinity are not JSON


def _form(text: str) -> dict[str, Any]:
    if not text:
        raise Malformed("body", "empty")
    try:
        pairs = parse_qsl(
            text,
            keep_blank_values=True,
            strict_parsing=True,
            errors="strict",
            max_num_fields=MAX_FORM_FIELDS,
        )
    except ValueError:  # a field without '=', bad %-escapes of UTF-8, too many fields
        raise Malformed("body", "not a form") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise Malformed("body", "a field given twice")
    if "payload" not in fields:
        return fields  # a slash command (or Slack's ssl_check)
    if len(fields) != 1:
        raise Malformed("payload", "sent with other fields")
    return _json(fields["payload"], "payload")


# -- the shapes of what Slack sends -------------------------------------------------------
TEXT = string()
SLACK_ID = string(r"[A-Z0-9]{2,64}")  # U…, W…, T…, E…, C…, D…, G…, V…, A…, B…
URL = string(r"https?://\S{1,2000}")
COMMAND = string(r"/\S{1,64}")
ANY_OBJECT = mapping(anything)

_OPTION = obj(value=TEXT)
_ELEMENT_STATE = obj(
    type=TEXT,
    value=optional(TEXT),
    selected_option=optional(_OPTION),
    selected_options=optional(listof(_OPTION)),
    selected_date=optional(TEXT),
    selected_time=optional(TEXT),
    selected_date_time=optional(integer),
    selected_user=optional(TEXT),
    selected_users=optional(listof(TEXT)),
    selected_conversation=optional(TEXT),
    selected_channel=optional(TEXT),
)
_STATE = obj(values=mapping(mapping(_ELEMENT_STATE)))
_TEXT_OBJECT = obj(type=optional(TEXT), text=TEXT)
_BLOCK = obj(type=TEXT, block_id=optional(TEXT), text=optional(_TEXT_OBJECT))
_VIEW = obj(
    id=SLACK_ID,
    type=TEXT,
    callback_id=TEXT,
    private_metadata=optional(TEXT),
    hash=optional(TEXT),
    state=_STATE,
    blocks=optional(listof(_BLOCK)),
    team_id=optional(SLACK_ID),
    app_installed_team_id=optional(SLACK_ID),
    root_view_id=optional(SLACK_ID),
    previous_view_id=optional(SLACK_ID),
    external_id=optional(TEXT),
)
_USER = obj(id=SLACK_ID, team_id=optional(SLACK_ID), username=optional(TEXT), name=optional(TEXT))
_TEAM = optional(obj(id=SLACK_ID, domain=optional(TEXT)))
_ENTERPRISE = optional(either(TEXT, obj(id=TEXT)))
_INTERACTION: dict[str, Check] = {
    "type": TEXT,
    "user": _USER,
    "team": _TEAM,
    "enterprise": _ENTERPRISE,
    "api_app_id": optional(TEXT),
    "token": optional(TEXT),
    "is_enterprise_install": optional(boolean),
    "trigger_id": optional(TEXT),
    "response_url": optional(URL),
    "response_urls": optional(listof(obj(response_url=URL, channel_id=optional(SLACK_ID)))),
}
_ACTION = obj(
    action_id=TEXT,
    block_id=optional(TEXT),
    type=TEXT,
    value=optional(TEXT),
    action_ts=optional(TEXT),
    selected_option=optional(_OPTION),
    selected_date=optional(TEXT),
    selected_time=optional(TEXT),
    selected_user=optional(TEXT),
)
_BLOCK_ACTIONS = obj(
    **_INTERACTION,
    actions=listof(_ACTION, least=1),
    container=optional(
        obj(
            type=TEXT,
            view_id=optional(SLACK_ID),
            message_ts=optional(TEXT),
            channel_id=optional(SLACK_ID),
            is_ephemeral=optional(boolean),
        )
    ),
    channel=optional(obj(id=SLACK_ID, name=optional(TEXT))),
    message=optional(obj(ts=TEXT, text=optional(TEXT), blocks=optional(listof(_BLOCK)))),
    view=optional(_VIEW),
    state=optional(_STATE),
)
_VIEW_SUBMISSION = obj(**_INTERACTION, view=_VIEW)
_VIEW_CLOSED = obj(**_INTERACTION, view=_VIEW, is_cleared=optional(boolean))
_BLOCK_SUGGESTION = obj(
    **_INTERACTION, action_id=TEXT, block_id=TEXT, value=TEXT, view=optional(_VIEW)
)

# Events: what Bolt's routing reads of any event (user, channel, message...), and more of
# the one event osae listens to.
_ACTOR = optional(either(SLACK_ID, obj(id=SLACK_ID)))
_WHERE = optional(either(TEXT, obj(id=TEXT)))
_MESSAGE = optional(obj(user=_ACTOR, thread_ts=optional(TEXT), subtype=optional(TEXT)))
_EVENT_FIELDS: dict[str, Check] = {
    "type": TEXT,
    "user": _ACTOR,
    "channel": _WHERE,
    "channel_type": optional(TEXT),
    "subtype": optional(TEXT),
    "bot_id": optional(TEXT),
    "thread_ts": optional(TEXT),
    "team": optional(TEXT),
    "user_team": optional(TEXT),
    "item": optional(obj(channel=_WHERE)),
    "message": _MESSAGE,
    "previous_message": _MESSAGE,
    "assistant_thread": optional(obj(channel_id=optional(TEXT), thread_ts=optional(TEXT))),
    "function_execution_id": optional(TEXT),
    "bot_access_token": optional(TEXT),
    "inputs": optional(ANY_OBJECT),
    "workflow_step": optional(ANY_OBJECT),
    "view": optional(ANY_OBJECT),
    "tab": optional(TEXT),
}
_APP_HOME_OPENED = obj(**{**_EVENT_FIELDS, "user": SLACK_ID})
_ANY_EVENT = obj(**_EVENT_FIELDS)


def _event(value: Any, where: str) -> None:
    _ANY_EVENT(value, where)
    if value["type"] == "app_home_opened":
        _APP_HOME_OPENED(value, where)


_EVENT_CALLBACK = obj(
    type=TEXT,
    team_id=SLACK_ID,
    api_app_id=optional(TEXT),
    token=optional(TEXT),
    event=_event,
    event_id=optional(TEXT),
    event_time=optional(integer),
    enterprise_id=optional(TEXT),
    context_team_id=optional(SLACK_ID),
    context_enterprise_id=optional(TEXT),
    is_ext_shared_channel=optional(boolean),
    authorizations=optional(
        listof(
            obj(
                team_id=optional(SLACK_ID),
                user_id=optional(SLACK_ID),
                enterprise_id=optional(TEXT),
                is_bot=optional(boolean),
                is_enterprise_install=optional(boolean),
            )
        )
    ),
)
_URL_VERIFICATION = obj(type=TEXT, challenge=TEXT, token=optional(TEXT))
_SLASH_COMMAND = obj(
    command=COMMAND,
    text=optional(TEXT),
    user_id=SLACK_ID,
    team_id=SLACK_ID,
    channel_id=SLACK_ID,
    trigger_id=TEXT,
    response_url=URL,
    api_app_id=optional(TEXT),
    is_enterprise_install=optional(either(boolean, TEXT)),
)
_SSL_CHECK = obj(ssl_check=TEXT, token=optional(TEXT))

# What Bolt reads of any body before it knows what it is (routing, context, logging).
_ENVELOPE = obj(
    type=optional(TEXT),
    user=optional(either(SLACK_ID, _USER)),
    user_id=optional(SLACK_ID),
    team=_TEAM,
    team_id=optional(SLACK_ID),
    enterprise=_ENTERPRISE,
    enterprise_id=optional(TEXT),
    channel=_WHERE,
    channel_id=optional(TEXT),
    view=optional(_VIEW),
    actions=optional(listof(_ACTION)),
    event=optional(ANY_OBJECT),
    message=_MESSAGE,
    previous_message=_MESSAGE,
    item=optional(ANY_OBJECT),
    assistant_thread=optional(ANY_OBJECT),
    function_data=optional(ANY_OBJECT),
    authorizations=optional(listof(ANY_OBJECT)),
    response_url=optional(URL),
    response_urls=optional(listof(obj(response_url=URL))),
    trigger_id=optional(TEXT),
    thread_ts=optional(TEXT),
    function_execution_id=optional(TEXT),
    bot_access_token=optional(TEXT),
    is_enterprise_install=optional(either(boolean, TEXT)),
    is_ext_shared_channel=optional(boolean),
)

_BY_TYPE: dict[str, Check] = {
    "block_actions": _BLOCK_ACTIONS,
    "view_submission": _VIEW_SUBMISSION,
    "view_closed": _VIEW_CLOSED,
    "block_suggestion": _BLOCK_SUGGESTION,
    "event_callback": _EVENT_CALLBACK,
    "url_verification": _URL_VERIFICATION,
}
