"""What happens to holds, as data. Operations record these; ``core.journal`` writes them down.

An event says what happened and to which hold; the journal decides what that leaves behind
(an audit event, notices to whom), so the same change always leaves the same rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from core.model import Hold
from core.pings import WindowPing
from core.rules.pipeline import LastWeek

SYSTEM = "system"  # the actor of sweeps, and of promotions nobody clicked for


class Action(StrEnum):
    """An audit event's action, as stored in ``audit_events.action``."""

    REQUESTED = "requested"
    CONFIRMED = "confirmed"
    LOST = "lost"  # released because another hold was confirmed
    OTHER_DATE_CHOSEN = "other_date_chosen"  # released: its enquiry's other date was confirmed
    RELEASED = "released"
    EXTENDED = "extended"
    CANCELLED = "cancelled"
    PROMOTED = "promoted"
    EXPIRED = "expired"
    EDITED = "edited"  # rooms, times or people changed: in place, or replaced by a new hold
    NUDGED = "nudged"  # a waiting 2nd asked this 1st to answer: its deadline came nearer
    DEPOSIT_PAID = "deposit_paid"  # 入金確認: its booking's deposit recorded paid
    DEPOSIT_OVERDUE = "deposit_overdue"  # its booking's deposit is past due: told once
    # The venue itself changed (its rooms, sales channel, managers, language, workspace):
    # not a hold's event (hold_id None); its detail says what and from where.
    VENUE_SET = "venue_set"
    # The window ping (開放日に知らせる): not a hold's event either (hold_id None); its detail
    # names the ping, its date and rooms.
    PING_ASKED = "ping_asked"
    PING_DROPPED = "ping_dropped"
    PING_SENT = "ping_sent"  # the window opened: its asker told


@dataclass(frozen=True)
class AuditEvent:
    """One line of a hold's trail: who did what to it, when."""

    hold_id: int | None  # None until the new hold's insert fills it in
    actor: str
    action: Action
    at: datetime
    detail: Mapping[str, Any]


@dataclass(frozen=True)
class Requested:
    """A new hold was accepted (its own audit event goes in with its insert)."""

    actor: str
    rank: int
    expires_at: datetime | None
    items: tuple[tuple[str, int], ...] = ()  # (room, rank) of each item, in the order asked


@dataclass(frozen=True)
class Confirmed:
    hold: Hold  # as it was, a 1st hold
    actor: str
    released: tuple[int, ...]  # the tentative holds it took the slot from
    candidates: tuple[int, ...] = ()  # its enquiry's other candidate dates, released


@dataclass(frozen=True)
class Lost:
    """Released because ``winner`` was confirmed; its salesperson is told."""

    hold: Hold  # as it is now: released
    actor: str
    winner: Hold  # confirmed


@dataclass(frozen=True)
class OtherDateChosen:
    """Released because its enquiry's other candidate ``chosen`` was confirmed (the customer
    chose); its salesperson is told."""

    hold: Hold  # as it is now: released
    actor: str
    chosen: Hold  # confirmed


@dataclass(frozen=True)
class Released:
    hold: Hold  # as it was
    actor: str
    reason: str = "unspecified"  # a code of core.rules.reasons
    note: str = ""


@dataclass(frozen=True)
class Extended:
    """A 1st hold's deadline moved on; the holds waiting behind it are told."""

    hold: Hold  # as it was
    actor: str
    expires_at: datetime  # the new deadline
    extended: Hold  # as it is now
    behind: tuple[Hold, ...]


@dataclass(frozen=True)
class ActedFor:
    """Someone other than its salesperson (a manager, its creator) released, extended,
    confirmed or edited a hold: its salesperson is told who did what and why."""

    hold: Hold  # as it is now (after a swap: the new hold)
    actor: str
    action: str  # an Action value: released, extended, confirmed, edited
    reason: str = ""  # a release's reason code
    note: str = ""


@dataclass(frozen=True)
class Nudged:
    """A waiting hold's salesperson asked the 1st ahead to answer (回答の催促): the 1st's
    deadline is now at most the venue's ``nudge_days`` away; both salespeople are told."""

    hold: Hold  # the 1st, as it was
    actor: str  # who asked
    asker: Hold  # the waiting hold they asked for
    nudged: Hold  # the 1st as it is now: its new deadline, ``nudged_at`` set


@dataclass(frozen=True)
class Cancelled:
    hold: Hold  # as it was: confirmed
    actor: str
    reason: str = ""  # what the manager gave as the reason; the salesperson is told it


