"""A local stand-in of Slack's Socket Mode: ``apps.connections.open`` on a :class:`SlackStandin`
and the WebSocket it hands out, speaking Slack's envelope format.

Slack's side of the protocol, as documented for Socket Mode:
- ``apps.connections.open`` (called with the app-level token, ``xapp-...``) answers
  ``{"ok": true, "url": "wss://.../link/?ticket=..."}``; a ticket is good for one connection;
- on connecting, Slack sends ``{"type": "hello", "num_connections": n, ...}``;
- each request is an envelope ``{"envelope_id", "type": "slash_commands" | "interactive" |
  "events_api", "payload", "accepts_response_payload", "retry_attempt", "retry_reason"}``;
- the app acknowledges with ``{"envelope_id": ..., "payload": {...}?}`` on the same socket
  (within 3 seconds, or Slack shows the user an error);
- Slack may send ``{"type": "disconnect", "reason": "refresh_requested"}`` and close, and a
  socket may simply drop: the app opens a new connection.

    with SlackStandin(tokens=["xoxb-test", APP_TOKEN]) as slack, SocketModeStandin(slack) as sm:
        ...app connects with SLACK_APP_TOKEN=APP_TOKEN, SLACK_API_URL=slack.base_url...
        sm.wait_for_connections(1)
        ack = sm.request("slash_commands", payload)   # waits for the ack
        assert ack.within(3.0)
"""

from __future__ import annotations

import json
import secrets
import socket
import struct
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve

from tests.support.slack_limits import Refusal
from tests.support.slack_standin import SlackStandin
from tests.support.slack_workspace import APP_ID

APP_TOKEN = "xapp-1-A0OSAE001-test"
Json = dict[str, Any]


@dataclass(frozen=True)
class Ack:
    envelope_id: str
    sent_at: float  # time.monotonic() when the envelope went out
    acked_at: float
    payload: Json | None  # what the app answered with, if anything

    @property
    def seconds(self) -> float:
        return self.acked_at - self.sent_at

    def within(self, seconds: float) -> bool:
        return self.seconds <= seconds


@dataclass
class _Link:
    number: int
    connection: ServerConnection
    opened_at: float
    received: list[Json] = field(default_factory=list)


class SocketModeStandin:
    def __init__(self, slack: SlackStandin, app_token: str = APP_TOKEN) -> None:
        self.slack = slack
        self.app_token = app_token
        self._cond = threading.Condition()
        self._tickets: set[str] = set()
        self._links: list[_Link] = []
        self._current: _Link | None = None
        self._sent: dict[str, float] = {}
        self._acks: dict[str, Ack] = {}
        self.opened = 0  # apps.connections.open calls answered
        self.refused: list[str] = []  # why connections were turned away
        self._server: Server | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> SocketModeStandin:
        self._server = serve(self._serve, "127.0.0.1", 0, ping_interval=None)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        self.slack.tokens.add(self.app_token)
        self.slack.on("apps.connections.open", self._open)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> SocketModeStandin:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.socket.getsockname()[1])

    # ------------------------------------------------------------------ Slack's side
    def _open(self, body: Json) -> Json:
        """apps.connections.open: only with an app-level token; a one-use ticket."""
        if not self.app_token.startswith("xapp-"):
            raise Refusal("not_allowed_token_type")
        ticket = str(uuid.uuid4())
        with self._cond:
            self._tickets.add(ticket)
            self.opened += 1
        return {"ok": True, "url": f"ws://127.0.0.1:{self.port}/link/?ticket={ticket}"}

    def _serve(self, connection: ServerConnection) -> None:
        request = connection.request
        ticket = parse_qs(urlsplit(request.path if request else "").query).get("ticket", [""])[0]
        with self._cond:
            if ticket not in self._tickets:
                self.refused.append(f"unknown or used ticket {ticket!r}")
                connection.close(4001, "invalid ticket")
                return
            self._tickets.discard(ticket)
            link = _Link(len(self._links) + 1, connection, time.monotonic())
            self._links.append(link)
            self._current = link
            self._cond.notify_all()
        connection.send(json.dumps(_hello()))
        try:
            for raw in connection:
                self._receive(link, json.loads(raw))
        except (ConnectionClosed, OSError, ValueError):
            pass  # dropped or closed: the app is expected to open a new link
        finally:
            with self._cond:
                if self._current is link:
                    self._current = None
                self._cond.notify_all()

    def _receive(self, link: _Link, message: Json) -> None:
        with self._cond:
            link.received.append(message)
            envelope_id = str(message.get("envelope_id") or "")
            if envelope_id in self._sent and envelope_id not in self._acks:
                payload = message.get("payload")
                self._acks[envelope_id] = Ack(
                    envelope_id, self._sent[envelope_id], time.monotonic(), payload
                )
            self._cond.notify_all()

    # ------------------------------------------------------------------ what tests do
    def wait_for_connections(self, count: int, timeout: float = 30.0) -> None:
        """Until ``count`` links were opened in all, the last still open."""
        with self._cond:
            done = self._cond.wait_for(
                lambda: len(self._links) >= count and self._current is not None, timeout
            )
        if not done:
            raise AssertionError(
                f"{len(self._links)} connection(s) in {timeout}s, wanted {count}; "
                f"refused: {self.refused}"
            )

    def send(self, kind: str, payload: Json, *, accepts_response_payload: bool = True) -> str:
        """An envelope on the current link; returns its envelope_id."""
        envelope_id = str(uuid.uuid4())
        envelope = {
            "envelope_id": envelope_id,
            "type": kind,
            "payload": payload,
            "accepts_response_payload": accepts_response_payload,
            "retry_attempt": 0,
            "retry_reason": "",
        }
        with self._cond:
            link = self._current
            if link is None:
                raise AssertionError("no Socket Mode connection is open")
            self._sent[envelope_id] = time.monotonic()
        link.connection.send(json.dumps(envelope, ensure_ascii=False))
        return envelope_id

    def wait_for_ack(self, envelope_id: str, timeout: float = 10.0) -> Ack:
        with self._cond:
            self._cond.wait_for(lambda: envelope_id in self._acks, timeout)
            ack = self._acks.get(envelope_id)
        if ack is None:
            raise AssertionError(f"envelope {envelope_id} not acknowledged in {timeout}s")
        return ack

    def request(self, kind: str, payload: Json, **options: Any) -> Ack:
        return self.wait_for_ack(self.send(kind, payload, **options))

    def drop(self) -> None:
        """The network drops the current link: no close frame, the TCP connection just ends."""
        with self._cond:
            link = self._current
        if link is None:
            raise AssertionError("no Socket Mode connection is open")
        raw = link.connection.socket
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # a reset
        raw.shutdown(socket.SHUT_RDWR)
        raw.close()

    def refresh(self) -> None:
        """What Slack does every few hours: a ``disconnect`` message, then a close."""
        with self._cond:
            link = self._current
        if link is None:
            raise AssertionError("no Socket Mode connection is open")
        message = {"type": "disconnect", "reason": "refresh_requested", "debug_info": _debug()}
        link.connection.send(json.dumps(message))
        link.connection.close(1000, "")

    @property
    def connections(self) -> int:
        with self._cond:
            return len(self._links)


def _hello() -> Json:
    return {
        "type": "hello",
        "num_connections": 1,
        "debug_info": {**_debug(), "build_number": 1, "approximate_connection_time": 18060},
        "connection_info": {"app_id": APP_ID},
    }


def _debug() -> Json:
    return {"host": f"applink-standin-{secrets.token_hex(3)}"}
