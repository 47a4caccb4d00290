"""Slack DMs as the outbox's transport: one chat.postMessage, its answer sorted into what
the outbox should do next.

The client must have no retry handlers: a retry is the outbox's decision, taken with the
row's lease held, never a silent second post inside the SDK.
"""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from core.notices import Notice
from jobs.transport import Delivered, DeliveryOutcome, Message, Permanent, RateLimited, Transient

DEFAULT_RETRY_AFTER = 30.0  # seconds, when a 429 comes without Retry-After (Slack sends it)

# The token itself is refused: every post will fail the same way until an operator acts.
TOKEN_ERRORS = frozenset(
    {
        "invalid_auth",
        "not_authed",
        "account_inactive",
        "token_revoked",
        "token_expired",
        "no_permission",
        "missing_scope",
        "not_allowed_token_type",
        "team_access_not_granted",
        "org_login_required",
    }
)
# Slack's own trouble: worth another try later.
TRANSIENT_ERRORS = frozenset(
    {"internal_error", "fatal_error", "service_unavailable", "request_timeout", "ratelimited"}
)


METADATA_TYPE = "osae_notice"  # on every DM, so a duplicate can be told apart in Slack


class Locales(Protocol):
    def get(self, user_id: str) -> str: ...


PER_CHANNEL = 1.0  # seconds between two posts in one conversation: Slack's chat.postMessage rule


class ChannelPacer:
    """At most one post a second per conversation, across this process's threads: each post
    takes the next free second of its channel and waits for it (a burst of cards in the
    sales channel goes out at Slack's pace instead of meeting 429s). Another process's posts
    are not seen here: Slack's 429 and its Retry-After pace those."""

    def __init__(
        self,
        gap: float = PER_CHANNEL,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._gap, self._clock, self._sleep = gap, clock, sleep
        self._lock = threading.Lock()
        self._next: dict[str, float] = {}

    def wait(self, channel: str) -> None:
        with self._lock:
            now = self._clock()
            at = max(now, self._next.get(channel, now))
            self._next[channel] = at + self._gap
            if len(self._next) > 10_000:  # forget conversations long quiet
                self._next = {k: v for k, v in self._next.items() if v > now}
        if at > now:
            self._sleep(at - now)


@dataclass(frozen=True)
class SlackDM:
    """The transport with Slack: a DM to the user id (chat.postMessage opens the IM)."""

    client: WebClient  # with retry_handlers=[]: no second post behind our back
    locales: Locales  # each recipient's Slack language (users.info), cached
    timeout: float  # the client's own timeout for one Web API call
    pacer: ChannelPacer | None = None  # one post a second per conversation

    def locale(self, recipient: str) -> str:
        return self.locales.get(recipient)

    def send(
        self, to: str, message: Message, *, notice: Notice | None = None, thread: str | None = None
    ) -> DeliveryOutcome:
        if self.pacer is not None:
            self.pacer.wait(to)
        return post_message(
            self.client,
            channel=to,
            text=message.text,
            blocks=list(message.blocks),
            metadata=_metadata(notice) if notice is not None else None,
            thread_ts=thread,
        )

    def update(self, channel: str, ts: str, message: Message, *, notice: Notice) -> DeliveryOutcome:
        """chat.update: the card drawn afresh; a second update with the same card is a no-op
        to anyone reading the channel."""
        try:
            self.client.chat_update(
                channel=channel, ts=ts, text=message.text, blocks=list(message.blocks)
            )
        except SlackApiError as err:
            return classify(err)
        except (OSError, http.client.HTTPException) as err:
            return Transient(f"{type(err).__name__}: {err}")
        return Delivered(channel=channel, ref=ts)


def post_message(
    client: WebClient,
    *,
    channel: str,
    text: str,
    blocks: list[dict[str, Any]] | None = None,
    metadata: dict[str, Any] | None = None,
    thread_ts: str | None = None,
) -> DeliveryOutcome:
    try:
        response = client.chat_postMessage(
            channel=channel, text=text, blocks=blocks, metadata=metadata, thread_ts=thread_ts
        )
    except SlackApiError as err:
        return classify(err)
    except (OSError, http.client.HTTPException) as err:
        # Timeouts, refused or reset connections: Slack may or may not have the message.
        return Transient(f"{type(err).__name__}: {err}")
    return Delivered(channel=str(response["channel"]), ref=str(response["ts"]))


def classify(err: SlackApiError) -> RateLimited | Transient | Permanent:
    status = err.response.status_code
    error = str(err.response.get("error") or f"http_{status}")
    if status == 429 or error == "ratelimited":
        return RateLimited(_retry_after(err.response.headers), error)
    if status >= 500 or error in TRANSIENT_ERRORS:
        return Transient(error)
    # Anything else (recipient gone, token refused, a payload Slack rejects) answers the same
    # way next time: the row is marked failed, visible, and can be retried by an operator.
    return Permanent(error, token_refused=error in TOKEN_ERRORS)


def _metadata(notice: Notice) -> dict[str, Any]:
    payload = {"venue": notice.venue_id, "notice_id": notice.id, "kind": notice.kind}
    return {"event_type": METADATA_TYPE, "event_payload": payload}


def _retry_after(headers: Any) -> float:
    raw = None
    for name, value in dict(headers or {}).items():
        if name.lower() == "retry-after":
            raw = value
    try:
        return max(1.0, float(raw)) if raw is not None else DEFAULT_RETRY_AFTER
    except (TypeError, ValueError):
        return DEFAULT_RETRY_AFTER


class WorkspaceDMs:
    """Many workspaces: ``dms(venue_id)`` is a ``SlackDM`` with the token of the venue's
    workspace, or None when it has none now (not installed, uninstalled, revoked). A venue
    keeps its client (and its cache of languages) while its token stays the same; a refreshed
    token gets a new one."""

    def __init__(
        self,
        token_for: Callable[[str], str | None],
        client_for: Callable[[str], WebClient],
        locales_for: Callable[[WebClient], Locales],
        *,
        timeout: float,
    ) -> None:
        self._token_for = token_for
        self._client_for = client_for
        self._locales_for = locales_for
        self._timeout = timeout
        self._lock = threading.Lock()
        self._by_venue: dict[str, tuple[str, SlackDM]] = {}
        self._pacer = ChannelPacer()  # channel ids are unique across workspaces

    def __call__(self, venue_id: str) -> SlackDM | None:
        token = self._token_for(venue_id)
        if token is None:
            return None
        with self._lock:
            kept = self._by_venue.get(venue_id)
            if kept is not None and kept[0] == token:
                return kept[1]
            client = self._client_for(token)
            found = SlackDM(client, self._locales_for(client), self._timeout, self._pacer)
            self._by_venue[venue_id] = (token, found)
            return found
