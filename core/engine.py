"""The hold engine's public face: its parts by role, built once per process on one
database, sharing one unit of work, one venue cache and one admission queue.

- ``writes`` (``core.roles.writes``): requests, decisions, edits and their dry runs, and
  what the jobs write on time; each in one SERIALIZABLE unit of work with retry, where a
  refusal rolls back. Writes answer ``Refused`` for an unknown venue or lasting contention.
- ``reads`` (``core.roles.reads``): holds, lists, the team's ledger, searches, each on one
  read-only snapshot; they raise ``UnknownVenue``.
- ``venues`` (``core.roles.known_venues``): venues as stored, saved, warmed.
- ``delivery`` (``core.roles.delivery``): the outbox and cards' bookkeeping at READ
  COMMITTED, all the courier is handed.
- ``pings`` (``core.roles.pings``): the window pings (開放日に知らせる), asked, dropped,
  listed and told when a date's banquet window opens.
"""

from __future__ import annotations

import sqlalchemy as sa

from core.admission import Admission
from core.roles.delivery import Delivery
from core.roles.known_venues import Venues
from core.roles.pings import Pings
from core.roles.reads import Reads
from core.roles.writes import Writes
from core.runner import Runner
from core.uow import Observer, RetryObserver, RetryPolicy, UnitOfWork
from core.venue_cache import VenueCache


class HoldEngine:
    """The engine. Requests of this process for the same part-days take turns before their
    transactions (``core.admission``): they would only abort each other. ``writers`` caps the
    concurrent write transactions per venue (None: no cap); ``queue=False`` queues nothing,
    as if every transaction came from a process of its own (race tests use it).
    Correctness never depends on either: the database serialises every transaction.
    """

    def __init__(
        self,
        engine: sa.Engine,
        *,
        retry: RetryPolicy | None = None,
        observer: Observer | None = None,
        retried: RetryObserver | None = None,
        writers: int | None = None,
        queue: bool = True,
    ) -> None:
        self._db = engine
        self._uow = UnitOfWork(engine, retry, observer=observer, retried=retried)
        self._run = run = Runner(self._uow, Admission(writers, queue=queue), VenueCache())
        self.venues = Venues(self._uow, run.venues)
        self.writes = Writes(run)
        self.reads = Reads(run)
        self.delivery = Delivery(run, self.venues)
        self.pings = Pings(run)  # the window pings (開放日に知らせる)

    def ping(self) -> None:
        """Raise ``DatabaseUnavailable`` unless the database answers."""
        self._uow.ping()

    def close(self) -> None:
        """Close the pooled connections (a new call opens them again)."""
        self._db.dispose()
