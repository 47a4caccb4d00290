"""The workspace the Slack stand-in plays: its users, channels, messages, modals and App Home
tabs, and what each Web API method does to them (as Slack does it, refusals included).

``tests.support.slack_standin`` serves this over HTTP, with recording and faults.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from tests.support.slack_limits import Refusal, check_message, check_view

# The workspace the stand-in plays; slack_requests builds payloads from the same identity.
TEAM_ID = "T0OSAE001"
TEAM_DOMAIN = "osae-test"
APP_ID = "A0OSAE001"
BOT_ID = "B0OSAE001"
BOT_USER_ID = "U0OSAEBOT"
BOT_NAME = "osae"
VERIFICATION_TOKEN = "verification-token-osae"

TRIGGER_TTL = 3.0  # seconds: Slack's trigger_id lifetime
MAX_STACK = 3  # a modal stack holds at most three views

USER_ID = re.compile(r"^[UW][A-Z0-9]+$")

Handler = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class Trigger:
    issued: float
    view_id: str | None
    used: bool = False


@dataclass
class Answer:
    """What a response_url POST is answered with (it is not a Web API method)."""

    status: int
    body: dict[str, Any]


class Workspace:
    """The state and the methods. ``channels``: if set, the only channels (besides DMs) that
    exist; otherwise any channel id is accepted. ``strict_triggers``: if true, views.open/push
    accept only trigger ids from :meth:`issue_trigger`, once, within 3 s. Every method runs
    with ``self._cond`` held."""

    def __init__(
        self,
        *,
        channels: Iterable[str] | None = None,
        strict_triggers: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.strict_triggers = strict_triggers
        self._known_channels = set(channels) if channels is not None else None
        self._clock = clock
        self._cond = threading.Condition(threading.RLock())
        self._users: dict[str, dict[str, Any]] = {}
        self.reset()

    def reset(self) -> None:
        """Forget messages, views and triggers (not users)."""
        with self._cond:
            self._messages: defaultdict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
            self._views: dict[str, dict[str, Any]] = {}
            self._external_ids: dict[str, str] = {}
            self._homes: dict[str, str] = {}
            self._triggers: dict[str, Trigger] = {}
            self._response_targets: dict[str, tuple[str, str]] = {}
            self._last_ts = 0
            self._view_seq = 0

    def handlers(self) -> dict[str, Handler]:
        return {
            "api.test": lambda body: {"ok": True, "args": body},
            "auth.test": self._auth_test,
            "chat.postMessage": self._chat_post_message,
            "chat.update": self._chat_update,
            "chat.postEphemeral": self._chat_post_ephemeral,
            "chat.delete": self._chat_delete,
            "conversations.open": self._conversations_open,
            "views.open": self._views_open,
            "views.push": self._views_push,
            "views.update": self._views_update,
            "views.publish": self._views_publish,
            "users.info": self._users_info,
        }

    # ------------------------------------------------------------ configuration

    def set_user(
        self,
        user_id: str,
        *,
        locale: str = "en-US",
        tz: str = "Asia/Tokyo",
        name: str | None = None,
        real_name: str | None = None,
        is_bot: bool = False,
        deleted: bool = False,
    ) -> dict[str, Any]:
        """Define (or redefine) a workspace member that users.info can find."""
        user = _user_object(
            user_id, locale, tz, name or user_id.lower(), real_name, is_bot, deleted
        )
        with self._cond:
            self._users[user_id] = user
        return user

    def add_channel(self, channel_id: str) -> None:
        with self._cond:
            if self._known_channels is None:
                self._known_channels = set()
            self._known_channels.add(channel_id)

    def issue_trigger(self, *, view_id: str | None = None) -> str:
        """A fresh trigger_id, as in an interaction payload (from ``view_id``'s modal, if any)."""
        trigger = f"{secrets.randbelow(10**13)}.{secrets.randbelow(10**13)}.{secrets.token_hex(16)}"
        with self._cond:
            self._triggers[trigger] = Trigger(self._clock(), view_id)
        return trigger

    def bind_response_url(self, name: str, channel: str, ts: str) -> None:
        """POSTs to response_url ``name`` act on the message ``channel``/``ts``."""
        with self._cond:
            self._response_targets[name] = (channel, ts)

    # ------------------------------------------------------------ state views

    def messages(self, channel: str) -> list[dict[str, Any]]:
        """Messages now in ``channel`` (posted, maybe updated, not deleted), oldest first."""
        with self._cond:
            return [dict(m) for _, m in sorted(self._messages.get(channel, {}).items())]

    def message(self, channel: str, ts: str) -> dict[str, Any] | None:
        with self._cond:
            return self._messages.get(channel, {}).get(ts)

    def view(self, view_id: str) -> dict[str, Any]:
        """The view as Slack holds it now (id, hash, blocks, ...); KeyError if unknown."""
        with self._cond:
            return json.loads(json.dumps(self._views[view_id]))

    def home(self, user_id: str) -> dict[str, Any] | None:
        """The App Home view last published for ``user_id``."""
        with self._cond:
            view_id = self._homes.get(user_id)
            return self.view(view_id) if view_id else None

    @staticmethod
    def dm_channel(user_id: str) -> str:
        """The DM channel id Slack uses with ``user_id`` (stable: U0SALES1 -> D0SALES1)."""
        return f"D{user_id[1:]}"

    # ------------------------------------------------------------ method: auth

    def _auth_test(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "ok": True,
            "url": f"https://{TEAM_DOMAIN}.slack.com/",
            "team": TEAM_DOMAIN,
            "user": BOT_NAME,
            "team_id": TEAM_ID,
            "user_id": BOT_USER_ID,
            "bot_id": BOT_ID,
            "is_enterprise_install": False,
        }

    # ------------------------------------------------------------ method: chat

    def _chat_post_message(self, body: dict[str, Any]) -> dict[str, Any]:
        channel = self._writable_channel(body, allow_user=True)
        check_message(body)
        thread_ts = body.get("thread_ts")
        if thread_ts and str(thread_ts) not in self._messages.get(channel, {}):
            raise Refusal("thread_not_found")
        ts = self._next_ts()
        message = _message(body, ts)
        self._messages[channel][ts] = message
        return {"ok": True, "channel": channel, "ts": ts, "message": message}

    def _chat_update(self, body: dict[str, Any]) -> dict[str, Any]:
        channel, ts, old = self._existing_message(body)
        if any(body.get(k) for k in ("text", "blocks", "attachments")):
            check_message(body)
        message = {
            **old,
            **_message(body, ts),
            "edited": {"user": BOT_USER_ID, "ts": self._next_ts()},
        }
        for key in ("blocks", "attachments"):
            if key not in body and key in old:
                message[key] = old[key]
        if "text" not in body:
            message["text"] = old.get("text", "")
        self._messages[channel][ts] = message
        return {
            "ok": True,
            "channel": channel,
            "ts": ts,
            "text": message["text"],
            "message": message,
        }

    def _chat_post_ephemeral(self, body: dict[str, Any]) -> dict[str, Any]:
        self._writable_channel(body, allow_user=False)
        if not body.get("user"):
            raise Refusal("user_not_in_channel")
        check_message(body)
        return {"ok": True, "message_ts": self._next_ts()}

    def _chat_delete(self, body: dict[str, Any]) -> dict[str, Any]:
        channel, ts, _ = self._existing_message(body)
        del self._messages[channel][ts]
        return {"ok": True, "channel": channel, "ts": ts}

    def _writable_channel(self, body: dict[str, Any], *, allow_user: bool) -> str:
        """The channel a message goes to; a user id opens the DM implicitly (postMessage)."""
        channel = str(body.get("channel") or "").strip()
        if not channel:
            raise Refusal("channel_not_found")
        if USER_ID.match(channel):
            if not allow_user:
                raise Refusal("channel_not_found")
            return self.dm_channel(channel)
        if channel[0] == "D" or self._known_channels is None or channel in self._known_channels:
            return channel
        raise Refusal("channel_not_found")

    def _existing_message(self, body: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
        """For chat.update/delete: Slack wants the conversation id (D...), not a user id."""
        channel = self._writable_channel(body, allow_user=False)
        ts = str(body.get("ts") or "")
        if not ts:
            raise Refusal("message_not_found")
        message = self._messages.get(channel, {}).get(ts)
        if message is None:
            raise Refusal("message_not_found")
        return channel, ts, message

    def resolve_channel(self, channel: str) -> str:
        """A user id as the DM channel Slack uses with that user; any other channel as is."""
        return self.dm_channel(channel) if USER_ID.match(channel) else channel

    def _next_ts(self) -> str:
        """A message ts: microseconds since the epoch, unique and increasing."""
        micros = max(int(time.time() * 1_000_000), self._last_ts + 1)
        self._last_ts = micros
        return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"

    # --------------------------------------------------- method: conversations

    def _conversations_open(self, body: dict[str, Any]) -> dict[str, Any]:
        users = body.get("users")
        if isinstance(users, str):
            users = [u.strip() for u in users.split(",") if u.strip()]
        if not users:
            if body.get("channel"):
                return {
                    "ok": True,
                    "no_op": True,
                    "already_open": True,
                    "channel": {"id": body["channel"]},
                }
            raise Refusal("users_list_not_supplied")
        if len(users) > 8:
            raise Refusal("too_many_users")
        if any(not USER_ID.match(u) for u in users):
            raise Refusal("user_not_found")
        if len(users) == 1:
            channel_id = self.dm_channel(users[0])
        else:
            channel_id = "G" + "".join(sorted(u[1:] for u in users))[:10]
        return {"ok": True, "no_op": False, "already_open": False, "channel": {"id": channel_id}}

    # ----------------------------------------------------------- method: users

    def _users_info(self, body: dict[str, Any]) -> dict[str, Any]:
        """As Slack: ``locale`` is in the answer only when ``include_locale`` is true."""
        user = self._users.get(str(body.get("user") or ""))
        if user is None:
            raise Refusal("user_not_found")
        answer = dict(user)
        if not truthy(body.get("include_locale")):
            answer.pop("locale", None)
        return {"ok": True, "user": answer}

    # ----------------------------------------------------------- method: views

    def _views_open(self, body: dict[str, Any]) -> dict[str, Any]:
        self._take_trigger(body)
        spec = check_view(body.get("view"), "modal")
        return {"ok": True, "view": self._store_view(spec, previous=None)}

    def _views_push(self, body: dict[str, Any]) -> dict[str, Any]:
        trigger = self._take_trigger(body)
        spec = check_view(body.get("view"), "modal")
        previous = self._views.get(trigger.view_id) if trigger and trigger.view_id else None
        if previous is not None and self._stack_depth(previous) >= MAX_STACK:
            raise Refusal("push_limit_reached")
        return {"ok": True, "view": self._store_view(spec, previous=previous)}

    def _views_update(self, body: dict[str, Any]) -> dict[str, Any]:
        view_id = str(body.get("view_id") or "")
        external_id = str(body.get("external_id") or "")
        if not view_id and not external_id:
            raise Refusal("invalid_arguments", "[ERROR] view_id or external_id is required")
        if not view_id:
            view_id = self._external_ids.get(external_id, "")
        current = self._views.get(view_id)
        if current is None:
            raise Refusal("not_found")
        if body.get("hash") and body["hash"] != current["hash"]:
            raise Refusal("hash_conflict")
        spec = check_view(body.get("view"), current["type"])
        return {"ok": True, "view": self._store_view(spec, replacing=current)}

    def _views_publish(self, body: dict[str, Any]) -> dict[str, Any]:
        user_id = str(body.get("user_id") or "")
        if not USER_ID.match(user_id):
            raise Refusal("invalid_arguments", "[ERROR] missing required field: user_id")
        spec = check_view(body.get("view"), "home")
        current = self._views.get(self._homes.get(user_id, ""))
        if current is not None and body.get("hash") and body["hash"] != current["hash"]:
            raise Refusal("hash_conflict")
        view = self._store_view(spec, replacing=current)
        self._homes[user_id] = view["id"]
        return {"ok": True, "view": view}

    def _take_trigger(self, body: dict[str, Any]) -> Trigger | None:
        """Check and use up a trigger_id (strictly only in ``strict_triggers`` mode)."""
        trigger_id = str(body.get("trigger_id") or body.get("interactivity_pointer") or "")
        if not trigger_id:
            raise Refusal("invalid_trigger_id")
        trigger = self._triggers.get(trigger_id)
        if trigger is None:
            if self.strict_triggers:
                raise Refusal("invalid_trigger_id")
            return None
        if trigger.used:
            raise Refusal("exchanged_trigger_id")
        if self._clock() - trigger.issued > TRIGGER_TTL:
            raise Refusal("expired_trigger_id")
        trigger.used = True
        return trigger

    def _stack_depth(self, view: dict[str, Any]) -> int:
        depth = 1
        while (view := self._views.get(view.get("previous_view_id") or "")) is not None:
            depth += 1
        return depth

    def _store_view(
        self,
        spec: dict[str, Any],
        *,
        previous: dict[str, Any] | None = None,
        replacing: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Save a view as Slack returns it: generated id, new hash, submitted fields echoed."""
        if replacing is not None:
            view_id = replacing["id"]
            root, prev = replacing["root_view_id"], replacing["previous_view_id"]
        else:
            self._view_seq += 1
            view_id = f"V{self._view_seq:08d}{secrets.token_hex(1).upper()}"
            root = previous["root_view_id"] if previous else view_id
            prev = previous["id"] if previous else None
        external_id = str(spec.get("external_id") or "")
        owner = self._external_ids.get(external_id)
        if external_id and owner not in (None, view_id):
            raise Refusal("duplicate_external_id")
        if replacing is not None and replacing.get("external_id") not in ("", external_id):
            self._external_ids.pop(replacing["external_id"], None)
        if external_id:
            self._external_ids[external_id] = view_id
        view = _view_object(spec, view_id, root, prev)
        self._views[view_id] = view
        return json.loads(json.dumps(view))

    # ------------------------------------------------------------ response_url

    def post_response_url(self, name: str, body: dict[str, Any]) -> Answer:
        """A POST to the response_url ``name``: with ``replace_original`` or
        ``delete_original``, the message it is bound to changes, as Slack does."""
        target = self._response_targets.get(name)
        if truthy(body.get("delete_original")):
            if target is not None:
                self._messages.get(target[0], {}).pop(target[1], None)
            return Answer(200, {"ok": True})
        if not any(body.get(k) for k in ("text", "blocks", "attachments")):
            return Answer(400, {"ok": False, "error": "no_text"})
        try:
            check_message(body)
        except Refusal as refusal:
            return Answer(400, refusal.body())
        if target is not None and truthy(body.get("replace_original")):
            channel, ts = target
            if ts in self._messages.get(channel, {}):
                self._messages[channel][ts] = {**_message(body, ts)}
        return Answer(200, {"ok": True})


def truthy(value: Any) -> bool:
    return value is True or str(value).lower() in ("1", "true")


def _message(body: dict[str, Any], ts: str) -> dict[str, Any]:
    """The message object Slack returns for a bot-token post."""
    message: dict[str, Any] = {
        "user": BOT_USER_ID,
        "type": "message",
        "ts": ts,
        "bot_id": BOT_ID,
        "app_id": APP_ID,
        "text": str(body.get("text") or ""),
        "team": TEAM_ID,
        "bot_profile": {"id": BOT_ID, "app_id": APP_ID, "name": BOT_NAME, "team_id": TEAM_ID},
    }
    for key in ("blocks", "attachments", "metadata"):
        if body.get(key) is not None:
            message[key] = body[key]
    if body.get("thread_ts"):
        message["thread_ts"] = str(body["thread_ts"])
        message["parent_user_id"] = BOT_USER_ID
    return message


def _view_object(
    spec: dict[str, Any], view_id: str, root: str, previous: str | None
) -> dict[str, Any]:
    """A view as Slack answers views.* with it."""
    hash_ = f"{int(time.time())}.{secrets.token_urlsafe(6)[:8]}"
    return {
        "id": view_id,
        "team_id": TEAM_ID,
        "type": spec["type"],
        "blocks": spec.get("blocks", []),
        "private_metadata": str(spec.get("private_metadata") or ""),
        "callback_id": str(spec.get("callback_id") or ""),
        "state": {"values": {}},
        "hash": hash_,
        "title": spec.get("title") or {"type": "plain_text", "text": "View Title"},
        "clear_on_close": bool(spec.get("clear_on_close", False)),
        "notify_on_close": bool(spec.get("notify_on_close", False)),
        "close": spec.get("close"),
        "submit": spec.get("submit"),
        "previous_view_id": previous,
        "root_view_id": root,
        "app_id": APP_ID,
        "external_id": str(spec.get("external_id") or ""),
        "app_installed_team_id": TEAM_ID,
        "bot_id": BOT_ID,
    }


def _user_object(
    user_id: str,
    locale: str,
    tz: str,
    name: str,
    real_name: str | None,
    is_bot: bool,
    deleted: bool,
) -> dict[str, Any]:
    """A users.info ``user`` as Slack shapes it (tz_offset in seconds east of UTC)."""
    now = datetime.now(ZoneInfo(tz))
    offset = now.utcoffset()
    real = real_name or name
    return {
        "id": user_id,
        "team_id": TEAM_ID,
        "name": name,
        "deleted": deleted,
        "color": "9f69e7",
        "real_name": real,
        "tz": tz,
        "tz_label": now.tzname() or tz,
        "tz_offset": int(offset.total_seconds()) if offset is not None else 0,
        "profile": {
            "real_name": real,
            "real_name_normalized": real,
            "display_name": name,
            "display_name_normalized": name,
            "team": TEAM_ID,
        },
        "is_admin": False,
        "is_owner": False,
        "is_primary_owner": False,
        "is_restricted": False,
        "is_ultra_restricted": False,
        "is_bot": is_bot,
        "is_app_user": False,
        "updated": int(time.time()),
        "is_email_confirmed": True,
        "locale": locale,
    }
