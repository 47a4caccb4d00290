"""In-process admission control for write transactions: fewer needless serialization failures.

Correctness never depends on this module: the database serialises transactions from every
process. It only queues, inside one process, transactions that would otherwise abort each
other: at most ``writers`` write transactions per venue at a time (they share index pages),
and requests for the same part-days one after another (they share ledger rows, so all but
one would fail with 40001 and retry).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator
from datetime import date

Key = tuple[str, date]


class Admission:
    def __init__(self, writers: int | None) -> None:
        self._writers = writers
        self._lock = threading.Lock()
        self._gates: dict[str, threading.BoundedSemaphore] = {}
        self._keys: dict[tuple[str, Key], _Counted] = {}

    @contextlib.contextmanager
    def write(self, venue_id: str, keys: Iterable[Key] = ()) -> Iterator[None]:
        """Hold a writer slot of the venue, then the part-day keys (sorted: no lock cycles).

        With ``writers=None`` nothing is held: every transaction goes straight to the database.
        """
        if self._writers is None:
            yield
            return
        with self._gate(venue_id), contextlib.ExitStack() as held:
            for key in sorted(set(keys)):
                held.enter_context(self._key(venue_id, key))
            yield

    def _gate(self, venue_id: str) -> threading.BoundedSemaphore:
        assert self._writers is not None  # noqa: S101 - write() returns early otherwise
        with self._lock:
            gate = self._gates.get(venue_id)
            if gate is None:
                gate = self._gates[venue_id] = threading.BoundedSemaphore(self._writers)
        return gate

    @contextlib.contextmanager
    def _key(self, venue_id: str, key: Key) -> Iterator[None]:
        name = (venue_id, key)
        with self._lock:
            entry = self._keys.setdefault(name, _Counted())
            entry.users += 1
        try:
            with entry.lock:
                yield
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
