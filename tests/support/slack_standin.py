"""A local stand-in of the Slack Web API, for tests and benchmarks.

Point ``slack_sdk.WebClient(token="xoxb-test", base_url=standin.base_url)`` at it. It is a real
HTTP server on 127.0.0.1 that answers the methods the bot uses the way Slack does (HTTP 200
with ``{"ok": false, "error": ...}`` for refusals, 429 with ``Retry-After`` when rate limited),
records every call, and can be told to fail, throttle or stall the next calls of a method.
What each method does, and the state it keeps (messages, modals, App Home tabs), is the
workspace's (``tests.support.slack_workspace``); what Slack refuses in blocks and views is
``tests.support.slack_limits``.

    with SlackStandin() as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url)
        client.chat_postMessage(channel="C0SALES", text="hi")
        assert slack.last("chat.postMessage").body["text"] == "hi"
"""

from __future__ import annotations

import contextlib
import json
import math
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from tests.support.slack_files import UPLOAD_PATH, FileUploads
from tests.support.slack_limits import Refusal
from tests.support.slack_oauth import Installs
from tests.support.slack_workspace import Handler, Workspace

DEFAULT_TOKEN = "xoxb-test"

_JSON_FIELDS = ("blocks", "view", "attachments", "metadata", "user_auth_blocks")


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


@dataclass
class _Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


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


