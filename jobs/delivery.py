"""Outbox delivery: claim due notices with a lease, send each through the transport (a Slack
DM, or the terminal without Slack), record the answer.

At least once: a row is marked sent only after the transport has answered with its
reference, so a worker that dies mid-send leaves the row leased, and another worker sends it
once the lease runs out. A row is never dropped: it is sent, waits for a retry, or is marked
failed with its error (and the sales channel is told once).
"""

from __future__ import annotations

import logging
import os
import random
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from core.model import Hold, Venue
from core.notices import QUEUED_RECIPIENT, CardSpot, Notice, NoticeKind
from core.results import Refused
from core.roles.delivery import Delivery
from jobs.drained import Drained
from jobs.logs import fields
from jobs.renderers import RenderCard, RenderCardLine, RenderNotice, RenderReport
from jobs.transport import (
    Delivered,
    DeliveryOutcome,
    Message,
    Permanent,
    RateLimited,
    Transient,
    Transport,
)

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 20  # with the backoff below: about 3 h of Slack trouble before a row fails
BACKOFF_BASE = 5.0  # seconds
BACKOFF_CAP = 15 * 60.0
TOKEN_PAUSE = timedelta(minutes=1)  # rows put back after the token was refused


# chat.update's answers for a card that is no longer there: nothing left to redraw.
CARD_GONE = frozenset(
    {"message_not_found", "channel_not_found", "is_archived", "cant_update_message"}
)


Now = Callable[[], datetime]


@dataclass
class _Run:
    """One drain's state: the venue and how its messages go (its workspace's transport, its
    own channel and language, else the deployment's), its tally, and recipients Slack told
    us to leave alone until when."""

    venue: Venue
    transport: Transport
    sales_channel: str | None  # where failures are reported
    card_channel: str | None  # where a hold no Slack surface posted gets its card
    locale: str  # the channel's language
    tally: Drained = field(default_factory=Drained)
    quiet_until: dict[str, datetime] = field(default_factory=dict)  # next free turn
    pace: dict[str, timedelta] = field(default_factory=dict)  # one turn per Retry-After
    token_refused: bool = False
    resolved: bool = False  # a queued row made rows of its own, due now: claim again


