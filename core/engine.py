"""The hold engine's public face: every operation the bot, the jobs and the CLI may call.

Writes run in one SERIALIZABLE unit of work with retry; a refusal rolls its transaction back,
so a refused request writes nothing. Reads (previews, lists, dry runs) run read-only.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TypeVar

import sqlalchemy as sa

from core.admission import Admission, Key
from core.model import LIVE, Hold, HoldRequest, Status, Venue
from core.operations import decisions, digests, request, sweep
from core.results import (
    Cancelled,
    Code,
    Confirmed,
    ConfirmPlan,
    Extended,
    Preview,
    Refused,
    Released,
    Requested,
    Swept,
)
from core.rules.deadlines import last_bookable_day
from core.rules.requests import Checked, check_request, span_of
from core.rules.spans import part_days
from core.store import audit, holds, ledger, outbox, venues
from core.store.audit import Event
from core.store.outbox import Notice
from core.store.venues import StaleVenue
from core.uow import Busy, Observer, Retry, RetryPolicy, Rollback, UnitOfWork

T = TypeVar("T")
RECENT = timedelta(days=14)
ONE_DAY = timedelta(days=1)


@dataclass(frozen=True)
class Waiting:
    hold: Hold
    ahead: tuple[Hold, ...]  # the 1st holds it waits behind


@dataclass(frozen=True)
class Overview:
    """One salesperson's holds, as App Home shows them."""

    firsts: tuple[Hold, ...]
    waiting: tuple[Waiting, ...]
    recent: tuple[Hold, ...]