class SlackStandin(FileUploads, Workspace):
    """A Slack Web API on 127.0.0.1: realistic answers, recorded calls, programmable faults.

    ``tokens``: bot tokens that authenticate. ``per_channel_rate``: if set, chat.postMessage is
    limited to that many messages per second per channel (token bucket of ``per_channel_burst``),
    answering 429 with Retry-After beyond it. ``channels`` and ``strict_triggers``: see
    ``Workspace``.
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
        installs: Installs | None = None,
    ) -> None:
        self.tokens = {tokens} if isinstance(tokens, str) else set(tokens)
        # Workspaces that installed the app through OAuth, each with its own tokens
        self.installs = installs or Installs()
        self.per_channel_rate = per_channel_rate
        self.per_channel_burst = per_channel_burst
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self.errors: list[BaseException] = []  # bugs in the stand-in itself, surfaced as 500s
        super().__init__(channels=channels, strict_triggers=strict_triggers, clock=clock)
        self._handlers: dict[str, Handler] = {**self.handlers(), **self.file_handlers()}
        for method in _INSTALL_METHODS:  # answered with the request's token (_install_method)
            self._handlers.setdefault(method, lambda body: {"ok": True})

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
        if channel is not None and ts is not None:
            self.bind_response_url(name, channel, ts)
        return f"{self.root_url}/response/{quote(name, safe='')}"

    def on(self, method: str, handler: Handler) -> None:
        """Answer ``method`` with ``handler(body) -> response dict`` (may raise Refusal)."""
        with self._cond:
            self._handlers[method] = handler

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
            self._buckets: dict[str, _Bucket] = {}
            self.reset_files()
            self._files: dict[str, bytes] = {}
            super().reset()

    def _summary(self) -> str:
        return ", ".join(f"{c.method}:{c.status}:{c.error or 'ok'}" for c in self._calls) or "none"

    # ------------------------------------------------------------- dispatching

    def _receive(self, path: str, headers: dict[str, str], raw: bytes) -> tuple[_Reply, float]:
        """Answer one HTTP request, record it, and say how long to stall the answer."""
        at = time.time()
        url = urlsplit(path)
        if url.path.startswith("/files/"):
            method = "files"  # a file's url_private: GET with a token that may read it
        elif url.path.startswith("/response/"):
            method = "response_url"
        elif url.path.startswith(UPLOAD_PATH):
            method = "upload"  # a file's bytes, to the URL files.getUploadURLExternal gave
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
        if method == "upload":
            with self._cond:
                fault = self._fault(method)
            if fault is not None:
                return {"bytes": len(raw)}, fault
            status, said = self.receive_upload(path, raw)
            return {"bytes": len(raw)}, _Reply(status, said)
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
            if method == "files":
                return self._file(path, headers)
            if method == "response_url":
                if fault := self._fault(method):
                    return fault
                answer = self.post_response_url(path.removeprefix("/response/"), body)
                return _Reply(answer.status, answer.body)
            handler = self._handlers.get(method)
            if handler is None:
                return _Reply(200, {"ok": False, "error": "unknown_method", "req_method": method})
            return self._call(method, handler, headers, body)

    def _call(
        self, method: str, handler: Handler, headers: dict[str, str], body: dict[str, Any]
    ) -> _Reply:
        unauthed = method in ("api.test", "oauth.v2.access")  # the app's own credentials
        refused = (
            self._fault(method)
            or (None if unauthed else self._check_auth(headers, body))
            or self._rate_limit(method, body)
        )
        if refused is not None:
            return refused
        if method in _INSTALL_METHODS:
            return _Reply(200, self._install_method(method, headers, body))
        try:
            answer = handler(body)
        except Refusal as refusal:
            return _Reply(200, refusal.body())
        self._own_view(_token(headers, body), answer)
        return _Reply(200, answer)

    def _own_view(self, token: str, answer: dict[str, Any]) -> None:
        """A view opened with an installed workspace's token is that workspace's (Slack puts
        its team in the view, and in the payloads of what is done in it)."""
        grant = self.installs.grant_of(token) if token not in self.tokens else None
        view = answer.get("view")
        if grant is None or not isinstance(view, dict):
            return
        team = grant.team_id or grant.enterprise_id
        for held in (view, self._views.get(str(view.get("id")), {})):
            held["team_id"] = held["app_installed_team_id"] = team

    def host_file(self, name: str, content: bytes) -> dict[str, Any]:
        """A file uploaded to the workspace: the file object a file_input's state carries."""
        with self._cond:
            self._files[name] = content
        url = f"{self.root_url}/files/{quote(name, safe='')}"
        return {
            "id": f"F0{name.upper()[:8]}",
            "name": name,
            "url_private": url,
            "url_private_download": url,
        }

    def _file(self, path: str, headers: dict[str, str]) -> _Reply:
        if self._check_auth(headers, {}) is not None:
            return _Reply(302, "", {"Location": "https://slack.com/signin"})  # as Slack does
        content = self._files.get(unquote(path.removeprefix("/files/")))
        return _Reply(404, "not found") if content is None else _Reply(200, content.decode())

    def _fault(self, method: str) -> _Reply | None:
        faults = self._faults.get(method)
        return faults.popleft() if faults else None

    def _check_auth(self, headers: dict[str, str], body: dict[str, Any]) -> _Reply | None:
        token = _token(headers, body)
        if not token:
            return _Reply(200, {"ok": False, "error": "not_authed"})
        if token in self.tokens:
            return None
        why = self.installs.refusal(token)
        if why is None:
            return None
        return _Reply(200, {"ok": False, "error": "invalid_auth" if why == "unknown" else why})

    def _install_method(
        self, method: str, headers: dict[str, str], body: dict[str, Any]
    ) -> dict[str, Any]:
        """oauth.v2.access, and auth.test / apps.uninstall with an installed workspace's token
        (the single-workspace token answers as the stand-in's own workspace)."""
        if method == "oauth.v2.access":
            return self.installs.oauth_v2_access(headers, body)
        token = _token(headers, body)
        if token in self.tokens:
            return self._auth_test(body) if method == "auth.test" else {"ok": True}
        if method == "auth.test":
            return self.installs.auth_test(token)
        return self.installs.uninstall(token, body)

    def _rate_limit(self, method: str, body: dict[str, Any]) -> _Reply | None:
        """Slack's chat.postMessage limit: about ``per_channel_rate``/s per channel, bursts ok."""
        rate = self.per_channel_rate
        channel = str(body.get("channel") or "")
        if rate is None or method != "chat.postMessage" or not channel:
            return None
        key = self.resolve_channel(channel)
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


# ----------------------------------------------------------------- helpers

_INSTALL_METHODS = frozenset({"oauth.v2.access", "auth.test", "apps.uninstall"})


def _token(headers: dict[str, str], body: dict[str, Any]) -> str:
    authorization = _header(headers, "Authorization") or ""
    token = authorization.removeprefix("Bearer ").strip() if authorization else ""
    return token or str(body.get("token") or "")


def _header(headers: dict[str, str], name: str) -> str | None:
    wanted = name.lower()
    return next((v for k, v in headers.items() if k.lower() == wanted), None)


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
