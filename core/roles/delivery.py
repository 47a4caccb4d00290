"""Delivery's bookkeeping, the one part of the engine the courier is handed: outbox rows
(leases, outcomes, failure reports, requeues), where cards sit, and the reads a notice or a
card is drawn from (its venue, its hold).

No hold rule is decided here, so READ COMMITTED is enough; leases skip rows another worker
holds (``SKIP LOCKED``) rather than wait for them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

import sqlalchemy as sa

from core.journal import told_queued
from core.model import Hold, Venue
from core.notices import QUEUED_RECIPIENT, CardSpot, Notice
from core.operations import reads
from core.results import Refused
from core.roles.known_venues import Venues
from core.runner import Runner
from core.store import cards, holds
from core.store import outbox as rows


@dataclass(frozen=True)
class Resolved:
    """A queued hold's row resolved: the holds ahead still 1st (each told by a row of its
    own, written with this row marked done), or none: settled without a DM."""

    firsts: tuple[Hold, ...]


class Delivery:
    def __init__(self, run: Runner, venues: Venues) -> None:
        self._run = run
        self._uow = run.uow
        self._venues = venues

    # -- what a notice or a card is drawn from ------------------------------------------------
    def venue(self, venue_id: str) -> Venue | None:
        """The venue as stored now (its time zone, language, 六曜), or None."""
        return self._venues.venue(venue_id)

    def hold(self, venue_id: str, hold_id: int) -> Hold | Refused:
        """The hold as it stands, to redraw its card."""
        return self._run.read(venue_id, partial(reads.hold, hold_id=hold_id))

    # -- outbox rows ----------------------------------------------------------------------------
    def claim_notices(
        self, venue_id: str, *, owner: str, now: datetime, lease: timedelta, limit: int = 20
    ) -> list[Notice]:
        return self._uow.committed(lambda c: rows.claim(c, venue_id, owner, now, lease, limit))

    def notice_sent(
        self, venue_id: str, notice_id: int, *, channel: str, ref: str, now: datetime
    ) -> None:
        """Delivered: where it went and its id there (a Slack DM's channel and ts)."""
        self._uow.committed(lambda c: rows.mark_sent(c, venue_id, notice_id, channel, ref, now))

    def notice_retry(
        self, venue_id: str, notice_id: int, *, error: str, available_at: datetime
    ) -> None:
        self._uow.committed(lambda c: rows.mark_retry(c, venue_id, notice_id, error, available_at))

    def notice_failed(self, venue_id: str, notice_id: int, *, error: str) -> None:
        self._uow.committed(lambda c: rows.mark_failed(c, venue_id, notice_id, error))

    def report_failures(
        self, venue_id: str, report: Callable[[list[Notice]], None], *, now: datetime
    ) -> list[Notice]:
        """Hand failed rows nobody was told about to ``report``; marked once it returns."""

        def work(conn: sa.Connection) -> list[Notice]:
            failed = rows.unreported_failures(conn, venue_id)
            if failed:
                report(failed)
                rows.mark_reported(conn, venue_id, [n.id for n in failed], now)
            return failed

        return self._uow.committed(work)

    def resolve_queued(self, venue_id: str, notice_id: int, *, now: datetime) -> Resolved | None:
        """A queued hold's row (recipient ``QUEUED_RECIPIENT``) turned into one notice to
        each hold ahead still 1st: one row each (their dedupe keys: once per waiting hold),
        committed with this row marked done; None if the row is not a pending queued row
        (another worker resolved it), or the venue is gone.

        READ COMMITTED: it decides no hold rule, and at SERIALIZABLE its read of the holds
        would be the predicate lock the request left it to avoid. A 1st released just after
        the read is told anyway, as a row written with the request would have been.
        """
        venue = self.venue(venue_id)
        if venue is None:
            return None
        return self._uow.committed(partial(_resolve, venue=venue, notice_id=notice_id, now=now))

    def notices(self, venue_id: str, *, status: str | None = None) -> list[Notice]:
        return self._uow.read(lambda conn: rows.listing(conn, venue_id, status))

    def requeue_failed(
        self, venue_id: str, *, now: datetime, ids: Sequence[int] | None = None
    ) -> list[int]:
        return self._uow.committed(lambda c: rows.requeue_failed(c, venue_id, ids, now))

    # -- cards ----------------------------------------------------------------------------------
    def card_posted(
        self, venue_id: str, hold_id: int, spot: CardSpot, *, now: datetime
    ) -> CardSpot:
        """Remember where a hold's card was posted; the first one kept is the one redrawn."""
        return self._uow.committed(lambda c: cards.save(c, venue_id, hold_id, spot, now))

    def card(self, venue_id: str, hold_id: int) -> CardSpot | None:
        return self._uow.read(lambda conn: cards.find(conn, venue_id, hold_id))

    def card_line_posted(self, venue_id: str, hold_id: int, notice_id: int) -> None:
        """Card row ``notice_id`` has its line in the card's thread (redelivered: no second)."""
        self._uow.committed(lambda c: cards.line_posted(c, venue_id, hold_id, notice_id))

    def card_gone(self, venue_id: str, hold_id: int) -> None:
        """Its message was deleted in Slack: nothing to redraw from now on."""
        self._uow.committed(lambda c: cards.forget(c, venue_id, hold_id))


def _resolve(conn: sa.Connection, venue: Venue, notice_id: int, now: datetime) -> Resolved | None:
    queued = rows.locked_pending(conn, venue.id, notice_id)
    if queued is None or queued.recipient != QUEUED_RECIPIENT:
        return None
    ahead = holds.get_many(conn, venue, queued.payload["ahead"])
    firsts = tuple(h for h in ahead if h.is_first)
    rows.add(conn, venue.id, told_queued(queued, firsts), now)
    told = ", ".join(f"#{h.id}" for h in firsts) or "no 1st left"
    rows.mark_sent(conn, venue.id, notice_id, "-", f"resolved: {told}", now)
    return Resolved(firsts)
