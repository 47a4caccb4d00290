"""The hold engine's public face: every operation the bot, the jobs and the CLI may call.

Each method names an operation (``core.operations``) and how it runs (``core.runner``):
writes in one SERIALIZABLE unit of work with retry, where a refusal rolls back, so a
refused request writes nothing; reads on one read-only snapshot; outbox bookkeeping at
READ COMMITTED (``core.outbox``). Writes answer ``Refused`` for an unknown venue or lasting
contention; reads raise ``UnknownVenue``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta
from functools import partial
from typing import TypeVar

import sqlalchemy as sa

from core.admission import Admission, Key
from core.diary.model import DiaryRange, DiaryRead
from core.errors import Busy, StaleVenue, UnknownVenue
from core.events import AuditEvent
from core.exports.feed_tokens import FeedKey
from core.exports.reading import Sheet
from core.ledger_views import DayLedger, MonthCounts, TeamHome
from core.model import Hold, HoldEdit, HoldRequest, Status, Venue, WorkspaceLink
from core.notices import CardSpot, Notice
from core.operations import (
    decisions,
    diary,
    digests,
    edit,
    exports,
    feeds,
    imports,
    reads,
    request,
    search,
    sweep,
    team,
    venue_settings,
    venue_setup,
)
from core.operations.tx import Snapshot, Tx
from core.outbox import Outbox, Resolved
from core.results import (
    Availability,
    CancelAnswer,
    Code,
    ConfirmAnswer,
    ConfirmPlan,
    EditAnswer,
    EditPlan,
    EnquiryView,
    ExtendAnswer,
    Overview,
    Preview,
    Refused,
    ReleaseAnswer,
    RequestAnswer,
    Swept,
)
from core.rules.preload import preload
from core.rules.search import Search
from core.runner import Runner
from core.store import audit, cards, venues
from core.store import workspaces as stored_workspaces
from core.uow import Observer, RetryObserver, RetryPolicy, UnitOfWork
from core.venue_cache import VenueCache

R = TypeVar("R")


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
        self._venues = VenueCache()
        self._run = Runner(self._uow, Admission(writers, queue=queue), self._venues)
        self._outbox = Outbox(self._uow)

    # -- the database -----------------------------------------------------------------------
    def ping(self) -> None:
        """Raise ``DatabaseUnavailable`` unless the database answers."""
        self._uow.ping()

    def close(self) -> None:
        """Close the pooled connections (a new call opens them again)."""
        self._db.dispose()

    # -- venues -----------------------------------------------------------------------------
    def venue(self, venue_id: str) -> Venue | None:
        """The venue as stored now (the cached copy while its revision stands), or None."""
        return self._uow.read(partial(self._venues.find, venue_id=venue_id))

    def kept_venue(self, venue_id: str) -> Venue | None:
        """The copy the last transaction on this venue used, unchecked (None if none did):
        to word an operation's answer right after it, never to decide anything."""
        return self._venues.peek(venue_id)

    def venue_ids(self) -> list[str]:
        return self._uow.read(venues.ids)

    def warm(self, *, now: datetime) -> list[str]:
        """Read every venue into the cache and what its rules look up lazily (holiday
        calendars, the 六曜's months) for the days it can book: what a server does once
        built, so the first request after a start waits for none of it. Returns the ids."""
        ids = self.venue_ids()
        for venue_id in ids:
            venue = self.venue(venue_id)
            if venue is not None:
                preload(venue, now.astimezone(venue.tz).date())
        return ids

    def save_venue(self, venue: Venue, *, now: datetime) -> Venue:
        """Insert or update a venue (idempotent); raises ``VenueConflict`` if unsafe."""
        saved = self._uow.run(lambda conn, _: venue_setup.save(conn, venue, now))
        self._venues.keep(saved)
        return saved

    def setup_venue(
        self,
        venue: Venue,
        *,
        actor: str,
        source: str,
        now: datetime,
        link: WorkspaceLink | None = None,
    ) -> Venue:
        """Save a venue set up in Slack (``source``), audited, linked to its workspace;
        raises ``VenueConflict`` (nothing written) if unsafe."""
        saved = self._uow.run(
            lambda conn, _: venue_settings.setup(
                conn, venue, actor=actor, source=source, now=now, link=link
            )
        )
        self._venues.keep(saved)
        return saved

    def link_workspace(self, link: WorkspaceLink, *, now: datetime) -> None:
        """Use the venue from this workspace (``OSAE_VENUES`` seeds these at start)."""
        self._uow.run(lambda conn, _: stored_workspaces.link(conn, link, now))

    def venue_workspace(self, venue_id: str) -> WorkspaceLink | None:
        return self._uow.read(partial(stored_workspaces.of_venue, venue_id=venue_id))

    def choose_venue(self, venue_id: str, user_id: str, *, now: datetime) -> None:
        """The person works in this venue (their workspace has several) from now on."""
        self._uow.run(lambda conn, _: stored_workspaces.choose(conn, venue_id, user_id, now))

    def chosen_venue(self, user_id: str, venue_ids: list[str]) -> str | None:
        return self._uow.read(
            partial(stored_workspaces.chosen, user_id=user_id, venue_ids=venue_ids)
        )

    def workspace_venues(self, *workspace_ids: str) -> list[str]:
        """The venues used from these workspaces or orgs (a hotel group's: several)."""
        return self._uow.read(
            partial(stored_workspaces.venues_of, workspace_ids=list(workspace_ids))
        )

    def prepare_part_days(self, venue_id: str, *, now: datetime) -> None:
        """Make the part-day rows for the booking horizon (daily, as the horizon moves on)."""
        self._uow.committed(partial(venue_setup.prepare_part_days, venue_id=venue_id, now=now))

    # -- holds ------------------------------------------------------------------------------
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
        channel."""
        # Requests trust the cached venue (their first part-day read checks its revision), and
        # queue in this process behind other requests for the same part-days.
        check = request.Check(req, now)
        operation = partial(
            request.request_hold, check=check, key=idempotency_key, announce=announce
        )
        keys = check.part_day_keys(self._venues.peek(venue_id))
        # What the answer only shows (the holds ahead, the same customer elsewhere), a
        # refusal's twin and its alternatives are read after the commit or rollback, on its
        # connection.
        then = partial(
            self._shown,
            venue_id,
            warn=req.enquiry_id is None,
            req=req,
            key=idempotency_key,
            now=now,
        )
        # One that waited for another request's turn on its part-days may be refused on
        # what that one wrote, without a transaction of its own (a crowd for one slot).
        look = partial(request.refused_on_sight, check=check, now=now)
        return self._answer(venue_id, now, operation, keys=keys, trusted=True, then=then, look=look)

    def preview(self, venue_id: str, req: HoldRequest, *, now: datetime) -> Preview | Refused:
        """What ``request`` would answer now; a refusal for a taken place, its alternatives."""
        answer = self._run.read(venue_id, partial(request.preview, req=req, now=now), trusted=True)
        return self._with_alternatives(venue_id, req, now, answer)

    def _with_alternatives(self, venue_id: str, req: HoldRequest, now: datetime, answer: R) -> R:
        """A refusal for a taken place with up to five requests that would be accepted now,
        read on their own snapshot after it (they only advise)."""
        if not isinstance(answer, Refused) or answer.code not in search.TAKEN:
            return answer
        offer = partial(search.alternatives, req=req, now=now)
        found = self._run.read(venue_id, offer, trusted=True)
        return replace(answer, alternatives=found)

    def _offered(self, snap: Snapshot, req: HoldRequest, now: datetime, answer: R) -> R:
        """``_with_alternatives`` read in one statement on ``snap`` (a request's connection
        after its rollback, in autocommit), or on a snapshot of their own if ``snap``'s
        venue is a stale copy."""
        if not isinstance(answer, Refused) or answer.code not in search.TAKEN:
            return answer
        try:
            return replace(answer, alternatives=search.alternatives(snap, req, now))
        except StaleVenue:
            self._venues.forget(snap.venue.id)
            return self._with_alternatives(snap.venue.id, req, now, answer)

    def search(self, venue_id: str, query: Search, *, now: datetime) -> Availability | Refused:
        """What a request of ``query.kind`` would get now at each date, time and room the
        search looks at; read-only, one statement (docs/rules.md, Finding a slot)."""
        return self._run.read(venue_id, partial(search.search, query=query, now=now), trusted=True)

    def confirm(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> ConfirmAnswer | Refused:
        return self._answer(venue_id, now, partial(decisions.confirm, hold_id=hold_id, actor=actor))

    def confirm_plan(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> ConfirmPlan | Refused:
        plan = partial(decisions.confirm_plan, hold_id=hold_id, actor=actor, now=now)
        return self._run.read(venue_id, plan)

    def release(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> ReleaseAnswer | Refused:
        return self._answer(venue_id, now, partial(decisions.release, hold_id=hold_id, actor=actor))

    def extend(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime
    ) -> ExtendAnswer | Refused:
        return self._answer(venue_id, now, partial(decisions.extend, hold_id=hold_id, actor=actor))

    def cancel(
        self, venue_id: str, hold_id: int, *, actor: str, now: datetime, reason: str = ""
    ) -> CancelAnswer | Refused:
        """A manager's cancel; ``reason`` is told to the hold's salesperson and its card."""
        cancel = partial(decisions.cancel, hold_id=hold_id, actor=actor, reason=reason)
        return self._answer(venue_id, now, cancel)

    def edit(
        self, venue_id: str, change: HoldEdit, *, now: datetime, announce: bool = False
    ) -> EditAnswer | Refused:
        """Change a hold's rooms, times or people (docs/rules.md, Changing a hold): a shrink
        keeps its place, anything else swaps it for a new arrival, atomically. Its card is
        redrawn; ``announce``: the caller posts no card for a swap's new hold (CLI, App
        Home), the jobs post it in the sales channel."""
        operation = partial(edit.edit, change=change, announce=announce)
        return self._answer(venue_id, now, operation)

    def edit_plan(self, venue_id: str, change: HoldEdit, *, now: datetime) -> EditPlan | Refused:
        """What ``edit`` would do now (the form's preview); nothing is written."""
        return self._run.read(venue_id, partial(edit.plan_edit, change=change, now=now))

    def sweep(self, venue_id: str, *, now: datetime, batch: int = 500) -> Swept | Refused:
        """Expire every due 1st hold, ``batch`` at a time (see ``operations.sweep``)."""
        try:
            return sweep.sweep(self._run, venue_id, now, batch)
        except UnknownVenue:
            return Refused(Code.UNKNOWN_VENUE, detail=venue_id)

    def hold(self, venue_id: str, hold_id: int) -> Hold | Refused:
        return self._run.read(venue_id, partial(reads.hold, hold_id=hold_id))

    def enquiry(self, venue_id: str, enquiry_id: int) -> EnquiryView | Refused:
        """An enquiry and all its holds (candidate dates), in arrival order."""
        return self._run.read(venue_id, partial(reads.enquiry, enquiry_id=enquiry_id))

    def trail(self, venue_id: str, hold_id: int) -> list[AuditEvent]:
        return self._uow.read(partial(audit.trail, venue_id=venue_id, hold_id=hold_id))

    def holds(
        self,
        venue_id: str,
        *,
        on: date | None = None,
        salesperson: str | None = None,
        statuses: Sequence[Status] | None = None,
        limit: int | None = 500,
        since: date | None = None,
    ) -> list[Hold]:
        """Holds by date, then start (only from ``since`` on, if given); at most ``limit``
        (None: every one)."""
        listing = partial(
            reads.listing,
            on=on,
            salesperson=salesperson,
            statuses=statuses,
            limit=limit,
            since=since,
        )
        return self._run.read(venue_id, listing)

    def overview(self, venue_id: str, user: str, *, now: datetime) -> Overview:
        return self._run.read(venue_id, partial(reads.overview, user=user, now=now))

    # -- the team's ledger (what managers see) ---------------------------------------------
    def day(self, venue_id: str, on: date, *, rooms: Collection[str] | None = None) -> DayLedger:
        """A local day: each active room (or only ``rooms``) with the live holds taking it."""
        return self._run.read(venue_id, partial(team.day, on=on, rooms=rooms))

    def team_home(self, venue_id: str, *, now: datetime) -> TeamHome:
        """The whole team's deadlines today and this week, 2nd queues, this month's counts."""
        return self._run.read(venue_id, partial(team.home, now=now))

    def diary(self, venue_id: str, days: DiaryRange) -> DiaryRead:
        """The live holds a diary picture of ``days`` draws: one statement, one snapshot."""
        return self._run.read(venue_id, partial(diary.diary, days=days))

    def month_counts(self, venue_id: str, year: int, month: int) -> MonthCounts:
        return self._run.read(venue_id, partial(team.month, year=year, number=month))

    # -- the ledger leaving osae (export, calendar feeds) -----------------------------------
    def ledger_out(
        self, venue_id: str, start: date, end: date, *, left: bool = False
    ) -> exports.LedgerOut:
        """Holds of local dates ``start``..``end``: live ones, or (``left``) every one."""
        read = partial(exports.ledger_out, start=start, end=end, left=left)
        return self._run.read(venue_id, read)

    def import_ledger(
        self, venue_id: str, sheet: Sheet, *, actor: str | None, now: datetime, dry_run: bool
    ) -> imports.ImportAnswer | Refused:
        """A ledger's rows placed as holds in one transaction: all, or (a row that cannot be
        placed, or ``dry_run``) none; the answer names every row that cannot, and why."""
        place = partial(imports.place, sheet=sheet, actor=actor, dry_run=dry_run)
        return self._answer(venue_id, now, place)

    # -- calendar feeds (issue 27) ------------------------------------------------------------
    def feed_stamp(self, given_token: str) -> feeds.FeedStamp | None:
        """The feed a token opens, with its ETag; None for an unknown or rotated token."""
        return self._uow.read(partial(feeds.stamp_by_token, given=given_token))

    def feed_read(self, feed: FeedKey, known: Callable[[feeds.Entry], bool]) -> feeds.FeedRead:
        """The feed's live holds: each by version, and in full those ``known`` has not."""
        return self._run.read(feed.venue_id, partial(feeds.read, feed=feed, known=known))

    def feed_token(
        self, feed: FeedKey, *, secret: bytes | None, now: datetime, rotate: bool = False
    ) -> str | Refused:
        """The feed's secret token (issued on first use); ``rotate``: a new one, the old one
        then opens nothing. ``secret``: the deployment's key (None: the venue's stored one)."""
        try:
            if not rotate:
                shown = partial(feeds.shown_token, feed=feed, secret=secret)
                found = self._run.read(feed.venue_id, shown)
                if found is not None:
                    return found
        except UnknownVenue:
            return Refused(Code.UNKNOWN_VENUE, detail=feed.venue_id)
        issue = partial(feeds.issue, feed=feed, secret=secret, rotate=rotate)
        return self._answer(feed.venue_id, now, issue)

    # -- notices ----------------------------------------------------------------------------
    def queue_reminders(self, venue_id: str, *, now: datetime) -> int | Refused:
        return self._answer(venue_id, now, digests.queue_reminders)

    def queue_digests(self, venue_id: str, *, now: datetime) -> int | Refused:
        return self._answer(venue_id, now, digests.queue_digests)

    def claim_notices(
        self, venue_id: str, *, owner: str, now: datetime, lease: timedelta, limit: int = 20
    ) -> list[Notice]:
        return self._outbox.claim(venue_id, owner=owner, now=now, lease=lease, limit=limit)

    def notice_sent(
        self, venue_id: str, notice_id: int, *, channel: str, ref: str, now: datetime
    ) -> None:
        """Delivered: where it went and its id there (a Slack DM's channel and ts)."""
        self._outbox.sent(venue_id, notice_id, channel, ref, now)

    def notice_retry(
        self, venue_id: str, notice_id: int, *, error: str, available_at: datetime
    ) -> None:
        self._outbox.retry(venue_id, notice_id, error, available_at)

    def notice_failed(self, venue_id: str, notice_id: int, *, error: str) -> None:
        self._outbox.failed(venue_id, notice_id, error)

    def resolve_queued(self, venue_id: str, notice_id: int, *, now: datetime) -> Resolved | None:
        """A queued hold's row (recipient ``QUEUED_RECIPIENT``) turned into one notice to
        each hold ahead still 1st, and marked done; None if it was no longer pending."""
        venue = self.venue(venue_id)
        if venue is None:
            return None
        return self._outbox.resolve_queued(venue, notice_id, now)

    def report_failures(
        self, venue_id: str, report: Callable[[list[Notice]], None], *, now: datetime
    ) -> list[Notice]:
        """Hand failed rows nobody was told about to ``report``; marked once it returns."""
        return self._outbox.report_failures(venue_id, report, now)

    def notices(self, venue_id: str, *, status: str | None = None) -> list[Notice]:
        return self._outbox.listing(venue_id, status)

    def requeue_failed(
        self, venue_id: str, *, now: datetime, ids: Sequence[int] | None = None
    ) -> list[int]:
        return self._outbox.requeue_failed(venue_id, ids, now)

    # -- cards ------------------------------------------------------------------------------
    def announce(self, venue_id: str, hold_id: int, *, actor: str, now: datetime) -> Hold | Refused:
        """Have the jobs post the hold's card in the sales channel (where it was asked for,
        it could not be posted)."""
        return self._answer(
            venue_id, now, partial(decisions.announce, hold_id=hold_id, actor=actor)
        )

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

    def _shown(
        self,
        venue_id: str,
        conn: sa.Connection,
        answer: RequestAnswer | Refused,
        *,
        warn: bool,
        req: HoldRequest,
        key: str | None,
        now: datetime,
    ) -> RequestAnswer | Refused:
        """A request's answer with what it shows, read after its transaction on its own
        connection (autocommit): a refusal with a key becomes its twin's answer, if any; a
        refusal the ledger decided gets the holds it names, and one for a taken place the
        places it could have instead (each read one statement: one snapshot)."""
        if isinstance(answer, Refused) and not key and not isinstance(answer, request.Unworded):
            return answer
        venue = self._venues.peek(venue_id) or venues.load(conn, venue_id)
        assert venue is not None  # noqa: S101 - its transaction has just read it
        snap = Snapshot(conn, venue)
        answer = request.worded(snap, request.twin_instead(snap, answer, req, key))
        if not isinstance(answer, RequestAnswer):
            return self._offered(snap, req, now, answer)
        return request.shown(snap, answer, warn=warn)

    # -- how writes answer ------------------------------------------------------------------
    def _answer(
        self,
        venue_id: str,
        now: datetime,
        operation: Callable[[Tx], R],
        *,
        keys: Iterable[Key] = (),
        trusted: bool = False,
        then: Callable[[sa.Connection, R], R] | None = None,
        look: Callable[[Snapshot], R | None] | None = None,
    ) -> R | Refused:
        """A write whose every outcome is an answer: an unknown venue and lasting contention
        are refusals like any other."""
        try:
            return self._run.write(
                venue_id, now, operation, keys=keys, trusted=trusted, then=then, look=look
            )
        except UnknownVenue:
            return Refused(Code.UNKNOWN_VENUE, detail=venue_id)
        except Busy:
            return Refused(Code.BUSY)
