"""Each Slack user's language (``users.info`` with ``include_locale``), cached, and the
display name the same answer carries (``bot.names.remember_seen`` caches it for the terminal:
no call to Slack of its own).

Used for the bot's replies and by the jobs for DMs. Slack being slow or down must never stop
a message, so any failure answers ``DEFAULT_LOCALE`` (Japanese) and is retried after a short while.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable

from slack_sdk import WebClient
from slack_sdk.errors import SlackClientError

from bot.texts import DEFAULT_LOCALE

FAILURE_TTL = 60.0  # seconds before a failed lookup is tried again
DAY = 86400.0  # a name handed out for storing is handed out again a day later

log = logging.getLogger(__name__)


class UserLocales:
    """``get(user_id) -> "ja-JP" | "en-US" | ...``; thread-safe; ``DEFAULT_LOCALE`` on any error."""

    def __init__(
        self,
        client: WebClient,
        ttl_seconds: float = 3600,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.ttl = ttl_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[str, float]] = {}  # user -> (locale, good until)
        # Many workspaces: the client of the workspace each user last wrote from
        self._clients: dict[str, WebClient] = {}
        self._names: dict[str, str] = {}  # user -> display name, from the same answers
        self._handed: dict[str, tuple[str, float]] = {}  # user -> (name, when handed out)

    def bind(self, user_id: str, client: WebClient, *, keep: bool = False) -> None:
        """Ask about ``user_id`` with ``client`` (its workspace's token) from now on;
        ``keep``: only if no client is known for them yet (someone else's request)."""
        with self._lock:
            if not (keep and user_id in self._clients):
                self._clients[user_id] = client

    def get(self, user_id: str) -> str:
        now = self._clock()
        with self._lock:
            cached = self._cache.get(user_id)
        if cached is not None and cached[1] > now:
            return cached[0]
        locale, ttl = self._lookup(user_id)
        with self._lock:
            self._cache[user_id] = (locale, now + ttl)
        return locale

    def _lookup(self, user_id: str) -> tuple[str, float]:
        try:
            with self._lock:
                client = self._clients.get(user_id, self.client)
            answer = client.users_info(user=user_id, include_locale=True)
        except (SlackClientError, OSError) as err:  # API errors, 429s, timeouts, refused
            log.warning("slack.locale_lookup_failed", extra={"user": user_id, "error": str(err)})
            return DEFAULT_LOCALE, FAILURE_TTL
        user = answer.get("user") or {}
        name = display_name(user)
        if name is not None:
            with self._lock:
                self._names[user_id] = name
        locale = user.get("locale") if isinstance(user, dict) else None
        return (str(locale), self.ttl) if locale else (DEFAULT_LOCALE, self.ttl)

    def new_names(self, users: Iterable[str]) -> dict[str, str]:
        """Of ``users``, the names Slack gave since they were last handed out (or a day
        after, or changed): what is worth storing, at most once a day per person."""
        now = self._clock()
        found: dict[str, str] = {}
        with self._lock:
            for user in users:
                name = self._names.get(user)
                handed = self._handed.get(user)
                if name is None or (handed and handed[0] == name and now - handed[1] < DAY):
                    continue
                found[user] = name
                self._handed[user] = (name, now)
        return found


def display_name(user: object) -> str | None:
    """A users.info ``user``'s name as Slack shows it: its display name, else its real name
    (never its e-mail or phone)."""
    if not isinstance(user, dict):
        return None
    profile = user.get("profile") or {}
    profile = profile if isinstance(profile, dict) else {}
    for name in (profile.get("display_name"), profile.get("real_name"), user.get("real_name")):
        if isinstance(name, str) and name.strip():
            return name.strip()
    return None
