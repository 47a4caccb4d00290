"""Deposits (予約金): when a confirmed booking's deposit is due, and whether it is paid.

Pure rules (docs/rules.md, Deposits). A booking's deposit lives on its enquiry, so an edit
or a swap of a confirmed hold (a new hold, the same enquiry) keeps it; the store reads it
onto the booking's confirmed hold (and onto a cancelled one, paid facts only: no longer due).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

REMIND_DAYS = 3  # the salesperson is reminded this many days before the due date
MAX_AMOUNT = 100_000_000  # yen: no deposit is larger; a larger number is a typo
# The venue-local hour from which the day's reminders and past-due notices go out.
DEPOSIT_HOUR = 9


@dataclass(frozen=True)
class Deposit:
    """A booking's deposit: due by ``due`` (venue-local date; None: none due), paid when
    ``paid_at`` is set (by whom, how much in yen when said)."""

    due: date | None = None
    paid_at: datetime | None = None
    paid_by: str = ""
    amount: int | None = None

    @property
    def paid(self) -> bool:
        return self.paid_at is not None

    @property
    def waiting(self) -> bool:
        """Due and not yet paid: 入金待ち."""
        return self.due is not None and self.paid_at is None

    def past_due(self, today: date) -> bool:
        return self.waiting and self.due is not None and today > self.due


def due_date(confirmed_on: date, event_day: date, days: int | None) -> date | None:
    """The venue-local date of confirmation + ``deposit_days``, never after the event's own
    day (a booking confirmed a few days before its event owes the deposit by the event day);
    None when the venue sets no ``deposit_days``."""
    if days is None:
        return None
    return min(confirmed_on + timedelta(days=days), max(event_day, confirmed_on))


def remind_from(due: date) -> date:
    """The first venue-local day the salesperson's reminder may go out."""
    return due - timedelta(days=REMIND_DAYS)


def amount_problem(amount: int | None) -> str | None:
    """Why a stated amount cannot be recorded (None: it can): whole yen, 1 to 100,000,000."""
    if amount is None or 1 <= amount <= MAX_AMOUNT:
        return None
    return f"1..{MAX_AMOUNT}"
