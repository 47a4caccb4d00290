"""Delivery's bookkeeping on outbox rows: leases, outcomes, failure reports, requeues.

No hold rule is decided here, so READ COMMITTED is enough; leases skip rows another worker
holds (``SKIP LOCKED``) rather than wait for them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

import sqlalchemy as sa

from core.notices import Notice
from core.store import outbox as rows
from core.uow import UnitOfWork


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

    def listing(self, venue_id: str, status: str | None) -> list[Notice]:
        return self._uow.read(lambda conn: rows.listing(conn, venue_id, status))

    def requeue_failed(self, venue_id: str, ids: Sequence[int] | None, now: datetime) -> list[int]:
        return self._uow.committed(lambda c: rows.requeue_failed(c, venue_id, ids, now))