class HoldEngine:
    """The engine; ``writers`` caps this process's concurrent write transactions per venue.

    Writes to one venue from one process mostly touch the same few index pages, and under
    SERIALIZABLE such transactions abort each other even when their slots are unrelated.
    Queueing them in the process costs less than the retries (correctness never depends on
    it: transactions from other processes are serialised by the database as before).
    ``writers=None`` lifts the cap.
    """

    def __init__(
        self,
        engine: sa.Engine,
        *,
        retry: RetryPolicy | None = None,
        observer: Observer | None = None,
        writers: int | None = 2,
    ) -> None:
        self.db = engine
        self.uow = UnitOfWork(engine, retry, observer=observer)
        self._venues: dict[str, Venue] = {}  # read-mostly; a stale entry is never used
        self._admission = Admission(writers)

    # -- venues -----------------------------------------------------------------------------
    def venue(self, venue_id: str) -> Venue | None:
        return self.uow.read(lambda conn: venues.load(conn, venue_id))

    def venue_ids(self) -> list[str]:
        return self.uow.read(venues.ids)

    def save_venue(self, venue: Venue, *, now: datetime) -> Venue:
        """Insert or update a venue (idempotent); raises ``VenueConflict`` if unsafe."""

        def work(conn: sa.Connection) -> Venue:
            venues.save(conn, venue, now)
            loaded = venues.load(conn, venue.id)
            assert loaded is not None  # noqa: S101 - saved just above
            _prepare_ledger(conn, loaded, now)
            return loaded

        saved = self.uow.run(work)
        self._venues[saved.id] = saved
        return saved

    def prepare_ledger(self, venue_id: str, *, now: datetime) -> None:
        """Make the part-day rows for the booking horizon (daily, as the horizon moves on)."""

        def work(conn: sa.Connection) -> None:
            venue = venues.load(conn, venue_id)
            if venue is not None:
                _prepare_ledger(conn, venue, now)

        self._outbox(work)

    # -- holds ------------------------------------------------------------------------------
    def request(
        self,
        venue_id: str,
        req: HoldRequest,
        *,
        now: datetime,
        idempotency_key: str | None = None,
    ) -> Requested | Refused:
        # Requests check the cached venue's revision in their first ledger read, and queue
        # in this process behind other requests for the same part-days. Only a retry looks
        # the idempotency key up first: see ``request_hold``.
        attempts = itertools.count()
        return self._write(
            venue_id,
            lambda c, v: request.request_hold(
                c, v, req, now, idempotency_key, look_up_key=next(attempts) > 0
            ),
            checks_revision=True,
            keys=self._keys_of(venue_id, req, now),
        )

    def preview(self, venue_id: str, req: HoldRequest, *, now: datetime) -> Preview | Refused:
        return self._read(
            venue_id, lambda c, v: request.preview(c, v, req, now), checks_revision=True
        )

    def confirm(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> Confirmed | Refused:
        return self._write(venue_id, lambda c, v: decisions.confirm(c, v, hold_id, actor, now))

    def confirm_plan(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> ConfirmPlan | Refused:
        return self._read(venue_id, lambda c, v: decisions.confirm_plan(c, v, hold_id, actor, now))

    def release(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> Released | Refused:
        return self._write(venue_id, lambda c, v: decisions.release(c, v, hold_id, actor, now))

    def extend(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> Extended | Refused:
        return self._write(venue_id, lambda c, v: decisions.extend(c, v, hold_id, actor, now))

    def cancel(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> Cancelled | Refused:
        return self._write(venue_id, lambda c, v: decisions.cancel(c, v, hold_id, actor, now))

    def sweep(self, venue_id: str, *, now: datetime, batch: int = 500) -> Swept | Refused:
        """Expire every due 1st hold in short transactions of at most ``batch`` holds.

        A batch that stays contended is redone hold by hold, so one busy slot never holds up
        the rest; a hold still busy then waits for the next sweep.
        """
        if self.venue(venue_id) is None:
            return Refused(Code.UNKNOWN_VENUE, detail=venue_id)
        expired: list[int] = []
        promoted: list[int] = []
        while True:
            done, moved = self._sweep_batch(venue_id, now, batch)
            expired += done
            promoted += moved
            if len(done) < batch:
                return Swept(tuple(expired), tuple(promoted))

    def hold(self, venue_id: str, hold_id: int) -> Hold | Refused:
        def work(conn: sa.Connection, venue: Venue) -> Hold | Refused:
            found = holds.get(conn, venue, hold_id)
            return found if found else Refused(Code.HOLD_NOT_FOUND, detail=str(hold_id))

        return self._read(venue_id, work)

    def trail(self, venue_id: str, hold_id: int) -> list[Event]:
        return self.uow.read(lambda conn: audit.trail(conn, venue_id, hold_id))

    def holds(
        self,
        venue_id: str,
        *,
        on: date | None = None,
        salesperson: str | None = None,
        statuses: Sequence[Status] | None = None,
    ) -> list[Hold] | Refused:
        return self._read(
            venue_id,
            lambda c, v: holds.listing(c, v, on=on, salesperson=salesperson, statuses=statuses),
        )

    def overview(self, venue_id: str, user: str, *, now: datetime) -> Overview | Refused:
        """A salesperson's 1st holds, waiting holds with who is ahead, and recent outcomes."""

        def work(conn: sa.Connection, venue: Venue) -> Overview:
            live = holds.listing(conn, venue, salesperson=user, statuses=LIVE)
            recent = holds.listing(
                conn,
                venue,
                salesperson=user,
                statuses=[s for s in Status if s is not Status.TENTATIVE],
                updated_since=now - RECENT,
            )
            waiting = []
            for h in live:
                if h.status is Status.TENTATIVE and h.rank != 1:
                    ahead = holds.live_conflicting(conn, venue, [span_of(h)])
                    waiting.append(Waiting(h, tuple(a for a in ahead if a.is_blocking)))
            recent_first = sorted(recent, key=lambda h: h.updated_at, reverse=True)
            return Overview(
                firsts=tuple(h for h in live if h.is_first),
                waiting=tuple(waiting),
                recent=tuple(recent_first),
            )

        return self._read(venue_id, work)

    # -- notices ----------------------------------------------------------------------------
    def queue_reminders(self, venue_id: str, *, now: datetime) -> int | Refused:
        return self._write(venue_id, lambda c, v: digests.queue_reminders(c, v, now))

    def queue_digests(self, venue_id: str, *, now: datetime) -> int | Refused:
        return self._write(venue_id, lambda c, v: digests.queue_digests(c, v, now))

    def claim_notices(
        self, venue_id: str, *, owner: str, now: datetime, lease: timedelta, limit: int = 20
    ) -> list[Notice]:
        return self._outbox(lambda c: outbox.claim(c, venue_id, owner, now, lease, limit))

    def notice_sent(
        self, venue_id: str, notice_id: int, *, channel: str, ref: str, now: datetime
    ) -> None:
        """Delivered: where it went and its id there (a Slack DM's channel and ts)."""
        self._outbox(lambda c: outbox.mark_sent(c, venue_id, notice_id, channel, ref, now))

    def notice_retry(
        self, venue_id: str, notice_id: int, *, error: str, available_at: datetime
    ) -> None:
        self._outbox(lambda c: outbox.mark_retry(c, venue_id, notice_id, error, available_at))

    def notice_failed(self, venue_id: str, notice_id: int, *, error: str) -> None:
        self._outbox(lambda c: outbox.mark_failed(c, venue_id, notice_id, error))

    def report_failures(
        self, venue_id: str, report: Callable[[list[Notice]], None], *, now: datetime
    ) -> list[Notice]:
        """Hand failed rows nobody was told about to ``report``; marked once it returns."""

        def work(conn: sa.Connection) -> list[Notice]:
            failed = outbox.unreported_failures(conn, venue_id)
            if failed:
                report(failed)
                outbox.mark_reported(conn, venue_id, [n.id for n in failed], now)
            return failed

        return self._outbox(work)

    def notices(self, venue_id: str, *, status: str | None = None) -> list[Notice]:
        return self.uow.read(lambda conn: outbox.listing(conn, venue_id, status))

    def requeue_failed(
        self, venue_id: str, *, now: datetime, ids: Sequence[int] | None = None
    ) -> list[int]:
        return self._outbox(lambda c: outbox.requeue_failed(c, venue_id, ids, now))

    # -- plumbing ---------------------------------------------------------------------------
    def _write(
        self,
        venue_id: str,
        work: Callable[[sa.Connection, Venue], T],
        *,
        checks_revision: bool = False,
        keys: Sequence[Key] = (),
    ) -> T | Refused:
        try:
            return self._in_venue(venue_id, work, checks_revision=checks_revision, keys=keys)
        except Busy:
            return Refused(Code.BUSY)

    def _in_venue(
        self,
        venue_id: str,
        work: Callable[[sa.Connection, Venue], T],
        *,
        checks_revision: bool = False,
        keys: Sequence[Key] = (),
    ) -> T | Refused:
        """Run ``work`` in a unit of work; a refusal rolls it back, so it writes nothing."""
        with self._admission.write(venue_id, keys):
            return self._unit(venue_id, work, checks_revision)

    def _keys_of(self, venue_id: str, req: HoldRequest, now: datetime) -> list[Key]:
        """The part-days a request would bump, from the cached venue (none if unknown yet)."""
        venue = self._venues.get(venue_id)
        checked = check_request(req, venue, now) if venue else None
        if not isinstance(checked, Checked) or venue is None:
            return []
        return part_days([checked.span], venue.tz)

    def _unit(
        self, venue_id: str, work: Callable[[sa.Connection, Venue], T], checks_revision: bool
    ) -> T | Refused:
        def attempt(conn: sa.Connection) -> T:
            venue = self._venue_in(conn, venue_id, trust_cache=checks_revision)
            if venue is None:
                raise Rollback(Refused(Code.UNKNOWN_VENUE, detail=venue_id))
            try:
                result = work(conn, venue)
            except StaleVenue:
                self._venues.pop(venue_id, None)
                raise Retry from None
            if isinstance(result, Refused):
                raise Rollback(result)
            return result

        return self.uow.run(attempt)

    def _read(
        self,
        venue_id: str,
        work: Callable[[sa.Connection, Venue], T],
        *,
        checks_revision: bool = False,
    ) -> T | Refused:
        def attempt(conn: sa.Connection) -> T | Refused:
            venue = self._venue_in(conn, venue_id, trust_cache=checks_revision)
            if venue is None:
                return Refused(Code.UNKNOWN_VENUE, detail=venue_id)
            return work(conn, venue)

        try:
            return self.uow.read(attempt)
        except StaleVenue:
            self._venues.pop(venue_id, None)
            return self.uow.read(attempt)

    def _venue_in(
        self, conn: sa.Connection, venue_id: str, *, trust_cache: bool = False
    ) -> Venue | None:
        """The venue as this transaction sees it: one key lookup while the cache is current.

        With ``trust_cache`` the cached venue comes back unchecked: the caller's first read
        checks its revision (``StaleVenue`` if it changed), one round trip fewer.
        """
        cached = self._venues.get(venue_id)
        if trust_cache and cached is not None:
            return cached
        current = venues.revision(conn, venue_id)
        if current is None:
            return None
        if cached is not None and cached.revision == current:
            return cached
        loaded = venues.load(conn, venue_id)
        if loaded is not None:
            self._venues[venue_id] = loaded
        return loaded

    def _outbox(self, work: Callable[[sa.Connection], T]) -> T:
        """Outbox bookkeeping: row leases, no hold rules, so READ COMMITTED is enough."""
        with self.db.connect() as conn, conn.begin():
            return work(conn)

    def _sweep_batch(self, venue_id: str, now: datetime, batch: int) -> Moves:
        try:
            return _moves(
                self._in_venue(venue_id, lambda c, v: sweep.sweep_batch(c, v, now, batch))
            )
        except Busy:
            return self._sweep_one_by_one(venue_id, now, batch)

    def _sweep_one_by_one(self, venue_id: str, now: datetime, batch: int) -> Moves:
        due = self._in_venue(venue_id, lambda c, v: sweep.due_ids(c, v, now, batch))
        expired: list[int] = []
        promoted: list[int] = []
        for hold_id in [] if isinstance(due, Refused) else due:
            try:
                done, moved = _moves(self._in_venue(venue_id, _expire_one(hold_id, now)))
            except Busy:
                continue  # left for the next sweep; the batch then reports fewer than it took
            expired += done
            promoted += moved
        return expired, promoted


Moves = tuple[list[int], list[int]]  # (expired ids, promoted ids)


def _moves(result: Moves | Refused) -> Moves:
    return ([], []) if isinstance(result, Refused) else result


def _prepare_ledger(conn: sa.Connection, venue: Venue, now: datetime) -> None:
    today = now.astimezone(venue.tz).date()
    parts = {p for room in venue.rooms.values() if room.active for p in room.parts}
    # A span may start on the last bookable day and run into the next.
    ledger.prepare(conn, venue.id, parts, today, last_bookable_day(today, venue.policy) + ONE_DAY)


def _expire_one(hold_id: int, now: datetime) -> Callable[[sa.Connection, Venue], Moves]:
    return lambda conn, venue: sweep.expire_one(conn, venue, hold_id, now)
