"""What operations answer: typed outcomes, and refusals as data (a code and its facts)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import ClassVar, NamedTuple

from core.model import Enquiry, EventKind, Hold, Room
from core.rules.rokuyo import Rokuyo


class Code(StrEnum):
    """Why something was refused. The bot and CLI turn these into sentences."""

    # bad input: nothing is written
    UNKNOWN_VENUE = "unknown_venue"
    UNKNOWN_ROOM = "unknown_room"
    UNKNOWN_KIND = "unknown_kind"
    BAD_TIMES = "bad_times"
    OVERNIGHT_TOO_LONG = "overnight_too_long"  # past midnight, longer than max_event_hours
    TOO_LONG = "too_long"
    IN_PAST = "in_past"
    BEYOND_HORIZON = "beyond_horizon"
    BAD_CUSTOMER = "bad_customer"
    BAD_NOTE = "bad_note"
    BAD_SALESPERSON = "bad_salesperson"
    BAD_GUESTS = "bad_guests"  # not a whole number from 1 (a hold: to 100,000; a search too)
    BAD_CONTACT = "bad_contact"  # too long
    # a booking's details (core/rules/details.py)
    BAD_ESTIMATE = "bad_estimate"  # not whole yen from 0
    BAD_PLAN = "bad_plan"  # too long
    BAD_ACTION_NOTE = "bad_action_note"  # too long
    UNKNOWN_SOURCE = "unknown_source"  # not one of the venue's source codes
    HOLD_NOT_FOUND = "hold_not_found"
    NOT_AUTHORIZED = "not_authorized"
    IDEMPOTENCY_MISMATCH = "idempotency_mismatch"
    TOO_MANY_ITEMS = "too_many_items"  # more rooms than the venue's max_items
    ITEMS_OVERLAP = "items_overlap"  # two rooms of one hold conflict with each other
    ENQUIRY_NOT_FOUND = "enquiry_not_found"
    ENQUIRY_MISMATCH = "enquiry_mismatch"  # a candidate's customer / kind / salesperson differ
    # a search's input
    BAD_RANGE = "bad_range"  # --from after --to
    RANGE_TOO_LONG = "range_too_long"  # more than 366 dates
    UNKNOWN_SLOT = "unknown_slot"  # a slot name the venue file does not have
    BAD_DAYS = "bad_days"  # a kind of day that is not weekends, holidays, priority, ...
    # the ledger says no
    CONFIRMED_CONFLICT = "confirmed_conflict"  # 本予約あり
    RANK_TOO_LOW = "rank_too_low"  # N番手になるため受けない
    BANQUET_NOT_OPEN = "banquet_not_open"
    NOT_FIRST = "not_first"
    DEADLINE_PASSED = "deadline_passed"
    ALREADY_DECIDED = "already_decided"
    NOT_CONFIRMED = "not_confirmed"
    EXTENSION_LIMIT = "extension_limit"
    EXTENSION_PAST_START = "extension_past_start"
    NUDGE_OFF = "nudge_off"  # the venue's nudge_days is 0
    ALREADY_NUDGED = "already_nudged"  # a 1st is asked to answer once
    NOT_WAITING = "not_waiting"  # the actor has no hold waiting behind this 1st
    TOO_MANY_CANDIDATES = "too_many_candidates"  # the enquiry has max_candidates live holds
    ENQUIRY_CONFIRMED = "enquiry_confirmed"  # the customer chose: no more candidate dates
    # the window ping (開放日に知らせる): asked only while a banquet's window is not open yet
    WINDOW_OPEN = "window_open"  # open already (or a wedding, taken any day): hold it now
    NOT_PRIORITY_DAY = "not_priority_day"  # no window on that date: banquets are taken now
    PING_NOT_FOUND = "ping_not_found"  # no such ping waiting (told already, or dropped)
    # edits (docs/rules.md, Changing a hold)
    STALE_VERSION = "stale_version"  # the hold changed since the form was opened
    NO_CHANGE = "no_change"  # the edit gives nothing that differs from the hold
    ITEM_NOT_FOUND = "item_not_found"  # no item of the hold in that room / which one is meant
    ROOMS_OF_CONFIRMED = "rooms_of_confirmed"  # a confirmed booking's rooms added or removed
    EDIT_BLOCKED = "edit_blocked"  # a confirmed hold's new items meet another live hold
    UNKNOWN_REASON = "unknown_reason"  # a release's reason that is not a code of the list
    WOULD_LOSE_FIRST = "would_lose_first"  # a swap would make a 1st hold wait (not asked for)
    # deposits (予約金, docs/rules.md, Deposits)
    NO_DEPOSIT_DUE = "no_deposit_due"  # not a confirmed booking with a deposit due
    DEPOSIT_ALREADY_PAID = "deposit_already_paid"  # recorded once: when and by whom
    BAD_DEPOSIT_AMOUNT = "bad_deposit_amount"  # whole yen, 1 to 100,000,000
    # house holds (社内押さえ; docs/rules.md, House holds)
    NOT_A_MANAGER = "not_a_manager"  # a house hold is requested and released by managers only
    HOUSE_NOT_FIRST = "house_not_first"  # a house hold never waits: something live is in its way
    HOUSE_HOLD = "house_hold"  # confirm, extend and nudge do not apply to a house hold
    # the database stayed contended through every retry
    BUSY = "busy"


@dataclass(frozen=True)
class InWay:
    """A live hold in a request's way, as a refusal or an answer names it: its rank,
    salesperson and deadline are the hold's."""

    hold: Hold
    turnover_min: int | None = None  # only the turnover (転換) puts it in the way: its minutes


