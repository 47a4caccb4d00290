"""The manager's pipeline (docs/rules.md, The pipeline report): what became of each booking
(an enquiry and every hold it has had), counted by booking, never by hold, so neither a
second candidate date nor an edit's swap counts twice. Pure arithmetic over rows read once.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from core.model import Outcome, Status
from core.rules.reasons import NOT_A_LOSS, REASONS, UNSPECIFIED

TAKEN = "taken"  # a loss with no release: another booking was confirmed on its slot
# The reasons a lost booking is counted under, in the order the report lists them.
LOSS_REASONS = (*(r for r in REASONS if r not in NOT_A_LOSS), TAKEN, UNSPECIFIED)
DAY_SECONDS = 86400


@dataclass(frozen=True)
class HoldRow:
    """What the report needs of one hold: when it was asked, how it stands or left, and when
    it was confirmed (the audit's ``confirmed``; None if never)."""

    id: int
    local_date: date
    status: Status
    rank: int | None
    outcome: Outcome | None
    reason: str | None
    created_at: datetime
    updated_at: datetime  # a hold that left never changes again: when it left
    confirmed_at: datetime | None = None
    house: bool = False  # 社内押さえ: the venue's own use (docs/rules.md, House holds)

    @property
    def left(self) -> bool:
        return self.status in (Status.RELEASED, Status.EXPIRED)


@dataclass(frozen=True)
class BookingRow:
    """One booking (enquiry) with every hold it has had, in arrival order."""

    id: int
    asked_at: datetime  # when it was first asked (its enquiry's creation)
    kind: str  # the venue's kind id
    salesperson: str
    source: str  # "" when none was given
    guests: int | None
    estimate: int | None
    holds: tuple[HoldRow, ...]
    # the venue's reasons that are no loss (its [[reasons]] with loss = false)
    no_loss: frozenset[str] = NOT_A_LOSS

    @property
    def house(self) -> bool:
        """A booking of house holds (社内押さえ): see ``counted``."""
        return any(h.house for h in self.holds)


class Fate(StrEnum):
    """Where a booking stands: one of these, whatever number of holds it had."""

    CONFIRMED = "confirmed"
    OPEN = "open"  # a candidate date is still tentative
    CANCELLED = "cancelled"  # confirmed, then called off
    LOST = "lost"
    EXPIRED = "expired"
    ENTRY_ERROR = "entry_error"  # its last hold was released as an entry error: not a booking


@dataclass(frozen=True)
class Decided:
    """A booking's fate, the hold that stands for it (its event date), the reason it was
    lost (lost ones), and when it was decided (None while open)."""

    fate: Fate
    hold: HoldRow
    reason: str | None = None
    at: datetime | None = None


def counted(booking: BookingRow) -> bool:
    """Whether the pipeline counts a booking at all. House holds (社内押さえ, the venue's own
    use) are counted apart from sales: THIS is the one place they are left out."""
    return not booking.house


def decide(booking: BookingRow) -> Decided:
    """Confirmed (its confirmed date), else open (its best live candidate: lowest rank, then
    earliest date), else cancelled, else what became of the hold that left last."""
    holds = booking.holds
    confirmed = [h for h in holds if h.status is Status.CONFIRMED]
    if confirmed:
        hold = confirmed[-1]
        return Decided(Fate.CONFIRMED, hold, at=hold.confirmed_at or hold.updated_at)
    live = [h for h in holds if h.status is Status.TENTATIVE]
    if live:
        return Decided(Fate.OPEN, min(live, key=lambda h: (h.rank or 99, h.local_date, h.id)))
    cancelled = [h for h in holds if h.status is Status.CANCELLED]
    if cancelled:
        hold = cancelled[-1]
        return Decided(Fate.CANCELLED, hold, at=hold.confirmed_at or hold.updated_at)
    last = max(holds, key=lambda h: (h.updated_at, h.id))
    return _left(last, booking.no_loss)


def _left(hold: HoldRow, no_loss: frozenset[str]) -> Decided:
    if hold.status is Status.EXPIRED:
        return Decided(Fate.EXPIRED, hold, at=hold.updated_at)
    if hold.outcome is Outcome.WITHDRAWN:
        reason = hold.reason or UNSPECIFIED
        if reason in no_loss:
            return Decided(Fate.ENTRY_ERROR, hold, at=hold.updated_at)
        return Decided(Fate.LOST, hold, reason=reason, at=hold.updated_at)
    # lost to another's confirmation (an other date chosen or a swap cannot leave last)
    return Decided(Fate.LOST, hold, reason=TAKEN, at=hold.updated_at)


@dataclass(frozen=True)
class Figures:
    """One set of bookings counted (docs/rules.md, The pipeline report)."""

    enquiries: int = 0
    holds: int = 0
    confirmed: int = 0
    cancelled: int = 0
    open: int = 0
    lost: int = 0
    lost_by_reason: Mapping[str, int] = field(default_factory=dict)
    expired: int = 0
    other_date_chosen: int = 0
    entry_errors: int = 0
    median_days_to_decision: float | None = None

    @property
    def decided(self) -> int:
        return self.confirmed + self.cancelled + self.lost + self.expired

    @property
    def conversion(self) -> float | None:
        """Confirmed / decided, None when nothing was decided."""
        return round(self.confirmed / self.decided, 4) if self.decided else None


def figures(bookings: Iterable[BookingRow]) -> Figures:
    """The figures of a set of bookings, each counted once by its fate."""
    fates: dict[Fate, int] = dict.fromkeys(Fate, 0)
    reasons: dict[str, int] = {}
    holds = other_dates = 0
    days: list[float] = []
    for booking in bookings:
        decided = decide(booking)
        fates[decided.fate] += 1
        if decided.fate is Fate.ENTRY_ERROR:
            continue
        holds += sum(1 for h in booking.holds if h.outcome is not Outcome.REPLACED)
        if any(h.outcome is Outcome.OTHER_DATE_CHOSEN for h in booking.holds):
            other_dates += 1
        if decided.reason is not None:
            reasons[decided.reason] = reasons.get(decided.reason, 0) + 1
        if decided.at is not None:
            first = min(h.created_at for h in booking.holds)
            days.append((decided.at - first).total_seconds() / DAY_SECONDS)
    return Figures(
        enquiries=sum(n for fate, n in fates.items() if fate is not Fate.ENTRY_ERROR),
        holds=holds,
        confirmed=fates[Fate.CONFIRMED],
        cancelled=fates[Fate.CANCELLED],
        open=fates[Fate.OPEN],
        lost=fates[Fate.LOST],
        lost_by_reason={r: reasons[r] for r in reason_order(reasons)},
        expired=fates[Fate.EXPIRED],
        other_date_chosen=other_dates,
        entry_errors=fates[Fate.ENTRY_ERROR],
        median_days_to_decision=round(statistics.median(days), 1) if days else None,
    )


def reason_order(reasons: Mapping[str, int]) -> list[str]:
    """The reasons given, in the order the report lists them (JSONB keeps no order)."""
    known = [r for r in LOSS_REASONS if r in reasons]
    return known + sorted(r for r in reasons if r not in LOSS_REASONS)


def month_key(day: date | datetime) -> tuple[int, int]:
    return day.year, day.month


def months_from(year: int, month: int, count: int) -> list[tuple[int, int]]:
    """``count`` months from (year, month) on."""
    index = year * 12 + month - 1
    return [((index + n) // 12, (index + n) % 12 + 1) for n in range(count)]


@dataclass(frozen=True)
class Split:
    """The figures of one salesperson, kind or source, by event and by enquiry month."""

    key: str
    by_event_month: Figures
    by_enquiry_month: Figures


@dataclass(frozen=True)
class Outlook:
    """Bookings, guests and estimate (yen) of one event month's confirmed or 1st bookings;
    guests and estimate add those given (``without_estimate``: how many gave none)."""

    bookings: int = 0
    guests: int = 0
    estimate: int = 0
    without_estimate: int = 0


@dataclass(frozen=True)
class Forecast:
    month: tuple[int, int]
    confirmed: Outlook
    first: Outlook


@dataclass(frozen=True)
class Report:
    """The pipeline of one venue-local month (``ahead``: the forecast's further months)."""

    month: tuple[int, int]
    by_event_month: Figures
    by_enquiry_month: Figures
    by_salesperson: tuple[Split, ...]
    by_kind: tuple[Split, ...]
    by_source: tuple[Split, ...]
    forecast: tuple[Forecast, ...]


def in_event_month(bookings: Iterable[BookingRow], month: tuple[int, int]) -> list[BookingRow]:
    """Bookings whose event date (the date of the hold that stands for it) is in ``month``."""
    return [b for b in bookings if month_key(decide(b).hold.local_date) == month]


def report(
    bookings: Iterable[BookingRow],
    month: tuple[int, int],
    asked_month: Callable[[datetime], tuple[int, int]],
    ahead: int = 3,
) -> Report:
    """``asked_month``: a booking's first-asked instant as its venue-local month."""
    mine = [b for b in bookings if counted(b)]
    event = in_event_month(mine, month)
    asked = [b for b in mine if asked_month(b.asked_at) == month]
    return Report(
        month=month,
        by_event_month=figures(event),
        by_enquiry_month=figures(asked),
        by_salesperson=_split(event, asked, lambda b: b.salesperson),
        by_kind=_split(event, asked, lambda b: b.kind),
        by_source=_split(event, asked, lambda b: b.source),
        forecast=tuple(forecast(mine, m) for m in months_from(*month, ahead + 1)),
    )


def _split(
    event: list[BookingRow], asked: list[BookingRow], key: Callable[[BookingRow], str]
) -> tuple[Split, ...]:
    keys = sorted({key(b) for b in (*event, *asked)})
    return tuple(
        Split(
            k,
            figures(b for b in event if key(b) == k),
            figures(b for b in asked if key(b) == k),
        )
        for k in keys
    )


def forecast(bookings: Iterable[BookingRow], month: tuple[int, int]) -> Forecast:
    """Confirmed bookings and bookings standing on a live 1st hold, of one event month."""
    confirmed: list[BookingRow] = []
    first: list[BookingRow] = []
    for booking in bookings:
        decided = decide(booking)
        if month_key(decided.hold.local_date) != month:
            continue
        if decided.fate is Fate.CONFIRMED:
            confirmed.append(booking)
        elif decided.fate is Fate.OPEN and decided.hold.rank == 1:
            first.append(booking)
    return Forecast(month, _outlook(confirmed), _outlook(first))


def _outlook(bookings: list[BookingRow]) -> Outlook:
    return Outlook(
        bookings=len(bookings),
        guests=sum(b.guests or 0 for b in bookings),
        estimate=sum(b.estimate or 0 for b in bookings),
        without_estimate=sum(1 for b in bookings if b.estimate is None),
    )


@dataclass(frozen=True)
class MonthLine:
    """One event month at a glance (the managers' App Home and the chart): its bookings'
    figures and its forecast."""

    month: tuple[int, int]
    figures: Figures
    forecast: Forecast


def months_ahead(
    bookings: Iterable[BookingRow], month: tuple[int, int], count: int = 4
) -> tuple[MonthLine, ...]:
    """``month`` and the months after it, ``count`` in all, by event month (the bookings a
    read of those months' dates brings: see ``core.operations.pipeline``)."""
    mine = [b for b in bookings if counted(b)]
    return tuple(
        MonthLine(m, figures(in_event_month(mine, m)), forecast(mine, m))
        for m in months_from(*month, count)
    )


def top_reasons(figures: Figures, count: int = 2) -> list[tuple[str, int]]:
    """The reasons most bookings were lost to, most first (the report's order on a tie)."""
    ranked = sorted(figures.lost_by_reason.items(), key=lambda pair: -pair[1])
    return ranked[:count]


@dataclass(frozen=True)
class WeekNumbers:
    """What happened in a week (the managers' Monday digest): bookings first asked, bookings
    confirmed (still confirmed), lost by reason and expired, each by when it happened."""

    enquiries: int = 0
    confirmed: int = 0
    lost_by_reason: Mapping[str, int] = field(default_factory=dict)
    expired: int = 0

    @property
    def lost(self) -> int:
        return sum(self.lost_by_reason.values())

    @property
    def any(self) -> bool:
        return bool(self.enquiries or self.confirmed or self.lost or self.expired)


def week_numbers(bookings: Iterable[BookingRow], start: datetime, until: datetime) -> WeekNumbers:
    """Of ``bookings``, those asked in ``[start, until)`` and those whose fate was sealed then
    (confirmed, lost, expired: see ``decide``); entry errors and house holds count nowhere."""
    asked = confirmed = expired = 0
    reasons: dict[str, int] = {}
    for booking in bookings:
        decided = decide(booking)
        if not counted(booking) or decided.fate is Fate.ENTRY_ERROR:
            continue
        asked += start <= booking.asked_at < until
        if decided.at is None or not start <= decided.at < until:
            continue
        confirmed += decided.fate is Fate.CONFIRMED
        expired += decided.fate is Fate.EXPIRED
        if decided.reason is not None:
            reasons[decided.reason] = reasons.get(decided.reason, 0) + 1
    ordered = {r: reasons[r] for r in reason_order(reasons)}
    return WeekNumbers(asked, confirmed, ordered, expired)


@dataclass(frozen=True)
class LastWeek:
    start: datetime
    until: datetime
    numbers: WeekNumbers


def last_week_json(found: LastWeek | None) -> dict[str, Any] | None:
    """As the managers' digest row carries it (``bot.pipeline_notices`` reads it)."""
    if found is None:
        return None
    n = found.numbers
    return {
        "from": found.start.isoformat(),
        "until": found.until.isoformat(),
        "enquiries": n.enquiries,
        "confirmed": n.confirmed,
        "lost": n.lost,
        "lost_by_reason": dict(n.lost_by_reason),
        "expired": n.expired,
    }
