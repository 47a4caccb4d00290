"""The writes of holds and their dry runs: requests, decisions, edits, what the jobs write on
time (expiry, reminders, digests). Every write answers: an unknown venue and lasting
contention are refusals like any other."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import TypeVar

import sqlalchemy as sa

from core.errors import Busy, StaleVenue, UnknownVenue
from core.exports.feed_tokens import FeedKey
from core.exports.reading import Sheet
from core.model import Hold, HoldEdit, HoldRequest
from core.operations import (
    answering,
    decisions,
    deposits,
    digests,
    edit,
    feeds,
    imports,
    preview,
    search,
    staff_names,
    sweep,
)
from core.operations.request import (
    Asked,
    Attempted,
    refused_on_sight,
    request_hold,
    writes,
)
from core.operations.tx import Snapshot, Tx
from core.results import (
    CancelAnswer,
    Code,
    ConfirmAnswer,
    ConfirmPlan,
    DepositAnswer,
    EditAnswer,
    EditPlan,
    ExtendAnswer,
    NudgeAnswer,
    Preview,
    Refused,
    ReleaseAnswer,
    RequestAnswer,
    Swept,
)
from core.runner import Runner
from core.store import venues
from core.uow import ROW_CONFLICTS, SERIALIZABLE, Attempt, autocommit

R = TypeVar("R")


class Writes:
    def __init__(self, run: Runner) -> None:
        self._run = run

    def request(
        self,
        venue_id: str,
        req: HoldRequest,
        *,
        now: datetime,
        idempotency_key: str | None = None,
        announce: bool = False,
    ) -> RequestAnswer | Refused:
        """One room or several (``req.also``), for a new enquiry or as another candidate date
        of ``req.enquiry_id``; a new enquiry's answer warns of the same customer elsewhere.
        ``announce``: the caller posts no card (CLI, App Home); the jobs post it in the sales
        channel. Each attempt, in order:

        1. waits for its turn among this process's requests for the same part-days (they
           would only abort each other), holding no connection meanwhile;
        2. if it waited, may be refused on what the one before it committed, in one read;
        3. else runs in one SERIALIZABLE transaction, the part-day bump first, trusting the
           cached venue (the bump checks it); a refusal rolls back;
        4. its turn over, the answer's words are read on the same connection.
        """
        asked = Asked(req, now, idempotency_key, announce)
        keys = asked.part_day_keys(self._run.venues.peek(venue_id))  # decides nothing
        try:
            for attempt in self._run.uow.attempts():
                with attempt:
                    with self._run.admission.write(venue_id, keys) as waited:  # 1.
                        conn = attempt.connect()
                        attempted = self._on_sight(attempt, conn, venue_id, asked, waited)  # 2.
                        if attempted is None:  # 3.
                            with self._run.unit(attempt, conn, venue_id, now, trusted=True) as unit:
                                attempted = request_hold(unit.tx, asked)
                                if writes(attempted):
                                    unit.commit()
                    with autocommit(conn) as after:  # 4.
                        return self._answered(after, venue_id, attempted, asked)
        except UnknownVenue:
            return Refused(Code.UNKNOWN_VENUE, detail=venue_id)
        return Refused(Code.BUSY)  # every attempt met another's commit

    def preview(self, venue_id: str, req: HoldRequest, *, now: datetime) -> Preview | Refused:
        """What ``request`` would answer now; a refusal for a taken place, its alternatives."""
        answer = self._run.read(venue_id, partial(preview.preview, req=req, now=now), trusted=True)
        return self._with_alternatives(venue_id, req, now, answer)

    def confirm(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> ConfirmAnswer | Refused:
        confirm = partial(decisions.confirm, hold_id=hold_id, actor=actor)
        return self._write(venue_id, now, confirm, isolation=ROW_CONFLICTS)

    def confirm_plan(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> ConfirmPlan | Refused:
        plan = partial(decisions.confirm_plan, hold_id=hold_id, actor=actor, now=now)
        return self._run.read(venue_id, plan)

    def release(
        self,
        venue_id: str,
        hold_id: int,
        *,
        actor: str,
        now: datetime,
        reason: str | None = None,
        note: str = "",
    ) -> ReleaseAnswer | Refused:
        """The customer declined, ``reason`` a code of ``core.rules.reasons`` (none:
        ``unspecified``) with a ``note``."""
        release = partial(decisions.release, hold_id=hold_id, actor=actor, reason=reason, note=note)
        return self._write(venue_id, now, release, isolation=ROW_CONFLICTS)

    def extend(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> ExtendAnswer | Refused:
        extend = partial(decisions.extend, hold_id=hold_id, actor=actor)
        return self._write(venue_id, now, extend, isolation=ROW_CONFLICTS)

    def nudge(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> NudgeAnswer | Refused:
        """A waiting hold's salesperson asks the 1st ``hold_id`` to answer (once)."""
        nudge = partial(decisions.nudge, hold_id=hold_id, actor=actor)
        return self._write(venue_id, now, nudge, isolation=ROW_CONFLICTS)

    def nudge_ahead(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> NudgeAnswer | Refused:
        """The same, from the waiting hold ``hold_id`` (its button): the 1st ahead of it."""
        nudge = partial(decisions.nudge_ahead, hold_id=hold_id, actor=actor)
        return self._write(venue_id, now, nudge, isolation=ROW_CONFLICTS)

    def cancel(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime, reason: str = ""
    ) -> CancelAnswer | Refused:
        """A manager's cancel; ``reason`` is told to the hold's salesperson and its card."""
        cancel = partial(decisions.cancel, hold_id=hold_id, actor=actor, reason=reason)
        return self._write(venue_id, now, cancel, isolation=ROW_CONFLICTS)

    def edit(
        self, venue_id: str, change: HoldEdit, *, now: datetime, announce: bool = False
    ) -> EditAnswer | Refused:
        """Change a hold's rooms, times or people (docs/rules.md, Changing a hold): an edit
        that takes nobody's place keeps its own, anything else swaps it for a new arrival,
        atomically. Its card is
        redrawn; ``announce``: the caller posts no card for a swap's new hold (CLI, App
        Home), the jobs post it in the sales channel."""
        change_it = partial(edit.edit, change=change, announce=announce)
        return self._write(venue_id, now, change_it, isolation=ROW_CONFLICTS)

    def edit_plan(self, venue_id: str, change: HoldEdit, *, now: datetime) -> EditPlan | Refused:
        """What ``edit`` would do now (the form's preview); nothing is written."""
        return self._run.read(venue_id, partial(edit.plan_edit, change=change, now=now))

    def announce(self, venue_id: str, hold_id: int, *, actor: str, now: datetime) -> Hold | Refused:
        """Have the jobs post the hold's card in the sales channel (where it was asked for,
        it could not be posted)."""
        return self._write(venue_id, now, partial(decisions.announce, hold_id=hold_id, actor=actor))

    def import_ledger(
        self, venue_id: str, sheet: Sheet, *, actor: str | None, now: datetime, dry_run: bool
    ) -> imports.ImportAnswer | Refused:
        """A ledger's rows placed as holds in one transaction: all, or (a row that cannot be
        placed, or ``dry_run``) none; the answer names every row that cannot, and why."""
        place = partial(imports.place, sheet=sheet, actor=actor, dry_run=dry_run)
        return self._write(venue_id, now, place)

    def feed_token(
        self, feed: FeedKey, *, secret: bytes | None, now: datetime, rotate: bool = False
    ) -> str | Refused:
        """A calendar feed's secret token (issued on first use); ``rotate``: a new one, the
        old one then opens nothing. ``secret``: the deployment's key (None: the venue's)."""
        try:
            if not rotate:
                shown = partial(feeds.shown_token, feed=feed, secret=secret)
                found = self._run.read(feed.venue_id, shown)
                if found is not None:
                    return found
        except UnknownVenue:
            return Refused(Code.UNKNOWN_VENUE, detail=feed.venue_id)
        issue = partial(feeds.issue, feed=feed, secret=secret, rotate=rotate)
        return self._write(feed.venue_id, now, issue)

    # -- what the jobs write on time ----------------------------------------------------------
    def expire_due(self, venue_id: str, *, now: datetime, limit: int) -> Swept | Refused:
        """Expire up to ``limit`` due 1st holds in one transaction, promoting whoever waited
        behind them (the sweep job runs batches until one is short: ``jobs.sweeping``)."""
        return self._write(venue_id, now, partial(sweep.expire_due, limit=limit))

    def expire(self, venue_id: str, hold_id: int, *, now: datetime) -> Swept | Refused:
        """The same for one hold, when a batch kept conflicting; nothing if it is not due."""
        return self._write(venue_id, now, partial(sweep.expire_one, hold_id=hold_id))

    def due(self, venue_id: str, *, now: datetime, limit: int) -> list[int] | Refused:
        """The ids of up to ``limit`` 1st holds due to expire at ``now``."""
        try:
            return self._run.read(venue_id, partial(sweep.due_ids, now=now, limit=limit))
        except UnknownVenue:
            return Refused(Code.UNKNOWN_VENUE, detail=venue_id)

    def remember_names(
        self, venue_id: str, found: Mapping[str, str], *, now: datetime
    ) -> int | Refused:
        """Cache people's names as Slack gave them."""
        return self._write(venue_id, now, partial(staff_names.remember, found=found))

    def queue_reminders(self, venue_id: str, *, now: datetime) -> int | Refused:
        return self._write(venue_id, now, digests.queue_reminders)

    def queue_digests(self, venue_id: str, *, now: datetime) -> int | Refused:
        return self._write(venue_id, now, digests.queue_digests)

    def record_deposit(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime, amount: int | None = None
    ) -> DepositAnswer | Refused:
        """入金確認: the booking of ``hold_id`` has paid its deposit (``amount`` yen, if said)."""
        paid = partial(deposits.record_paid, hold_id=hold_id, actor=actor, amount=amount)
        return self._write(venue_id, now, paid, isolation=ROW_CONFLICTS)

    def queue_deposit_notices(self, venue_id: str, *, now: datetime) -> int | Refused:
        """The deposits' reminders and past-due notices due now, each once per booking."""
        return self._write(venue_id, now, deposits.queue_notices)

    # -- how they answer ----------------------------------------------------------------------
    def _write(
        self,
        venue_id: str,
        now: datetime,
        operation: Callable[[Tx], R],
        *,
        isolation: str = SERIALIZABLE,
    ) -> R | Refused:
        """Decisions run at ``ROW_CONFLICTS``: each of their conflicts with another write is
        on a row both write (docs/concurrency.md, Decisions under a crowd)."""
        try:
            return self._run.write(venue_id, now, operation, isolation=isolation)
        except UnknownVenue:
            return Refused(Code.UNKNOWN_VENUE, detail=venue_id)
        except Busy:
            return Refused(Code.BUSY)

    def _on_sight(
        self, attempt: Attempt, conn: sa.Connection, venue_id: str, asked: Asked, waited: bool
    ) -> Attempted | None:
        """A request that ``waited`` for another's turn, refused on what that one committed
        (``request.refused_on_sight``); None: on to its transaction."""
        if not waited:
            return None
        with autocommit(conn) as now:
            refused = refused_on_sight(self._run.snapshot(now, venue_id, trusted=True), asked)
        if refused is not None:
            attempt.seen()
        return refused

    def _answered(
        self, conn: sa.Connection, venue_id: str, attempted: Attempted, asked: Asked
    ) -> RequestAnswer | Refused:
        """The request's answer worded after its transaction (``core.operations.answering``),
        and a refusal for a taken place with the places it could have instead."""
        if isinstance(attempted, Refused) and not asked.key:
            return attempted  # worded already, and no twin to look for
        venue = self._run.venues.peek(venue_id) or venues.load(conn, venue_id)
        assert venue is not None  # noqa: S101 - its transaction has just read it
        snap = Snapshot(conn, venue)
        answer = answering.answered(snap, attempted, asked)
        if isinstance(answer, RequestAnswer):
            return answer
        return self._offered(snap, asked.req, asked.now, answer)

    def _offered(self, snap: Snapshot, req: HoldRequest, now: datetime, answer: Refused) -> Refused:
        """``_with_alternatives`` read in one statement on ``snap`` (a request's connection
        after its rollback, in autocommit), or on a snapshot of their own if ``snap``'s
        venue is a stale copy."""
        if answer.code not in search.TAKEN:
            return answer
        try:
            return replace(answer, alternatives=search.alternatives(snap, req, now))
        except StaleVenue:
            self._run.venues.forget(snap.venue.id)
            return self._with_alternatives(snap.venue.id, req, now, answer)

    def _with_alternatives(self, venue_id: str, req: HoldRequest, now: datetime, answer: R) -> R:
        """A refusal for a taken place with up to five requests that would be accepted now,
        read on their own snapshot after it (they only advise)."""
        if not isinstance(answer, Refused) or answer.code not in search.TAKEN:
            return answer
        offer = partial(search.alternatives, req=req, now=now)
        found = self._run.read(venue_id, offer, trusted=True)
        return replace(answer, alternatives=found)