@dataclass(frozen=True)
class Refused:
    """A refusal and its facts; which fields are set depends on ``code``."""

    code: Code
    field: str | None = None  # the request field at fault (the modal marks it)
    holders: tuple[Hold, ...] = ()  # the confirmed or 1st holds in the way
    rank: int | None = None  # the rank it would have had
    opens_at: datetime | None = None  # when banquet bookings open for that date
    limit: int | None = None  # the bound crossed: max rank, horizon days, extensions, length
    hold: Hold | None = None  # the hold acted on, as it stands now
    detail: str = ""  # the offending value, quoted back to the user
    room: str | None = None  # the room id of the item at fault (a request's rooms)
    room_name: str = ""  # its name when the request has several rooms (the message names it)
    alternatives: tuple[Found, ...] = ()  # taken: requests that would be accepted instead
    kinds: tuple[EventKind, ...] = ()  # unknown kind: the venue's; banquet window: the asked
    # Every live hold in the way (confirmed conflict, rank too low): 1st and 2nd, with turnover
    in_way: tuple[InWay, ...] = ()
    # Bad times: the local times a clock change skips that day ("2027-03-14 02:00–03:00")
    gap: str = ""
    choices: tuple[str, ...] = ()  # unknown source: the venue's codes
    ok: ClassVar[bool] = False


class WarningCode(StrEnum):
    SAME_CUSTOMER = "same_customer"  # the customer holds under another enquiry too
    OVER_CAPACITY = "over_capacity"  # more guests than a room of it seats


@dataclass(frozen=True)
class RequestWarning:
    """Something the salesperson should know before submitting; never a refusal."""

    code: WarningCode
    customer: str
    holds: tuple[Hold, ...]  # the live holds of other enquiries it is about
    # over_capacity: the room, what it seats and the guests asked (core/rules/capacity.py)
    room: str = ""
    room_name: str = ""
    capacity: int | None = None
    guests: int | None = None


@dataclass(frozen=True)
class Preview:
    """What submitting a request would do now (nothing written)."""

    rank: int
    expires_at: datetime | None
    ahead: tuple[Hold, ...]  # the holds it would wait behind
    item_ranks: tuple[int, ...] = ()  # each room's place, in the order asked
    warnings: tuple[RequestWarning, ...] = ()
    in_way: tuple[InWay, ...] = ()  # every earlier live hold in its way, 2nd holds too
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class RequestAnswer:
    hold: Hold
    rank: int  # as first answered (a replay returns the first answer)
    expires_at: datetime | None
    ahead: tuple[Hold, ...]
    replayed: bool = False
    warnings: tuple[RequestWarning, ...] = ()
    item_ranks: tuple[int, ...] = ()  # each item's rank as first answered, in item order
    ahead_ids: tuple[int, ...] = ()  # ``ahead`` by id, as decided (they are read afterwards)
    in_way: tuple[InWay, ...] = ()  # every earlier live hold in its way, 2nd holds too
    in_way_ids: tuple[int, ...] = ()  # ``in_way`` by id, as decided (read afterwards)
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class ConfirmAnswer:
    hold: Hold
    released: tuple[Hold, ...]  # every hold released: those in the way, other candidates
    promoted: tuple[Hold, ...]
    candidates: tuple[Hold, ...] = ()  # of ``released``, the enquiry's other candidate dates
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class ConfirmPlan:
    """Dry run of confirm: who would lose the slot and who would move up."""

    hold: Hold
    would_release: tuple[Hold, ...]
    would_promote: tuple[Hold, ...]
    candidates: tuple[Hold, ...] = ()  # of ``would_release``, the other candidate dates
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class ReleaseAnswer:
    hold: Hold
    promoted: tuple[Hold, ...]
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class ExtendAnswer:
    hold: Hold
    notified: tuple[Hold, ...]  # the next in line, told of the new deadline
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class NudgeAnswer:
    hold: Hold  # the 1st, with its new deadline
    asker: Hold  # the waiting hold asked for
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class DepositAnswer:
    hold: Hold  # its booking's deposit recorded paid
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class CancelAnswer:
    hold: Hold
    promoted: tuple[Hold, ...]
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class Swept:
    expired: tuple[int, ...]
    promoted: tuple[int, ...]
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class Waiting:
    hold: Hold
    ahead: tuple[Hold, ...]  # the 1st holds it waits behind


