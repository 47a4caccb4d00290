"""The trust boundary (docs/architecture.md, "Trust boundary"): the one place, in front of
Bolt, that decides what a request from the internet may cause.

1. Verify. The raw body (at most ``MAX_BODY`` bytes) is checked against Slack's signature,
   with the headers parsed strictly: the timestamp is ASCII digits within five minutes of
   now, the signature ``v0=`` and 64 hex digits, compared in constant time. Anything else is
   401 and causes nothing else: the body is not parsed, no Web API call is made, nothing is
   posted to its response_url, the database is not touched. (slack_sdk's verifier would
   raise on a timestamp like ``abc`` and on a body that is not UTF-8, and Bolt's error
   handler then acted on the unverified body; the HMAC is therefore computed here, over the
   bytes as received.)
2. Parse. The verified body is read by field and its shape checked (``bot.payloads``); a
   malformed one gets 400 and a log line saying where, never an echo of the input.
3. Dispatch. Bolt gets the request already parsed (its own parser misreads any form body
   that contains the word "payload") and checks the signature once more itself. Listener
   errors are Bolt's error handler's; should Bolt's own routing trip over a body that the
   shape checks let through, that is logged as an error and answered 400, not 500.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import time
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any

from slack_bolt import App, BoltRequest, BoltResponse
from slack_bolt.adapter.wsgi.http_response import WsgiHttpResponse

from bot.payloads import read_body
from bot.shapes import Malformed

if TYPE_CHECKING:
    from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

EVENTS_PATH = "/slack/events"  # where Slack posts (manifest.yml's request URLs)
MAX_BODY = 4 * 1024 * 1024  # a view_submission carries its whole view; 100 blocks of Japanese
MAX_AGE = 5 * 60  # seconds, either way: Slack's rule against replays
_TIMESTAMP = re.compile(r"[0-9]{1,12}")
_SIGNATURE = re.compile(r"v0=[0-9a-f]{64}")
_LENGTH = re.compile(r"[0-9]{1,12}")

log = logging.getLogger("osae.web")


class SlackGate:
    """The WSGI app: ``POST /slack/events`` is verified, parsed, then handed to Bolt; any other
    request goes to ``others`` (``/healthz``), never near Bolt."""

    def __init__(
        self,
        app: App,
        signing_secret: str,
        others: WSGIApplication,
        *,
        clock: Callable[[], float] = time.time,
        max_body: int = MAX_BODY,
        answering: Callable[[], AbstractContextManager[None]] = nullcontext,
    ) -> None:
        self.app = app
        self._answering = answering
        self.others = others
        self._secret = signing_secret.encode()
        self._clock = clock
        self._max_body = max_body

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != EVENTS_PATH or environ.get("REQUEST_METHOD") != "POST":
            return self.others(environ, start_response)
        with self._answering():  # the bot's work after its acks waits for this answer
            length = _content_length(environ)
            if length is None or length > self._max_body:
                log.warning("web.refused", extra={"reason": "body_size", "status": 413})
                return _refuse(start_response, 413, "too_large")
            raw = environ["wsgi.input"].read(length) if length else b""
            headers = _headers(environ)
            reason = self.unverified(raw, headers)
            if reason is not None:
                log.warning("web.unverified", extra={"reason": reason, "status": 401})
                return _refuse(start_response, 401, "invalid_request")
            try:
                body = read_body(raw, headers.get("content-type"))
            except Malformed as err:
                log.warning(
                    "web.malformed", extra={"where": err.where, "why": err.why, "status": 400}
                )
                return _refuse(start_response, 400, "malformed_request")
            try:
                response = self.app.dispatch(parsed_request(raw, body, headers))
            except Exception:  # Bolt tripped on a shape bot.payloads let through: logged, 400
                log.exception("web.dispatch_failed", extra={"status": 400})
                return _refuse(start_response, 400, "malformed_request")
            return _answer(start_response, response)

    def unverified(self, raw: bytes, headers: dict[str, str]) -> str | None:
        """Why this request is not known to come from Slack just now; None if it is."""
        timestamp = headers.get("x-slack-request-timestamp", "")
        signature = headers.get("x-slack-signature", "")
        if not _TIMESTAMP.fullmatch(timestamp):
            return "timestamp_malformed"
        if abs(self._clock() - int(timestamp)) > MAX_AGE:
            return "timestamp_stale"
        if not _SIGNATURE.fullmatch(signature):
            return "signature_malformed"
        signed = b"v0:" + timestamp.encode() + b":" + raw
        expected = "v0=" + hmac.new(self._secret, signed, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(expected, signature):
            return "signature_mismatch"
        return None


def parsed_request(raw: bytes, body: dict[str, Any], headers: dict[str, str]) -> BoltRequest:
    """A Bolt request whose body is ours, parsed by field, with the raw text kept for Bolt's
    own signature check (a dict body is taken as parsed only in Bolt's Socket Mode path)."""
    request = BoltRequest(body=body, headers=dict(headers), mode="socket_mode")
    request.raw_body = raw.decode("utf-8")  # read_body has checked it decodes
    request.mode = "http"
    return request


def _content_length(environ: WSGIEnvironment) -> int | None:
    raw = str(environ.get("CONTENT_LENGTH") or "0")
    return int(raw) if _LENGTH.fullmatch(raw) else None


def _headers(environ: WSGIEnvironment) -> dict[str, str]:
    """Request headers, lower-case names (a header sent twice arrives joined by a comma, and
    then matches no strict pattern)."""
    headers = {
        key[5:].lower().replace("_", "-"): str(value)
        for key, value in environ.items()
        if key.startswith("HTTP_")
    }
    if environ.get("CONTENT_TYPE"):
        headers["content-type"] = str(environ["CONTENT_TYPE"])
    return headers


def _refuse(start_response: StartResponse, status: int, error: str) -> Iterable[bytes]:
    return _answer(start_response, BoltResponse(status=status, body={"error": error}))


def _answer(start_response: StartResponse, response: BoltResponse) -> Iterable[bytes]:
    wsgi = WsgiHttpResponse(
        status=response.status, headers=response.headers, body=response.body or ""
    )
    start_response(wsgi.status, wsgi.get_headers())
    return wsgi.get_body()