@dataclass(frozen=True)
class Announced:
    """A new hold whose surface posts no card itself (the CLI, App Home): the jobs post it
    in the sales channel (an edit's swap: in the thread of the card of the hold it replaces)."""

    hold: Hold
    actor: str
    replaces: int | None = None


@dataclass(frozen=True)
class Queued:
    """A new hold queued behind holds with a 1st item. Its transaction reads none of them
    (each read would be a predicate lock on the pages every request inserts into): it leaves
    one notice naming them, which delivery resolves, telling each that is still a 1st hold's
    salesperson once (``core.journal.told_queued``)."""

    hold: Hold  # the new, waiting hold
    ahead: tuple[int, ...]  # the ids of the holds ahead of it


@dataclass(frozen=True)
class Promoted:
    """Moved up to 1st; told, with buttons, unless its deadline is already due."""

    hold: Hold  # as it is now: 1st, with its deadline
    actor: str
    cause: str = ""  # why the way cleared: the Action of the hold(s) that left
    after: tuple[int, ...] = ()  # the holds that left that it waited behind


@dataclass(frozen=True)
class Expired:
    """A 1st hold's deadline came (the sweep's doing); its salesperson is told."""

    hold: Hold  # as it is now: expired


@dataclass(frozen=True)
class Edited:
    """A hold changed (docs/rules.md, Changing a hold): in place when ``kept_place``, else
    ``after`` is the new hold that replaced it (``before`` is then released)."""

    before: Hold  # as it was
    after: Hold  # as it is now
    actor: str
    kept_place: bool


@dataclass(frozen=True)
class ReminderDue:
    """Its deadline is near: one reminder per hold and deadline."""

    hold: Hold


@dataclass(frozen=True)
class NextActionDue:
    """The morning of a booking's next action (来館・打合せ): one DM per booking and date, about
    its earliest live candidate date."""

    hold: Hold


@dataclass(frozen=True)
class DepositPaid:
    """入金確認: the salesperson or a manager recorded the booking's deposit paid."""

    hold: Hold  # as it was
    actor: str
    paid: Hold  # as it is now: ``deposit.paid_at``, ``paid_by`` and ``amount`` set


@dataclass(frozen=True)
class DepositReminderDue:
    """Its booking's deposit falls due within ``REMIND_DAYS``: one reminder per booking."""

    hold: Hold


@dataclass(frozen=True)
class DepositOverdue:
    """Its booking's deposit is past due and unpaid: its salesperson is told once."""

    hold: Hold


@dataclass(frozen=True)
class DigestDue:
    """A salesperson's week of deadlines, once per ISO week."""

    salesperson: str
    holds: tuple[Hold, ...]
    week: str  # "2027-W10"
    start: datetime
    until: datetime
    # the bookings whose next action falls in the week or is overdue (their earliest live hold)
    follow_ups: tuple[Hold, ...] = ()


@dataclass(frozen=True)
class ManagerDigestDue:
    """A manager's week of the whole venue: every 1st hold due in it and every 2nd queue,
    once per manager and ISO week."""

    manager: str
    holds: tuple[Hold, ...]  # 1st holds with a deadline in [start, until), soonest first
    waiting: tuple[tuple[Hold, tuple[Hold, ...]], ...]  # each waiting hold, the holds ahead
    week: str
    start: datetime
    until: datetime
    overdue: tuple[Hold, ...] = ()  # 予約金 past due and unpaid (core.operations.deposits)
    last_week: LastWeek | None = None  # what happened the week before (core.rules.pipeline)


@dataclass(frozen=True)
class PingAsked:
    """Someone asked to be told when a date's banquet window opens."""

    ping: WindowPing


@dataclass(frozen=True)
class PingDropped:
    """A waiting ping dropped by its asker or a manager."""

    ping: WindowPing
    actor: str


@dataclass(frozen=True)
class WindowOpened:
    """The date's banquet window opened: the ping's asker is told, once, with the rooms'
    and the kind's names as the venue has them then."""

    ping: WindowPing
    room_names: tuple[tuple[str, str], ...] = ()  # (room id, name) of each room asked
    kind_name: str = ""


Event = (
    Requested
    | Confirmed
    | Lost
    | OtherDateChosen
    | Released
    | Extended
    | Nudged
    | Cancelled
    | ActedFor
    | Announced
    | Queued
    | Promoted
    | Expired
    | Edited
    | ReminderDue
    | NextActionDue
    | DepositPaid
    | DepositReminderDue
    | DepositOverdue
    | DigestDue
    | ManagerDigestDue
    | PingAsked
    | PingDropped
    | WindowOpened
)
