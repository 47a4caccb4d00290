"""In-process admission control for write transactions: fewer needless serialization failures.

Correctness never depends on this module: the database serialises transactions from every
process. It only queues, inside one process, transactions that would otherwise abort each
other: requests for the same part-days one after another (they share part-day rows, so all but
one would fail with 40001 and retry), and, if a venue cap is set, at most ``writers`` write
transactions per venue at a time.

Part-day keys are taken before the venue's slot: a request waiting for a busy part-day
holds no slot, so it never keeps unrelated requests of its venue waiting behind it.

A turn says whether it waited for another's on one of its part-days: what that one wrote may
already decide it (``Writes.request``, its refusal on sight).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator
from datetime import date

Key = tuple[str, date]


class Admission:
    """``queue=False`` holds nothing: every transaction goes straight to the database (what
    another process's transaction does; race tests use it). ``writers=None``: no venue cap."""

    def __init__(self, writers: int | None = None, *, queue: bool = True) -> None:
        self._writers = writers
        self._queue = queue
        self._lock = threading.Lock()
        self._gates: dict[str, threading.BoundedSemaphore] = {}
        self._keys: dict[tuple[str, Key], _Counted] = {}

    @contextlib.contextmanager
    def write(self, venue_id: str, keys: Iterable[Key] = ()) -> Iterator[bool]:
        """Hold the part-day keys (sorted: no lock cycles), then a writer slot of the venue.
        Yields whether another transaction held one of the keys when this one asked."""
        if not self._queue:
            yield False
            return
        waited = False
        with contextlib.ExitStack() as held:
            for key in sorted(set(keys)):
                waited |= held.enter_context(self._key(venue_id, key))
            if self._writers is not None:
                held.enter_context(self._gate(venue_id))
            yield waited

    def _gate(self, venue_id: str) -> threading.BoundedSemaphore:
        assert self._writers is not None  # noqa: S101 - write() asks only with a cap
        with self._lock:
            gate = self._gates.get(venue_id)
            if gate is None:
                gate = self._gates[venue_id] = threading.BoundedSemaphore(self._writers)
        return gate

    @contextlib.contextmanager
    def _key(self, venue_id: str, key: Key) -> Iterator[bool]:
        name = (venue_id, key)
        with self._lock:
            entry = self._keys.setdefault(name, _Counted())
            entry.users += 1
        try:
            waited = not entry.lock.acquire(blocking=False)
            if waited:
                entry.lock.acquire()
            try:
                yield waited
            finally:
                entry.lock.release()
        finally:
            with self._lock:
                entry.users -= 1
                if not entry.users:  # forget idle keys so the table stays small
                    del self._keys[name]


class _Counted:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0