@dataclass(frozen=True)
class Overview:
    """One salesperson's holds, as App Home shows them."""

    firsts: tuple[Hold, ...]
    waiting: tuple[Waiting, ...]
    recent: tuple[Hold, ...]
    deposits: tuple[Hold, ...] = ()  # 予約金: their confirmed bookings' deposits due, unpaid


@dataclass(frozen=True)
class EnquiryView:
    """An enquiry and its holds (candidate dates), live and decided, in arrival order."""

    enquiry: Enquiry
    holds: tuple[Hold, ...]
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class EditAnswer:
    """An edit done: ``hold`` as it is now (a new hold when it was a swap), ``before`` as it
    was, and who lost (``released``: the old hold of a swap) or moved up (``promoted``)."""

    hold: Hold
    before: Hold
    kept_place: bool
    released: tuple[Hold, ...]
    promoted: tuple[Hold, ...]
    ahead: tuple[Hold, ...] = ()  # the holds it now waits behind (a swap that is not 1st)
    ok: ClassVar[bool] = True


@dataclass(frozen=True)
class EditPlan:
    """What an edit would do now (nothing written): keep the place, or be a new arrival of
    ``rank`` behind ``ahead`` (the tentative holds in its way once the old one is gone)."""

    hold: Hold  # as it stands
    kept_place: bool
    rank: int | None  # None for a confirmed hold
    expires_at: datetime | None
    ahead: tuple[Hold, ...]
    item_ranks: tuple[int, ...] = ()
    promoted: tuple[int, ...] = ()  # the holds that would become 1st
    ok: ClassVar[bool] = True

    @property
    def would(self) -> str:
        """``keep`` (its place, in place) or ``swap`` (a new arrival of the same booking)."""
        return "keep" if self.kept_place else "swap"

    @property
    def loses_first(self) -> bool:
        """A swap that would make a 1st hold wait."""
        return not self.kept_place and self.hold.rank == 1 and (self.rank or 1) > 1


# -- finding a slot (core.rules.search) --------------------------------------------------------
class Chance(StrEnum):
    FIRST = "first"  # a request now would be 1st
    SECOND = "second"  # it would wait (2nd, or later up to max_rank)
    TAKEN = "taken"  # refused: a confirmed hold in the way, or the line is full
    NOT_OPEN = "not_open"  # a banquet on a priority day before its window opens


class Place(NamedTuple):
    """One date, time and room a search or an alternative looks at (a tuple: a search makes
    thousands, and a frozen dataclass costs several times more to build)."""

    day: date
    slot: str | None  # the slot's name; None for times given or the whole day
    start_min: int
    end_min: int
    room: Room


class Found(NamedTuple):
    """What a request for a place would get now (a tuple, as ``Place``)."""

    place: Place
    rokuyo: Rokuyo
    start: datetime
    end: datetime
    outcome: Chance
    rank: int | None  # the rank a request would take (first, second)
    ahead: tuple[int, ...]  # the holds in the way: blocking ones ahead, or the confirmed
    until: datetime | None  # second/taken: when every 1st hold ahead is due; not_open: opens

    @property
    def fits(self) -> bool:
        """A request here would be accepted (1st or waiting)."""
        return self.outcome in (Chance.FIRST, Chance.SECOND)


@dataclass(frozen=True)
class Availability:
    """A search's answer: what a request would get at each place it looked at, by date, then
    time, then smallest fitting room (places no request could be made for now left out)."""

    found: tuple[Found, ...]
    looked: int  # places looked at, bookable now or not
    ok: ClassVar[bool] = True
