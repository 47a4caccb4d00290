"""Delivery's bookkeeping on outbox rows: leases, outcomes, failure reports, requeues.

No hold rule is decided here, so READ COMMITTED is enough; leases skip rows another worker
holds (``SKIP LOCKED``) rather than wait for them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa

from core.journal import told_queued
from core.model import Hold, Venue
from core.notices import QUEUED_RECIPIENT, Notice
from core.store import holds
from core.store import outbox as rows
from core.uow import UnitOfWork


@dataclass(frozen=True)
class Resolved:
    """A queued hold's row resolved: the holds ahead still 1st (each told by a row of its
    own, written with this row marked done), or none: settled without a DM."""

    firsts: tuple[Hold, ...]


class Outbox:
    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def claim(
        self, venue_id: str, *, owner: str, now: datetime, lease: timedelta, limit: int
    ) -> list[Notice]:
        return self._uow.committed(lambda c: rows.claim(c, venue_id, owner, now, lease, limit))

    def sent(self, venue_id: str, notice_id: int, channel: str, ref: str, now: datetime) -> None:
        self._uow.committed(lambda c: rows.mark_sent(c, venue_id, notice_id, channel, ref, now))

    def retry(self, venue_id: str, notice_id: int, error: str, available_at: datetime) -> None:
        self._uow.committed(lambda c: rows.mark_retry(c, venue_id, notice_id, error, available_at))

    def failed(self, venue_id: str, notice_id: int, error: str) -> None:
        self._uow.committed(lambda c: rows.mark_failed(c, venue_id, notice_id, error))

    def report_failures(
        self, venue_id: str, report: Callable[[list[Notice]], None], now: datetime
    ) -> list[Notice]:
        """Hand failed rows nobody was told about to ``report``; marked once it returns."""

        def work(conn: sa.Connection) -> list[Notice]:
            failed = rows.unreported_failures(conn, venue_id)
            if failed:
                report(failed)
                rows.mark_reported(conn, venue_id, [n.id for n in failed], now)
            return failed

        return self._uow.committed(work)

    def resolve_queued(self, venue: Venue, notice_id: int, now: datetime) -> Resolved | None:
        """Tell the holds a queued hold waits behind, if still 1st: one row each (their
        dedupe keys: once per waiting hold), committed with this row marked done; None if
        the row is not a pending queued row (another worker resolved it).

        READ COMMITTED: it decides no hold rule, and at SERIALIZABLE its read of the holds
        would be the predicate lock the request left it to avoid. A 1st released just after
        the read is told anyway, as a row written with the request would have been.
        """

        def work(conn: sa.Connection) -> Resolved | None:
            queued = rows.locked_pending(conn, venue.id, notice_id)
            if queued is None or queued.recipient != QUEUED_RECIPIENT:
                return None
            ahead = holds.get_many(conn, venue, queued.payload["ahead"])
            firsts = tuple(h for h in ahead if h.is_first)
            rows.add(conn, venue.id, told_queued(queued, firsts), now)
            told = ", ".join(f"#{h.id}" for h in firsts) or "no 1st left"
            rows.mark_sent(conn, venue.id, notice_id, "-", f"resolved: {told}", now)
            return Resolved(firsts)

        return self._uow.committed(work)

    def listing(self, venue_id: str, status: str | None) -> list[Notice]:
        return self._uow.read(lambda conn: rows.listing(conn, venue_id, status))

    def requeue_failed(self, venue_id: str, ids: Sequence[int] | None, now: datetime) -> list[int]:
        return self._uow.committed(lambda c: rows.requeue_failed(c, venue_id, ids, now))