@dataclass(frozen=True)
class Courier:
    delivery: Delivery  # the engine's delivery bookkeeping: all a courier needs of it
    transport: Transport  # Slack DMs, or the terminal: the rules below are the same
    render: RenderNotice
    render_report: RenderReport
    now: Now
    lease: timedelta
    report_locale: str  # the sales channel's reports are in this language
    sales_channel: str | None = None
    render_card: RenderCard | None = None  # without it, card rows are done with nothing to do
    render_card_line: RenderCardLine | None = None
    card_channel: str | None = None  # where a hold no Slack surface posted gets its card
    batch: int = 20
    budget: float = 30.0  # seconds of claiming per drain; then the actor enqueues another
    backoff_base: float = BACKOFF_BASE  # seconds before the first retry after a transient error
    owner: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")
    # Many workspaces: each venue's messages go with its workspace's token; None for a venue
    # whose workspace has none (not installed, or uninstalled): its rows wait, untouched.
    transport_for: Callable[[str], Transport | None] | None = None

    def drain(self, venue_id: str) -> Drained:
        venue = self.delivery.venue(venue_id)
        if venue is None:
            log.warning("drain: unknown venue", extra=fields(venue_id, "drain", "unknown_venue"))
            return Drained()
        run = self._run(venue)
        if run is None:
            return Drained()
        started = time.monotonic()
        while not run.token_refused:
            claimed_at = time.monotonic()  # before the claim: the lease may only be shorter
            claimed = self.delivery.claim_notices(
                venue_id, owner=self.owner, now=self.now(), lease=self.lease, limit=self.batch
            )
            run.resolved = False
            self._deliver(run, claimed, claimed_at)
            if len(claimed) < self.batch and not run.resolved:
                break
            if time.monotonic() - started > self.budget:
                run.tally.more = True
                break
        self.report_failures(run)
        return run.tally

    def _run(self, venue: Venue) -> _Run | None:
        """The drain's state, or None when the venue's workspace has no token now: its rows
        stay pending (``osae outbox list`` shows them), neither failed nor sent elsewhere."""
        carrier = self.transport if self.transport_for is None else self.transport_for(venue.id)
        if carrier is None:
            log.info(  # every safety-net drain meets it again: not a warning each time
                "drain: no token for the venue's workspace; its notices wait",
                extra=fields(venue.id, "drain", "no_token"),
            )
            return None
        own = venue.sales_channel
        return _Run(
            venue,
            carrier,
            sales_channel=own or self.sales_channel,
            card_channel=own or self.card_channel,
            locale=venue.language or self.report_locale,
        )

    def report_failures(self, run: _Run) -> None:
        """Tell the sales channel about rows that failed since it was last told; once."""
        if not run.sales_channel:
            return
        venue = run.venue
        try:
            told = self.delivery.report_failures(
                venue.id, lambda failed: self._post_report(run, failed), now=self.now()
            )
        except ReportNotPosted as err:
            # The rows stay unreported, so the next drain tries again.
            log.error(  # noqa: TRY400 - the reason is the Slack answer, not a traceback
                "failure report not posted",
                extra=fields(venue.id, "notice.report", "not_posted", error=str(err)),
            )
            return
        if told:
            log.info(
                "failure report posted",
                extra=fields(venue.id, "notice.report", "posted", notices=[n.id for n in told]),
            )

    # -- one batch ---------------------------------------------------------------------------
    def _deliver(self, run: _Run, claimed: list[Notice], claimed_at: float) -> None:
        for index, notice in enumerate(claimed):
            if run.token_refused:
                self._put_back(claimed[index:], run, self.now() + TOKEN_PAUSE)
                return
            if not self._deliver_one(run, notice, claimed_at):
                self._put_back(claimed[index:], run, self.now())
                run.tally.more = True
                return

    def _deliver_one(self, run: _Run, notice: Notice, claimed_at: float) -> bool:
        """Post one row and record the answer; False (row untouched) if the lease is too
        short for a post now."""
        quiet = run.quiet_until.get(notice.recipient)
        if quiet is not None and quiet > self.now():
            # Slack said this conversation is over its limit: its next rows go out one per
            # Retry-After from then on, instead of each meeting a 429 of its own.
            run.quiet_until[notice.recipient] = quiet + run.pace[notice.recipient]
            self.delivery.notice_retry(
                run.venue.id, notice.id, error="ratelimited", available_at=quiet
            )
            run.tally.defer_until(quiet)
            return True
        if notice.kind == NoticeKind.CARD:
            return self._deliver_card(run, notice, claimed_at)
        if notice.recipient == QUEUED_RECIPIENT:
            self._resolve_queued(run, notice)
            return True
        message = self._render(run, notice)  # may ask Slack for the locale first
        if message is None:
            run.tally.failed += 1
            return True
        if not self._lease_allows_post(run, claimed_at):
            return False
        outcome = run.transport.send(notice.recipient, message, notice=notice)
        self._record(run, notice, outcome)
        return True

    def _resolve_queued(self, run: _Run, notice: Notice) -> None:
        """A queued hold's row names the holds ahead of it: the engine writes a row to each
        one's salesperson that is still 1st (sent like any other), with this row done."""
        resolved = self.delivery.resolve_queued(run.venue.id, notice.id, now=self.now())
        if resolved is None:
            return  # another worker resolved it (its lease had run out)
        run.tally.sent += 1
        run.resolved = run.resolved or bool(resolved.firsts)
        firsts = [h.id for h in resolved.firsts]
        outcome = "resolved" if firsts else "settled"  # settled: no 1st left, no DM
        _log_notice(notice, outcome, firsts=firsts, attempts=notice.attempts)

    # -- a hold's card ------------------------------------------------------------------------
    def _deliver_card(self, run: _Run, notice: Notice, claimed_at: float) -> bool:
        """Redraw the card from the hold as it is now (a late row draws the same, true card),
        then add the row's line to its thread; a card only if no surface posted it."""
        drawn = self._draw_card(run, notice)
        if drawn is None:
            return True
        card, line, hold = drawn
        spot = self.delivery.card(run.venue.id, hold.id)
        if not self._lease_allows_post(run, claimed_at):
            return False
        if spot is None:
            self._post_card(run, notice, hold, card)
            return True
        return self._redraw(run, notice, spot, card, line, claimed_at)

    def _post_card(self, run: _Run, notice: Notice, hold: Hold, card: Message) -> None:
        if notice.payload.get("event") != "requested" or not run.card_channel:
            self._done(run, notice, "-", "no card")  # nothing posted, nothing to redraw
            return
        old = self.delivery.card(run.venue.id, r) if (r := notice.payload.get("replaces")) else None
        to, thread = (old.channel, old.ts) if old else (run.card_channel, None)  # an edit's swap
        outcome = run.transport.send(to, card, notice=notice, thread=thread)
        if isinstance(outcome, Delivered):
            posted = CardSpot(outcome.channel, outcome.ref)
            self.delivery.card_posted(run.venue.id, hold.id, posted, now=self.now())
        self._record(run, notice, outcome)

    def _redraw(
        self,
        run: _Run,
        notice: Notice,
        spot: CardSpot,
        card: Message,
        line: Message | None,
        claimed_at: float,
    ) -> bool:
        outcome = run.transport.update(spot.channel, spot.ts, card, notice=notice)
        if isinstance(outcome, Permanent) and outcome.error in CARD_GONE:
            # Someone deleted the card: nothing to redraw from now on; this row holds up nothing.
            self.delivery.card_gone(run.venue.id, notice.hold_id or 0)
            self._done(run, notice, spot.channel, f"gone: {outcome.error}")
            return True
        if not isinstance(outcome, Delivered) or line is None or notice.id in spot.lines:
            self._record(run, notice, outcome)  # a redelivered row's line is there already
            return True
        if not self._lease_allows_post(run, claimed_at):
            return False  # put back: redrawing it again is harmless
        posted = run.transport.send(spot.channel, line, thread=spot.ts)
        if isinstance(posted, Delivered):
            self.delivery.card_line_posted(run.venue.id, notice.hold_id or 0, notice.id)
        self._record(run, notice, posted)
        return True

    def _draw_card(self, run: _Run, notice: Notice) -> tuple[Message, Message | None, Hold] | None:
        """The card and its thread line, or None after marking the row done or failed."""
        venue = run.venue
        if self.render_card is None or self.render_card_line is None:
            self._done(run, notice, "-", "no cards here")
            return None
        hold = self.delivery.hold(venue.id, notice.hold_id or 0)
        if isinstance(hold, Refused):
            self._fail(run, notice, f"hold {notice.hold_id} not found")
            return None
        locale = run.locale  # the channel's language, like its failure reports
        extend = hold.extensions_used < venue.policy.max_extensions
        rokuyo, now = venue.policy.show_rokuyo, self.now()
        try:
            card = self.render_card(
                hold, tz=venue.tz, locale=locale, extend=extend, rokuyo=rokuyo, now=now,
                capacities={r.id: r.capacity for r in venue.rooms.values() if r.capacity},
            )  # fmt: skip
            line = self.render_card_line(notice, tz=venue.tz, locale=locale, rokuyo=rokuyo, now=now)
        except ValueError as err:
            log.exception("card not rendered", extra=_noticefields(notice, "render_failed"))
            self._fail(run, notice, f"render failed: {err}")
            return None
        return card, line, hold

    def _done(self, run: _Run, notice: Notice, channel: str, ref: str) -> None:
        """Nothing (more) to send for this row: it is done, with why as its reference."""
        self.delivery.notice_sent(run.venue.id, notice.id, channel=channel, ref=ref, now=self.now())
        run.tally.sent += 1
        _log_notice(notice, "sent", ref=ref, attempts=notice.attempts)

    def _record(self, run: _Run, notice: Notice, outcome: DeliveryOutcome) -> None:
        venue_id, now = run.venue.id, self.now()
        if isinstance(outcome, Delivered):
            self.delivery.notice_sent(
                venue_id, notice.id, channel=outcome.channel, ref=outcome.ref, now=now
            )
            run.tally.sent += 1
            _log_notice(notice, "sent", ref=outcome.ref, attempts=notice.attempts)
        elif isinstance(outcome, RateLimited):
            pace = timedelta(seconds=outcome.retry_after)
            at = now + pace
            run.quiet_until[notice.recipient] = at + pace
            run.pace[notice.recipient] = pace
            self.delivery.notice_retry(venue_id, notice.id, error=outcome.error, available_at=at)
            run.tally.defer_until(at)
            _log_notice(notice, "rate_limited", retry_after=outcome.retry_after)
        elif isinstance(outcome, Transient) and notice.attempts < MAX_ATTEMPTS:
            at = now + timedelta(seconds=backoff(notice.attempts, self.backoff_base))
            self.delivery.notice_retry(venue_id, notice.id, error=outcome.error, available_at=at)
            run.tally.defer_until(at)
            _log_notice(notice, "retry", error=outcome.error, available_at=at.isoformat())
        else:
            error = outcome.error
            if isinstance(outcome, Transient):
                error = f"gave up after {notice.attempts} attempts: {error}"
            self._fail(run, notice, error)
            run.token_refused = isinstance(outcome, Permanent) and outcome.token_refused

    def _fail(self, run: _Run, notice: Notice, error: str) -> None:
        self.delivery.notice_failed(run.venue.id, notice.id, error=error)
        run.tally.failed += 1
        _log_notice(notice, "failed", level=logging.ERROR, error=error)

    def _render(self, run: _Run, notice: Notice) -> Message | None:
        """The DM in the recipient's language, or None after marking the row failed."""
        venue = run.venue
        locale = run.transport.locale(notice.recipient)
        try:
            return self.render(
                notice,
                tz=venue.tz,
                locale=locale,
                rokuyo=venue.policy.show_rokuyo,  # dates as the venue shows them
                now=self.now(),  # the time left to a deadline, when the DM is sent
            )
        except ValueError as err:
            # A payload this version cannot read: marked failed, visible and retryable,
            # instead of failing the whole drain again and again.
            log.exception("notice not rendered", extra=_noticefields(notice, "render_failed"))
            self.delivery.notice_failed(venue.id, notice.id, error=f"render failed: {err}")
            return None

    def _post_report(self, run: _Run, failed: list[Notice]) -> None:
        assert run.sales_channel is not None  # noqa: S101 - checked by report_failures
        venue = run.venue
        message = self.render_report(
            failed,
            tz=venue.tz,
            locale=run.locale,
            rokuyo=venue.policy.show_rokuyo,
            now=self.now(),
        )
        outcome = run.transport.send(run.sales_channel, message)
        if not isinstance(outcome, Delivered):
            raise ReportNotPosted(outcome.error)

    def _lease_allows_post(self, run: _Run, claimed_at: float) -> bool:
        """A send may take the transport's timeout; it must end before another worker may
        claim the row."""
        elapsed = time.monotonic() - claimed_at
        return elapsed + run.transport.timeout < self.lease.total_seconds()

    def _put_back(self, notices: list[Notice], run: _Run, at: datetime) -> None:
        for notice in notices:
            # Keep the row's last error: nothing was tried this time.
            error = notice.last_error or "not sent yet"
            self.delivery.notice_retry(run.venue.id, notice.id, error=error, available_at=at)
            run.tally.defer_until(at)


class ReportNotPosted(RuntimeError):
    """The sales channel could not be told; raised inside the report so nothing is marked."""


def backoff(attempts: int, base: float = BACKOFF_BASE) -> float:
    """Seconds before the next try after ``attempts`` tries: doubling, capped, jittered."""
    plain = min(BACKOFF_CAP, base * 2.0 ** max(0, attempts - 1))
    return plain * random.uniform(0.8, 1.2)


def _log_notice(notice: Notice, outcome: str, *, level: int = logging.INFO, **more: Any) -> None:
    log.log(level, f"notice {outcome}", extra=_noticefields(notice, outcome, **more))


def _noticefields(notice: Notice, outcome: str, **more: Any) -> dict[str, Any]:
    return fields(
        notice.venue_id,
        "notice.send",
        outcome,
        hold_id=notice.hold_id,
        notice_id=notice.id,
        kind=notice.kind,
        recipient=notice.recipient,
        **more,
    )
