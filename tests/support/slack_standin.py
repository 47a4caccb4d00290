"""A local stand-in of the Slack Web API, for tests and benchmarks.

Point ``slack_sdk.WebClient(token="xoxb-test", base_url=standin.base_url)`` at it. It is a real
HTTP server on 127.0.0.1 that answers the methods the bot uses the way Slack does (HTTP 200
with ``{"ok": false, "error": ...}`` for refusals, 429 with ``Retry-After`` when rate limited),
keeps the state those methods change (messages, modals, App Home tabs), records every call,
and can be told to fail, throttle or stall the next calls of a method.

    with SlackStandin() as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url)
        client.chat_postMessage(channel="C0SALES", text="hi")
        assert slack.last("chat.postMessage").body["text"] == "hi"
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit
from zoneinfo import ZoneInfo

# The workspace the stand-in plays; slack_requests builds payloads from the same identity.
TEAM_ID = "T0OSAE001"
TEAM_DOMAIN = "osae-test"
APP_ID = "A0OSAE001"
BOT_ID = "B0OSAE001"
BOT_USER_ID = "U0OSAEBOT"
BOT_NAME = "osae"
VERIFICATION_TOKEN = "verification-token-osae"
DEFAULT_TOKEN = "xoxb-test"

TRIGGER_TTL = 3.0  # seconds: Slack's trigger_id lifetime
MAX_MESSAGE_BLOCKS = 50
MAX_VIEW_BLOCKS = 100
MAX_TEXT = 40_000
MAX_STACK = 3  # a modal stack holds at most three views

_JSON_FIELDS = ("blocks", "view", "attachments", "metadata", "user_auth_blocks")
_USER_ID = re.compile(r"^[UW][A-Z0-9]+$")

Handler = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Call:
    """One request the stand-in received, with the answer it gave."""

    method: str  # "chat.postMessage", ..., or "response_url"
    body: dict[str, Any]  # query and body merged; JSON strings in form fields parsed
    headers: dict[str, str]
    at: float  # time.time() on arrival
    path: str = ""
    status: int = 200
    response: Any = None

    @property
    def ok(self) -> bool:
        return (
            self.status == 200 and isinstance(self.response, dict) and bool(self.response.get("ok"))
        )

    @property
    def error(self) -> str | None:
        return self.response.get("error") if isinstance(self.response, dict) else None

    def header(self, name: str) -> str | None:
        """A request header, looked up case-insensitively."""
        wanted = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == wanted), None)


class Refusal(Exception):
    """Raised by a method handler: Slack's ``{"ok": false, "error": ...}``."""

    def __init__(self, error: str, *messages: str) -> None:
        super().__init__(error)
        self.error = error
        self.messages = list(messages)

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"ok": False, "error": self.error}
        if self.messages:
            body["response_metadata"] = {"messages": self.messages}
        return body


@dataclass
class _Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class _Trigger:
    issued: float
    view_id: str | None
    used: bool = False


