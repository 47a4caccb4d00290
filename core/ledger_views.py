"""What managers read of the team's ledger (docs/rules.md, The team's ledger): a day's rooms
and holds, the team's deadlines and 2nd queues, and a month's outcomes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime

from core.model import Hold, HoldItem, Room
from core.results import Waiting
from core.rules.reasons import NOT_A_LOSS, losses


@dataclass(frozen=True)
class Booking:
    """One item of a live hold on a room's day. ``shared``: the item is on another room that
    shares a part with this one (鳳凰A inside 鳳凰の間), so it takes this room too."""

    hold: Hold
    item: HoldItem
    shared: bool

    @property
    def turnover_min(self) -> int:
        """The turnover (転換) after the event, as the room had it when the hold was made."""
        return int((self.item.span_end - self.item.end_at).total_seconds() // 60)


@dataclass(frozen=True)
class RoomDay:
    room: Room
    bookings: tuple[Booking, ...]  # in time order, then arrival order


@dataclass(frozen=True)
class DayLedger:
    """A venue-local day: each room (venue-file order) with the live holds that take it."""

    day: date
    rooms: tuple[RoomDay, ...]
    ok = True


@dataclass(frozen=True)
class MonthCounts:
    """Outcomes that happened in one venue-local month (from the audit trail)."""

    month: str  # "2027-03"
    start: datetime
    until: datetime
    confirmed: int
    expired: int
    released: int  # withdrawn by its salesperson
    lost: int  # released by another's confirmation, or the customer chose another date
    cancelled: int
    # Why holds left (issue 25): releases by reason code, the holds an edit's swap replaced,
    # and those the customer's other candidate date took (inside ``lost`` above).
    by_reason: Mapping[str, int] = field(default_factory=dict)
    replaced: int = 0
    other_date_chosen: int = 0
    # House holds (社内押さえ), counted apart from everything above: made and released.
    house_held: int = 0
    house_released: int = 0
    no_loss: frozenset[str] = NOT_A_LOSS  # the venue's reasons that are no loss ([[reasons]])

    @property
    def losses(self) -> int:
        """Bookings lost: expired, lost to another's confirmation, released for any reason
        but an entry error (other date chosen and replaced by an edit are not losses)."""
        lost = self.lost - self.other_date_chosen
        return losses(self.expired, lost, self.by_reason, self.no_loss)

    def by_outcome(self) -> dict[str, int]:
        """Every hold that left, counted once, by its outcome."""
        return {
            "withdrawn": self.released,
            "expired": self.expired,
            "lost": self.lost - self.other_date_chosen,
            "other_date_chosen": self.other_date_chosen,
            "replaced": self.replaced,
            "cancelled": self.cancelled,
        }

    def outcomes(self) -> dict[str, int]:
        """The five counts by name, as every view of the month shows them."""
        return {
            "confirmed": self.confirmed,
            "expired": self.expired,
            "released": self.released,
            "lost": self.lost,
            "cancelled": self.cancelled,
        }


@dataclass(frozen=True)
class TeamHome:
    """A manager's App Home: the whole team's deadlines, 2nd queues and this month's counts."""

    today: tuple[Hold, ...]  # 1st holds whose deadline falls today (venue-local), soonest first
    week: tuple[Hold, ...]  # then those within the following days of the coming week
    queues: tuple[Waiting, ...]  # every waiting hold from today on, with the holds ahead of it
    month: MonthCounts
    overdue: tuple[Hold, ...] = ()  # 予約金 past due and unpaid, soonest due first
