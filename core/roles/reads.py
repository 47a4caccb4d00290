"""What people read: a hold, an enquiry, lists, a salesperson's overview, the team's ledger
(a day, the team's home, a month's counts) and searches. Each on one read-only snapshot;
an unknown venue raises ``UnknownVenue``."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import date, datetime
from functools import partial

from core.diary.model import DiaryRange, DiaryRead
from core.events import AuditEvent
from core.exports.feed_tokens import FeedKey
from core.ledger_views import DayLedger, MonthCounts, TeamHome
from core.model import Hold, Status
from core.operations import diary, exports, feeds, pipeline, reads, search, staff_names, team
from core.results import Availability, EnquiryView, Overview, Refused
from core.rules.search import Search
from core.runner import Runner
from core.store import audit, next_actions


class Reads:
    def __init__(self, run: Runner) -> None:
        self._run = run

    def names(self, venue_id: str) -> dict[str, str]:
        """People's names by user id: Slack's as cached, else the venue file's [[staff]]."""
        return self._run.read(venue_id, staff_names.names)

    def stale_names(self, venue_id: str, users: frozenset[str], *, now: datetime) -> frozenset[str]:
        """Of ``users``, those whose Slack name should be asked for (none cached, or old)."""
        return self._run.read(venue_id, partial(staff_names.stale, users=users, now=now))

    def hold(self, venue_id: str, hold_id: int) -> Hold | Refused:
        return self._run.read(venue_id, partial(reads.hold, hold_id=hold_id))

    def enquiry(self, venue_id: str, enquiry_id: int) -> EnquiryView | Refused:
        """An enquiry and all its holds (candidate dates), in arrival order."""
        return self._run.read(venue_id, partial(reads.enquiry, enquiry_id=enquiry_id))

    def trail(self, venue_id: str, hold_id: int) -> list[AuditEvent]:
        return self._run.uow.read(partial(audit.trail, venue_id=venue_id, hold_id=hold_id))

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

    def follow_ups(self, venue_id: str, salesperson: str, *, until: date) -> list[Hold]:
        """The salesperson's bookings whose next action falls on or before ``until`` (overdue
        ones too), each by its earliest live hold, soonest first (次のアクション)."""
        return self._run.read(
            venue_id,
            lambda snap: next_actions.follow_ups(snap.conn, snap.venue, until, salesperson),
        )

    def search(self, venue_id: str, query: Search, *, now: datetime) -> Availability | Refused:
        """What a request of ``query.kind`` would get now at each date, time and room the
        search looks at; read-only, one statement (docs/rules.md, Finding a slot)."""
        return self._run.read(venue_id, partial(search.search, query=query, now=now), trusted=True)

    # -- the team's ledger (what managers see) -----------------------------------------------
    def day(self, venue_id: str, on: date, *, rooms: Collection[str] | None = None) -> DayLedger:
        """A local day: each active room (or only ``rooms``) with the live holds taking it."""
        return self._run.read(venue_id, partial(team.day, on=on, rooms=rooms))

    def team_home(self, venue_id: str, *, now: datetime) -> TeamHome:
        """The whole team's deadlines today and this week, 2nd queues, this month's counts."""
        return self._run.read(venue_id, partial(team.home, now=now))

    def month_counts(self, venue_id: str, year: int, month: int) -> MonthCounts:
        return self._run.read(venue_id, partial(team.month, year=year, number=month))

    def pipeline(self, venue_id: str, year: int, month: int) -> pipeline.PipelineRead:
        """A month's pipeline report (docs/rules.md, The pipeline report): two statements."""
        return self._run.read(venue_id, partial(pipeline.pipeline, year=year, number=month))

    def diary(self, venue_id: str, days: DiaryRange) -> DiaryRead:
        """The live holds a diary picture of ``days`` draws: one statement, one snapshot."""
        return self._run.read(venue_id, partial(diary.diary, days=days))

    # -- the ledger leaving osae (export, calendar feeds) -------------------------------------
    def ledger_out(
        self, venue_id: str, start: date, end: date, *, left: bool = False
    ) -> exports.LedgerOut:
        """Holds of local dates ``start``..``end``: live ones, or (``left``) every one."""
        read = partial(exports.ledger_out, start=start, end=end, left=left)
        return self._run.read(venue_id, read)

    def feed_stamp(self, given_token: str) -> feeds.FeedStamp | None:
        """The feed a token opens, with its ETag; None for an unknown or rotated token."""
        return self._run.uow.read(partial(feeds.stamp_by_token, given=given_token))

    def feed_shown(self, feed: FeedKey, *, secret: bytes | None) -> str | None:
        """The feed's token if one was issued (a read: App Home only shows it), else None."""
        return self._run.read(feed.venue_id, partial(feeds.shown_token, feed=feed, secret=secret))

    def feed_read(self, feed: FeedKey, known: Callable[[feeds.Entry], bool]) -> feeds.FeedRead:
        """The feed's live holds: each by version, and in full those ``known`` has not."""
        return self._run.read(feed.venue_id, partial(feeds.read, feed=feed, known=known))