@dataclass
class _Bucket:
    tokens: float
    updated: float


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    standin: SlackStandin

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet: clients that time out or hang up are part of the tests."""


class _RequestHandler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        self._serve()

    def do_GET(self) -> None:
        self._serve()

    def log_message(self, format: str, *args: Any) -> None:
        """No access log on stdout/stderr."""

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        standin = self.server.standin
        reply, delay = standin._receive(self.path, dict(self.headers.items()), raw)
        if delay:
            standin._stopping.wait(delay)
        self._send(reply)

    def _send(self, reply: _Reply) -> None:
        if isinstance(reply.body, (dict, list)):
            data = json.dumps(reply.body, ensure_ascii=False).encode()
            ctype = "application/json; charset=utf-8"
        else:
            data = str(reply.body).encode()
            ctype = "text/plain; charset=utf-8"
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (ConnectionError, TimeoutError):
            pass  # the client gave up (e.g. its timeout was shorter than delay_next)


class SlackStandin:
    """A Slack Web API on 127.0.0.1: realistic answers, recorded calls, programmable faults.

    ``tokens``: bot tokens that authenticate. ``per_channel_rate``: if set, chat.postMessage is
    limited to that many messages per second per channel (token bucket of ``per_channel_burst``),
    answering 429 with Retry-After beyond it. ``channels``: if set, the only channels (besides
    DMs) that exist; otherwise any channel id is accepted. ``strict_triggers``: if true,
    views.open/push accept only trigger ids from :meth:`issue_trigger`, once, within 3 s.
    """

    def __init__(
        self,
        tokens: Iterable[str] = (DEFAULT_TOKEN,),
        *,
        per_channel_rate: float | None = None,
        per_channel_burst: int = 3,
        channels: Iterable[str] | None = None,
        strict_triggers: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.tokens = {tokens} if isinstance(tokens, str) else set(tokens)
        self.per_channel_rate = per_channel_rate
        self.per_channel_burst = per_channel_burst
        self.strict_triggers = strict_triggers
        self._known_channels = set(channels) if channels is not None else None
        self._clock = clock
        self._cond = threading.Condition(threading.RLock())
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._handlers: dict[str, Handler] = self._builtin_handlers()
        self._users: dict[str, dict[str, Any]] = {}
        self.errors: list[BaseException] = []  # bugs in the stand-in itself, surfaced as 500s
        self.reset()

    # ----------------------------------------------------------------- lifecycle

    def start(self) -> SlackStandin:
        if self._server is not None:
            return self
        self._stopping.clear()
        server = _Server(("127.0.0.1", 0), _RequestHandler)
        server.standin = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self._thread.name = f"slack-standin:{self.port}"
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> SlackStandin:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("SlackStandin is not started")
        return int(self._server.server_address[1])

    @property
    def root_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """For ``WebClient(base_url=...)``: ends with "/", methods are appended."""
        return f"{self.root_url}/api/"

    def response_url(self, name: str, *, channel: str | None = None, ts: str | None = None) -> str:
        """A response_url on this server; POSTs to it are recorded as method "response_url".

        Bound to a message (``channel``, ``ts``), ``replace_original`` / ``delete_original``
        change or delete that stored message, as Slack does for message interactions.
        """
        with self._cond:
            if channel is not None and ts is not None:
                self._response_targets[name] = (channel, ts)
        return f"{self.root_url}/response/{quote(name, safe='')}"

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

    def on(self, method: str, handler: Handler) -> None:
        """Answer ``method`` with ``handler(body) -> response dict`` (may raise Refusal)."""
        with self._cond:
            self._handlers[method] = handler

    def issue_trigger(self, *, view_id: str | None = None) -> str:
        """A fresh trigger_id, as in an interaction payload (from ``view_id``'s modal, if any)."""
        trigger = f"{secrets.randbelow(10**13)}.{secrets.randbelow(10**13)}.{secrets.token_hex(16)}"
        with self._cond:
            self._triggers[trigger] = _Trigger(self._clock(), view_id)
        return trigger

    # -------------------------------------------------------- programmed faults

    def fail_next(
        self, method: str, error: str = "ratelimited", *, times: int = 1, status: int = 200
    ) -> None:
        """The next ``times`` calls of ``method`` answer ``{"ok": false, "error": error}``."""
        headers = {"Retry-After": "1"} if status == 429 else {}
        self._add_faults(method, _Reply(status, {"ok": False, "error": error}, headers), times)

    def rate_limit_next(self, method: str, *, retry_after: int = 1, times: int = 1) -> None:
        """The next ``times`` calls answer HTTP 429, ``Retry-After: retry_after``, ratelimited."""
        reply = _Reply(
            429, {"ok": False, "error": "ratelimited"}, {"Retry-After": str(retry_after)}
        )
        self._add_faults(method, reply, times)

    def fail_with_status(self, method: str, status: int = 500, *, times: int = 1) -> None:
        """The next ``times`` calls answer a server error (500, 502, 503, ...)."""
        error = {500: "internal_error", 503: "service_unavailable"}.get(status, "fatal_error")
        self._add_faults(method, _Reply(status, {"ok": False, "error": error}), times)

    def delay_next(self, method: str, seconds: float, *, times: int = 1) -> None:
        """The next ``times`` calls are answered only after ``seconds`` (slowness, timeouts)."""
        with self._cond:
            self._delays[method].extend([seconds] * times)

    def _add_faults(self, method: str, reply: _Reply, times: int) -> None:
        with self._cond:
            self._faults[method].extend([reply] * times)

    # --------------------------------------------------------- recorded calls

    @property
    def calls(self) -> list[Call]:
        with self._cond:
            return list(self._calls)

    def calls_to(self, method: str) -> list[Call]:
        with self._cond:
            return [c for c in self._calls if c.method == method]

    def last(self, method: str) -> Call:
        """The latest call of ``method``; AssertionError if there was none."""
        found = self.calls_to(method)
        if not found:
            raise AssertionError(f"no call to {method}; recorded: {self._summary()}")
        return found[-1]

    def responses(self, name: str | None = None) -> list[Call]:
        """POSTs to response_url(``name``) (all response_urls if None)."""
        path = None if name is None else f"/response/{quote(name, safe='')}"
        return [c for c in self.calls_to("response_url") if path is None or c.path == path]

    def wait_for(
        self,
        method: str,
        count: int = 1,
        timeout: float = 5.0,
        predicate: Callable[[Call], bool] | None = None,
    ) -> list[Call]:
        """Block until ``count`` calls of ``method`` (matching ``predicate``) have arrived.

        Counts every recorded call, refused ones included; returns the matching calls.
        Raises AssertionError after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout

        def matching() -> list[Call]:
            return [
                c for c in self._calls if c.method == method and (predicate is None or predicate(c))
            ]

        with self._cond:
            while len(found := matching()) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"waited {timeout}s for {count} call(s) to {method}, got {len(found)}; "
                        f"recorded: {self._summary()}"
                    )
                self._cond.wait(left)
            return found

    def clear(self) -> None:
        """Forget recorded calls (state, users and programmed faults stay)."""
        with self._cond:
            self._calls.clear()

    def reset(self) -> None:
        """Forget calls, messages, views, triggers, faults and rate-limit buckets (not users)."""
        with self._cond:
            self._calls: list[Call] = []
            self._faults: defaultdict[str, deque[_Reply]] = defaultdict(deque)
            self._delays: defaultdict[str, deque[float]] = defaultdict(deque)
            self._messages: defaultdict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
            self._views: dict[str, dict[str, Any]] = {}
            self._external_ids: dict[str, str] = {}
            self._homes: dict[str, str] = {}
            self._triggers: dict[str, _Trigger] = {}
            self._buckets: dict[str, _Bucket] = {}
            self._response_targets: dict[str, tuple[str, str]] = {}
            self._last_ts = 0
            self._view_seq = 0

    def _summary(self) -> str:
        return ", ".join(f"{c.method}:{c.status}:{c.error or 'ok'}" for c in self._calls) or "none"

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

    # ------------------------------------------------------------- dispatching

    def _receive(self, path: str, headers: dict[str, str], raw: bytes) -> tuple[_Reply, float]:
        """Answer one HTTP request, record it, and say how long to stall the answer."""
        at = time.time()
        url = urlsplit(path)
        if url.path.startswith("/response/"):
            method = "response_url"
        elif url.path.startswith("/api/"):
            method = url.path.removeprefix("/api/")
        else:
            method = url.path
        try:
            body, reply = self._answer(method, url.path, url.query, headers, raw)
        except Exception as exc:  # a bug here must not look like a Slack answer
            self.errors.append(exc)
            body, reply = {}, _Reply(500, {"ok": False, "error": f"standin_bug: {exc!r}"})
        with self._cond:
            self._calls.append(Call(method, body, headers, at, url.path, reply.status, reply.body))
            delays = self._delays.get(method)
            delay = delays.popleft() if delays else 0.0
            self._cond.notify_all()
        return reply, delay

    def _answer(
        self, method: str, path: str, query: str, headers: dict[str, str], raw: bytes
    ) -> tuple[dict[str, Any], _Reply]:
        try:
            body = _parse_body(_header(headers, "Content-Type") or "", raw, query)
        except ValueError:
            raw_text = {"_raw": raw.decode(errors="replace")}
            return raw_text, _Reply(200, {"ok": False, "error": "invalid_json"})
        return body, self._decide(method, path, headers, body)

    def _decide(
        self, method: str, path: str, headers: dict[str, str], body: dict[str, Any]
    ) -> _Reply:
        """Programmed fault, then auth, then rate limit, then the method itself."""
        with self._cond:
            if method == "response_url":
                return self._fault(method) or self._post_response_url(path, body)
            handler = self._handlers.get(method)
            if handler is None:
                return _Reply(200, {"ok": False, "error": "unknown_method", "req_method": method})
            refused = (
                self._fault(method)
                or (None if method == "api.test" else self._check_auth(headers, body))
                or self._rate_limit(method, body)
            )
            if refused is not None:
                return refused
            try:
                return _Reply(200, handler(body))
            except Refusal as refusal:
                return _Reply(200, refusal.body())

    def _fault(self, method: str) -> _Reply | None:
        faults = self._faults.get(method)
        return faults.popleft() if faults else None

    def _check_auth(self, headers: dict[str, str], body: dict[str, Any]) -> _Reply | None:
        authorization = _header(headers, "Authorization") or ""
        token = authorization.removeprefix("Bearer ").strip() if authorization else ""
        token = token or str(body.get("token") or "")
        if not token:
            return _Reply(200, {"ok": False, "error": "not_authed"})
        if token not in self.tokens:
            return _Reply(200, {"ok": False, "error": "invalid_auth"})
        return None

    def _rate_limit(self, method: str, body: dict[str, Any]) -> _Reply | None:
        """Slack's chat.postMessage limit: about ``per_channel_rate``/s per channel, bursts ok."""
        rate = self.per_channel_rate
        channel = str(body.get("channel") or "")
        if rate is None or method != "chat.postMessage" or not channel:
            return None
        key = self._resolve_channel(channel)
        now = self._clock()
        burst = float(max(1, self.per_channel_burst))
        bucket = self._buckets.setdefault(key, _Bucket(burst, now))
        bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * rate)
        bucket.updated = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return None
        retry_after = max(1, math.ceil((1 - bucket.tokens) / rate))
        return _Reply(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": str(retry_after)})

    def _builtin_handlers(self) -> dict[str, Handler]:
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
        _check_message_content(body)
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
            _check_message_content(body)
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
        _check_message_content(body)
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
        if _USER_ID.match(channel):
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

    def _resolve_channel(self, channel: str) -> str:
        return self.dm_channel(channel) if _USER_ID.match(channel) else channel

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
        if any(not _USER_ID.match(u) for u in users):
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
        if not _truthy(body.get("include_locale")):
            answer.pop("locale", None)
        return {"ok": True, "user": answer}

    # ----------------------------------------------------------- method: views

    def _views_open(self, body: dict[str, Any]) -> dict[str, Any]:
        self._take_trigger(body)
        spec = _check_view(body.get("view"), "modal")
        return {"ok": True, "view": self._store_view(spec, previous=None)}

    def _views_push(self, body: dict[str, Any]) -> dict[str, Any]:
        trigger = self._take_trigger(body)
        spec = _check_view(body.get("view"), "modal")
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
        spec = _check_view(body.get("view"), current["type"])
        return {"ok": True, "view": self._store_view(spec, replacing=current)}

    def _views_publish(self, body: dict[str, Any]) -> dict[str, Any]:
        user_id = str(body.get("user_id") or "")
        if not _USER_ID.match(user_id):
            raise Refusal("invalid_arguments", "[ERROR] missing required field: user_id")
        spec = _check_view(body.get("view"), "home")
        current = self._views.get(self._homes.get(user_id, ""))
        if current is not None and body.get("hash") and body["hash"] != current["hash"]:
            raise Refusal("hash_conflict")
        view = self._store_view(spec, replacing=current)
        self._homes[user_id] = view["id"]
        return {"ok": True, "view": view}

    def _take_trigger(self, body: dict[str, Any]) -> _Trigger | None:
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

    def _post_response_url(self, path: str, body: dict[str, Any]) -> _Reply:
        name = path.removeprefix("/response/")
        target = self._response_targets.get(name)
        if _truthy(body.get("delete_original")):
            if target is not None:
                self._messages.get(target[0], {}).pop(target[1], None)
            return _Reply(200, {"ok": True})
        if not any(body.get(k) for k in ("text", "blocks", "attachments")):
            return _Reply(400, {"ok": False, "error": "no_text"})
        try:
            _check_message_content(body)
        except Refusal as refusal:
            return _Reply(400, refusal.body())
        if target is not None and _truthy(body.get("replace_original")):
            channel, ts = target
            if ts in self._messages.get(channel, {}):
                self._messages[channel][ts] = {**_message(body, ts)}
        return _Reply(200, {"ok": True})


# ----------------------------------------------------------------- helpers


def _header(headers: dict[str, str], name: str) -> str | None:
    wanted = name.lower()
    return next((v for k, v in headers.items() if k.lower() == wanted), None)


def _truthy(value: Any) -> bool:
    return value is True or str(value).lower() in ("1", "true")


def _parse_body(content_type: str, raw: bytes, query: str) -> dict[str, Any]:
    """Query string and body merged; JSON-in-form fields (blocks, view, ...) parsed.

    Raises ValueError for a JSON body that does not parse.
    """
    body: dict[str, Any] = {k: v[-1] for k, v in parse_qs(query, keep_blank_values=True).items()}
    if not raw:
        return body
    ctype = content_type.split(";", maxsplit=1)[0].strip().lower()
    if ctype == "application/json":
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError("JSON body is not an object")
        body.update(data)
        return body
    form = parse_qs(raw.decode(), keep_blank_values=True)
    body.update({k: v[-1] for k, v in form.items()})
    if "payload" in body and isinstance(body["payload"], str):
        body.update(json.loads(body.pop("payload")))  # response_url also takes payload=<json>
    for key in _JSON_FIELDS:
        value = body.get(key)
        if isinstance(value, str) and value[:1] in ("[", "{"):
            # one that does not parse stays a string: invalid_blocks_format / invalid_arguments
            with contextlib.suppress(ValueError):
                body[key] = json.loads(value)
    return body


def _check_message_content(body: dict[str, Any]) -> None:
    text = body.get("text")
    blocks = body.get("blocks")
    if not text and not blocks and not body.get("attachments"):
        raise Refusal("no_text")
    if text is not None and len(str(text)) > MAX_TEXT:
        raise Refusal("msg_too_long")
    if blocks is not None:
        _check_blocks(blocks, MAX_MESSAGE_BLOCKS, "/blocks", error="invalid_blocks")


def _check_blocks(blocks: Any, limit: int, pointer: str, *, error: str) -> None:
    """Slack's block checks that matter in practice: a list of typed blocks, sizes, unique ids."""
    if not isinstance(blocks, list):
        if error == "invalid_blocks":
            raise Refusal(
                "invalid_blocks_format", f"[ERROR] must be an array [json-pointer:{pointer}]"
            )
        raise Refusal(error, f"[ERROR] must be an array [json-pointer:{pointer}]")
    if len(blocks) > limit:
        raise Refusal(error, f"[ERROR] no more than {limit} items allowed [json-pointer:{pointer}]")
    seen: set[str] = set()
    for i, block in enumerate(blocks):
        here = f"{pointer}/{i}"
        if not isinstance(block, dict) or not block.get("type"):
            raise Refusal(error, f"[ERROR] missing required field: type [json-pointer:{here}]")
        block_id = block.get("block_id")
        if block_id is not None:
            if block_id in seen:
                raise Refusal(
                    error, f"[ERROR] duplicate block_id {block_id!r} [json-pointer:{here}]"
                )
            seen.add(block_id)
        _check_block(block, here, error)


def _check_block(block: dict[str, Any], here: str, error: str) -> None:
    kind = block["type"]
    text = block.get("text")
    if kind == "section" and isinstance(text, dict) and len(str(text.get("text", ""))) > 3000:
        raise Refusal(
            error, f"[ERROR] must be less than 3001 characters [json-pointer:{here}/text/text]"
        )
    if kind == "header" and isinstance(text, dict) and len(str(text.get("text", ""))) > 150:
        raise Refusal(
            error, f"[ERROR] must be less than 151 characters [json-pointer:{here}/text/text]"
        )
    if kind == "input":
        for required in ("label", "element"):
            if not block.get(required):
                raise Refusal(
                    error, f"[ERROR] missing required field: {required} [json-pointer:{here}]"
                )
    elements = [
        (f"{here}/accessory", block.get("accessory")),
        (f"{here}/element", block.get("element")),
    ]
    if kind == "actions" and isinstance(block.get("elements"), list):
        elements += [(f"{here}/elements/{i}", e) for i, e in enumerate(block["elements"])]
    for where, element in elements:
        if isinstance(element, dict):
            _check_element(element, where, error)


def _check_element(element: dict[str, Any], here: str, error: str) -> None:
    """Menus: at most 100 options (100 groups of at most 100), labels of at most 75
    characters, values of at most 150, an initial option among the options; a confirmation
    dialog's text is plain_text."""
    confirm = element.get("confirm")
    if isinstance(confirm, dict):
        kind = (
            (confirm.get("text") or {}).get("type")
            if isinstance(confirm.get("text"), dict)
            else None
        )
        if kind != "plain_text":
            raise Refusal(
                error,
                f"[ERROR] must be a plain_text text object [json-pointer:{here}/confirm/text]",
            )
    options = element.get("options")
    groups = element.get("option_groups")
    found: list[dict[str, Any]] = []
    if isinstance(options, list):
        _check_options(options, f"{here}/options", error)
        found += options
    if isinstance(groups, list):
        if len(groups) > 100:
            raise Refusal(
                error, f"[ERROR] no more than 100 items allowed [json-pointer:{here}/option_groups]"
            )
        for i, group in enumerate(groups):
            group_options = group.get("options") if isinstance(group, dict) else None
            if not isinstance(group_options, list):
                raise Refusal(
                    error,
                    f"[ERROR] missing required field: options "
                    f"[json-pointer:{here}/option_groups/{i}]",
                )
            _check_options(group_options, f"{here}/option_groups/{i}/options", error)
            found += group_options
    initial = element.get("initial_option")
    static = element.get("type") in ("static_select", "radio_buttons")
    if (
        static
        and isinstance(initial, dict)
        and all(o.get("value") != initial.get("value") for o in found if isinstance(o, dict))
    ):
        raise Refusal(
            error,
            "[ERROR] initial_option must be one of the options "
            f"[json-pointer:{here}/initial_option]",
        )


def _check_options(options: list[Any], here: str, error: str) -> None:
    if len(options) > 100:
        raise Refusal(error, f"[ERROR] no more than 100 items allowed [json-pointer:{here}]")
    for i, option in enumerate(options):
        label = (option.get("text") or {}).get("text", "") if isinstance(option, dict) else ""
        if len(str(label)) > 75:
            raise Refusal(
                error,
                f"[ERROR] must be less than 76 characters [json-pointer:{here}/{i}/text/text]",
            )
        if isinstance(option, dict) and len(str(option.get("value", ""))) > 150:
            raise Refusal(
                error, f"[ERROR] must be less than 151 characters [json-pointer:{here}/{i}/value]"
            )


def _check_view(view: Any, kind: str) -> dict[str, Any]:
    """A view payload as views.open/push/update/publish check it; returns it."""
    if not isinstance(view, dict):
        raise Refusal(
            "invalid_arguments", "[ERROR] failed to match all allowed schemas [json-pointer:/view]"
        )
    if view.get("type") != kind:
        raise Refusal("invalid_arguments", f"[ERROR] must be '{kind}' [json-pointer:/view/type]")
    _check_blocks(view.get("blocks"), MAX_VIEW_BLOCKS, "/view/blocks", error="invalid_arguments")
    if len(str(view.get("private_metadata") or "")) > 3000:
        raise Refusal(
            "invalid_arguments",
            "[ERROR] must be less than 3001 characters [json-pointer:/view/private_metadata]",
        )
    if len(str(view.get("callback_id") or "")) > 255:
        raise Refusal(
            "invalid_arguments",
            "[ERROR] must be less than 256 characters [json-pointer:/view/callback_id]",
        )
    if kind == "modal":
        _check_modal(view)
    return view


def _check_modal(view: dict[str, Any]) -> None:
    if not isinstance(view.get("title"), dict):
        raise Refusal(
            "invalid_arguments", "[ERROR] missing required field: title [json-pointer:/view]"
        )
    for key in ("title", "submit", "close"):
        part = view.get(key)
        if isinstance(part, dict) and len(str(part.get("text", ""))) > 24:
            raise Refusal(
                "invalid_arguments",
                f"[ERROR] must be less than 25 characters [json-pointer:/view/{key}/text]",
            )
    has_input = any(b.get("type") == "input" for b in view["blocks"])
    if has_input and not view.get("submit"):
        raise Refusal(
            "invalid_arguments",
            "[ERROR] must provide a submit property when using input blocks [json-pointer:/view]",
        )


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
