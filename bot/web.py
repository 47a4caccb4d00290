"""The HTTP face: ``POST /slack/events`` (the trust boundary of ``bot.gate``, then Bolt),
``GET /healthz`` and, with many workspaces, Bolt's ``GET /slack/install`` and
``GET /slack/oauth_redirect``; served by waitress (a production WSGI server, pure Python,
threaded).
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from slack_bolt.adapter.wsgi import SlackRequestHandler
from waitress.server import create_server

from bot import web_limits
from bot.gate import SlackGate

if TYPE_CHECKING:
    from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

    from bot.app import BotApp

HEALTH_PATH = "/healthz"
CALENDAR_PREFIX = "/calendar/"  # calendar feeds (bot.feeds): their own secret, not Slack's
Health = Callable[[], tuple[bool, dict[str, Any]]]

log = logging.getLogger("osae.web")


def build_wsgi(
    app: BotApp | None, health: Health, calendars: WSGIApplication | None = None
) -> WSGIApplication:
    """Slack's requests go through the gate (401 to anything not signed by Slack within the
    last five minutes, 400 to a malformed body) to Bolt; ``/healthz`` answers 200 or 503 with
    ``health()``'s facts as JSON. Without an app (running without Slack), only ``/healthz``.
    ``calendars``: what answers under ``/calendar/`` (``bot.feeds``), Slack or not.
    """
    missing = (
        {"error": "not_found"}
        if app is not None
        else {"error": "not_found", "slack": "not configured"}
    )

    flow = app.oauth_flow if app is not None else None
    install_paths = {flow.install_path, flow.redirect_uri_path} if flow is not None else set()
    installing = SlackRequestHandler(app) if app is not None and flow is not None else None

    def others(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO"), environ.get("REQUEST_METHOD")
        if path == HEALTH_PATH and method in ("GET", "HEAD"):
            return _health(health, start_response)
        if calendars is not None and (path or "").startswith(CALENDAR_PREFIX):
            return calendars(environ, start_response)
        if installing is not None and path in install_paths and method == "GET":
            # Add to Slack: Bolt's install page and its OAuth redirect (state checked there)
            return installing(environ, start_response)
        return _send(start_response, "404 Not Found", missing)

    if app is None:
        return others
    return SlackGate(app, app.signing_secret, others, answering=app.after.answering)


class Server:
    """waitress in a background thread, stoppable: for tests, benches and ``osae serve``."""

    def __init__(
        self, wsgi: WSGIApplication, *, host: str = "127.0.0.1", port: int = 0, threads: int = 8
    ) -> None:
        self._server: Any = create_server(
            wsgi, host=host, port=port, threads=threads, ident="osae", **web_limits.adjustments()
        )
        self._limits = web_limits.Limits(self._server)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="osae-web", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self._server.effective_host}:{self._server.effective_port}"

    def start(self) -> Server:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        # Wakes the poll at once. Its pipe is sometimes closed already when tests stop
        # servers quickly on a busy machine (EBADF, seen about once in ten runs of
        # tests/bot/test_errors.py); the poll then wakes within its 1 s timeout anyway.
        with contextlib.suppress(OSError):
            self._server.pull_trigger()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        """waitress's own loop, a poll at a time, so that it stops in its own thread (closing
        its sockets from another thread would pull them from under a running select)."""
        server = self._server
        while not self._stopping.is_set():
            server.asyncore.loop(timeout=1.0, map=server._map, count=1)
            self._limits.sweep()  # slow clients (bot.web_limits)
        for channel in list(server._map.values()):
            channel.close()
        server.task_dispatcher.shutdown()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _health(health: Health, start_response: StartResponse) -> Iterable[bytes]:
    try:
        ok, facts = health()
    except Exception as err:  # noqa: BLE001 - a failing check is an unhealthy answer, not a 500
        log.warning("web.health_failed", extra={"error": repr(err)})
        ok, facts = False, {"error": type(err).__name__}
    status = "200 OK" if ok else "503 Service Unavailable"
    return _send(start_response, status, {"ok": ok, **facts})


def _send(start_response: StartResponse, status: str, body: dict[str, Any]) -> Iterable[bytes]:
    data = json.dumps(body, ensure_ascii=False, default=str).encode()
    start_response(
        status,
        [("Content-Type", "application/json; charset=utf-8"), ("Content-Length", str(len(data)))],
    )
    return [data]
