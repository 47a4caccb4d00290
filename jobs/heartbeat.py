"""Heartbeats: the worker and the clock each say every few seconds that they run, as a Redis
key holding the time (expiring on its own), so that any web process's ``/healthz`` can tell
a stack whose worker is gone from one that works, wherever each part runs.

A part writes only while its own check passes (the worker: every consumer and worker thread
alive; the clock: its scheduler's thread), so a part that hangs goes stale as one that died.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable

import redis

log = logging.getLogger(__name__)

EVERY = 2.0  # seconds between beats
STALE = 10.0  # seconds after the last beat that a part counts as down
WORKER, CLOCK = "worker", "clock"


def key(namespace: str, part: str) -> str:
    return f"{namespace}:heartbeat:{part}"


class Heartbeat:
    """A background thread that beats for ``part`` while ``alive()`` says so."""

    def __init__(
        self,
        client: redis.Redis,
        namespace: str,
        part: str,
        alive: Callable[[], bool],
        *,
        every: float = EVERY,
    ) -> None:
        self.client, self.key, self.alive, self.every = client, key(namespace, part), alive, every
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"osae-beat-{part}", daemon=True)

    def start(self) -> Heartbeat:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        # The key is left to expire: another worker may beat on it too.
        self._thread.join(timeout=5)

    def beat(self) -> None:
        if self.alive():
            with contextlib.suppress(redis.RedisError):  # Redis away: /healthz says so itself
                self.client.set(self.key, f"{time.time():.3f}", ex=int(STALE * 3))

    def _run(self) -> None:
        while True:
            self.beat()
            if self._stopping.wait(self.every):
                return


def read(client: redis.Redis, namespace: str, parts: Iterable[str]) -> dict[str, str]:
    """Each part's state for /healthz: ``ok``, or ``down: ...`` saying since when."""
    now = time.time()
    found: dict[str, str] = {}
    for part in parts:
        try:
            raw = client.get(key(namespace, part))
        except redis.RedisError:
            found[part] = "unknown: Redis unreachable"
            continue
        if raw is None:
            found[part] = "down: no heartbeat"
            continue
        age = now - float(raw)
        found[part] = "ok" if age <= STALE else f"down: last heartbeat {age:.0f}s ago"
    return found
