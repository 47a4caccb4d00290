"""The hold engine's vocabulary: venues, rooms, holds, policy (docs/rules.md, Vocabulary)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from enum import StrEnum
from types import MappingProxyType
from zoneinfo import ZoneInfo

from core.deposits import Deposit
from core.rules.reasons import DEFAULT_REASONS, Reason


class Kind(StrEnum):
    """The class of an event kind: what the priority-day rule and the deadline policy use.

    A venue names its kinds (婚礼, 一般宴会, 二次会, 忘年会, ...: ``EventKind``); each is of one
    of these classes. The two default kinds have these ids.
    """

    WEDDING = "wedding"  # 婚礼
    BANQUET = "banquet"  # 一般宴会


class Status(StrEnum):
    TENTATIVE = "tentative"  # 仮
    CONFIRMED = "confirmed"  # 本予約
    RELEASED = "released"  # 取り下げ / lost to another's confirmation
    EXPIRED = "expired"  # 期限切れ
    CANCELLED = "cancelled"  # 本予約の取消


LIVE = frozenset({Status.TENTATIVE, Status.CONFIRMED})


class Outcome(StrEnum):
    """Why a hold was released: the notices and the ledger name these differently."""

    WITHDRAWN = "withdrawn"  # its salesperson (or a manager) released it: the customer declined
    LOST = "lost"  # another hold in its way was confirmed
    OTHER_DATE_CHOSEN = "other_date_chosen"  # its enquiry's other candidate date was confirmed
    REPLACED = "replaced"  # an edit's swap: the same booking goes on as a new hold


@dataclass(frozen=True)
class EventKind:
    """One of a venue's event kinds (venue file ``[[kinds]]``): an id for forms and the CLI,
    the name staff use, and its class."""

    id: str
    name: str
    cls: Kind


DEFAULT_KINDS = (
    EventKind("wedding", "婚礼", Kind.WEDDING),
    EventKind("banquet", "一般宴会", Kind.BANQUET),
)


def _default_hold_days() -> Mapping[Kind, int]:
    return MappingProxyType({Kind.WEDDING: 7, Kind.BANQUET: 3})


DEFAULT_SOURCES: tuple[tuple[str, str], ...] = (
    ("zexy", "ゼクシィ"),
    ("hanayume", "ハナユメ"),
    ("website", "公式サイト"),
    ("fair", "ブライダルフェア"),
    ("referral", "紹介"),
    ("phone", "電話"),
    ("other", "その他"),
)


@dataclass(frozen=True)
class Policy:
    """A venue's rules; every field's default is the one docs/rules.md states."""

    max_rank: int = 2
    hold_days: Mapping[Kind, int] = field(default_factory=_default_hold_days)
    banquet_open_days: int = 90
    priority_days: tuple[str, ...] = ("weekends", "jp_holidays")
    max_extensions: int = 1
    horizon_days: int = 730
    show_rokuyo: bool = True  # 六曜 beside dates; a venue may turn the display off
    max_items: int = 4  # rooms in one hold (a package: chapel + reception + bridal room)
    max_candidates: int = 2  # live holds (candidate dates) of one enquiry
    # Deadlines as staff read them (docs/rules.md, Deadlines): a deadline lands at this
    # venue-local minute of its last day (None: the minute it was counted from), and one
    # that falls on a closed weekday (0 = Monday) moves to the next open day.
    deadline_time: int | None = None
    closed_weekdays: frozenset[int] = frozenset()
    # The venue's event kinds, in menu order; the two defaults unless the venue file renames
    # them, and always there (``--kind wedding|banquet`` works at every venue).
    kinds: tuple[EventKind, ...] = DEFAULT_KINDS
    notify_first_of_second: bool = True  # a 1st is told when a 2nd queues behind it
    # Where couples come from (媒体), (code, name) in menu order: the defaults unless the
    # venue file's [sources] renames or adds; and the names of staff ([staff]: user id to
    # name) for the terminal and for people without Slack.
    sources: tuple[tuple[str, str], ...] = DEFAULT_SOURCES
    staff: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # 回答の催促: a waiting 2nd brings the 1st's deadline to at most this many days away; 0: off
    nudge_days: int = 2
    # 予約金: a confirmed booking's deposit is due this many days after (None: no deposits)
    deposit_days: int | None = None
    # Why a release gives (issue 25): the venue file's [[reasons]], the defaults unless it
    # renames or adds; and how long an event may last past midnight (an end at or before
    # the start is the next day's only for an event of at most this many hours).
    reasons: tuple[Reason, ...] = DEFAULT_REASONS
    max_event_hours: int = 12

    def days_for(self, kind: Kind) -> int:
        return self.hold_days[kind]

    def kind(self, kind_id: str) -> EventKind | None:
        return next((k for k in self.kinds if k.id == kind_id), None)

    def source_name(self, code: str) -> str:
        """The venue's name for a source code ("" for none; an unlisted code: itself)."""
        return dict(self.sources).get(code, code)

    def person(self, user: str) -> str:
        """A person's name from the venue file's [staff], else "" (unknown)."""
        return self.staff.get(user, "")


@dataclass(frozen=True)
class Room:
    id: str
    name: str
    parts: frozenset[str]
    turnover_min: int = 60
    position: int = 0  # order in the venue file, for menus
    active: bool = True  # False once the venue file no longer lists it
    capacity: int | None = None  # seated guests, when the venue file says


@dataclass(frozen=True)
class Slot:
    """A named time of day the venue sells (昼 11:00–15:00); minutes as in ``HoldRequest``."""

    name: str
    start_min: int
    end_min: int  # above 1440 when the slot runs past midnight


@dataclass(frozen=True)
class Venue:
    id: str
    name: str
    timezone: str
    managers: frozenset[str]
    policy: Policy
    rooms: Mapping[str, Room]
    revision: int = 0  # the stored row's save counter (0: not stored yet)
    slots: tuple[Slot, ...] = ()  # named times a search without times uses, in file order
    sales_channel: str | None = None  # where its cards and reports go (unset: the default)
    language: str | None = None  # the language of its channel ("ja", "en"; unset: the default)

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def is_manager(self, user: str) -> bool:
        return user in self.managers


@dataclass(frozen=True)
class WorkspaceLink:
    """Where a venue is used from: a Slack workspace, or an Enterprise Grid org for an
    org-wide install (then ``workspace_id`` is the org's id and ``org_wide`` is true)."""

    venue_id: str
    workspace_id: str
    enterprise_id: str | None = None
    org_wide: bool = False


@dataclass(frozen=True)
class HoldItem:
    """One room on one span inside a hold (docs/rules.md, Packages)."""

    room_id: str
    room_name: str
    parts: frozenset[str]
    start_at: datetime
    end_at: datetime
    span_end: datetime  # end_at + the room's turnover at request time
    rank: int | None  # tentative holds only: this item's own place in line

    def conflicts(self, other: HoldItem) -> bool:
        """Shares a part and overlaps in time (half-open spans, turnover included)."""
        return (
            bool(self.parts & other.parts)
            and self.start_at < other.span_end
            and other.start_at < self.span_end
        )


@dataclass(frozen=True)
class Details:
    """What else a ledger row carries for a booking (its enquiry's, every candidate date
    shows them): the estimate (見積金額, whole yen), the plan, where the couple came from
    (媒体: one of the venue's source codes) and the next appointment (来館・打合せ)."""

    estimate: int | None = None
    plan: str = ""
    source: str = ""
    next_action: date | None = None
    next_action_note: str = ""


@dataclass(frozen=True)
class Hold:
    """One hold as stored: status, rank and deadline, its enquiry's customer and people, and
    its items (one room on one span each).

    The room and time fields are its first item's: what a one-room view shows. A hold built
    by hand without ``items`` (message-builder tests) gets that one item from them.
    """

    id: int
    venue_id: str
    room_id: str
    room_name: str
    parts: frozenset[str]
    local_date: date
    start_at: datetime
    end_at: datetime
    span_end: datetime  # end_at + the room's turnover at request time
    kind: Kind
    customer: str
    note: str
    salesperson: str
    creator: str
    status: Status
    rank: int | None  # tentative holds only: the largest of its items' ranks
    expires_at: datetime | None  # 1st holds only
    extensions_used: int
    created_at: datetime
    updated_at: datetime
    enquiry_id: int = 0  # the customer's case this hold is a candidate date of
    items: tuple[HoldItem, ...] = ()
    version: int = 0  # +1 on every change of the stored row: a form carries the one it saw
    # What the ledger row carried (its enquiry's): the venue's kind (``kind`` is its class),
    # guests (人数), and a contact shown only to its salesperson and managers.
    kind_id: str = ""  # "" means the default kind of ``kind``'s class
    kind_name: str = ""  # as the venue names it; "" for a default kind not renamed
    guests: int | None = None
    contact: str = field(default="", repr=False)  # never in a log line, not even a repr
    outcome: Outcome | None = None  # of a released hold: withdrawn, lost, other date chosen
    reason: str | None = None  # of a withdrawn one: its code (core.rules.reasons)
    reason_note: str = ""
    details: Details = field(default_factory=Details)  # its enquiry's: estimate, plan, ...
    salesperson_name: str = ""  # Slack's display name as cached, else [[staff]]; "" unknown
    nudged_at: datetime | None = None  # when a waiting 2nd asked this 1st to answer (once)
    deposit: Deposit = field(default_factory=Deposit)  # its booking's (core.deposits)
    house: bool = False  # 社内押さえ: the venue's own use, 1st with no deadline, managers only

    def __post_init__(self) -> None:
        if not self.kind_id:
            object.__setattr__(self, "kind_id", self.kind.value)
        if not self.items:
            rank = self.rank if self.status is Status.TENTATIVE else None
            only = HoldItem(
                self.room_id,
                self.room_name,
                self.parts,
                self.start_at,
                self.end_at,
                self.span_end,
                rank,
            )
            object.__setattr__(self, "items", (only,))

    @property
    def is_first(self) -> bool:
        return self.status is Status.TENTATIVE and self.rank == 1

    @property
    def is_blocking(self) -> bool:
        """Confirmed and 1st holds: every item of theirs is one the EXCLUDE constraint keeps
        apart (an item of rank 1 blocks too while its hold waits on another item)."""
        return self.status is Status.CONFIRMED or self.is_first

    @property
    def is_package(self) -> bool:
        return len(self.items) > 1

    @property
    def first_start(self) -> datetime:
        """When its earliest item starts: no deadline may fall after it."""
        return min(item.start_at for item in self.items)

    def item_blocks(self, item: HoldItem) -> bool:
        """An item blocks its parts while confirmed or while it is rank 1 itself."""
        return self.status is Status.CONFIRMED or (
            self.status is Status.TENTATIVE and item.rank == 1
        )

    def is_due(self, now: datetime) -> bool:
        """A 1st hold whose deadline has come: from ``now == expires_at`` on, confirm and
        extend are refused and the sweep expires it (docs/rules.md, Deadlines)."""
        return self.is_first and self.expires_at is not None and now >= self.expires_at

    def left(self, status: Status, now: datetime, outcome: Outcome | None = None) -> Hold:
        """This hold as ``leave`` stores it: no longer live, no rank, no deadline."""
        items = tuple(replace(item, rank=None) for item in self.items)
        return replace(
            self,
            status=status,
            rank=None,
            expires_at=None,
            updated_at=now,
            items=items,
            outcome=outcome,
        )

    def may_act(self, user: str, venue: Venue) -> bool:
        """Confirm / release / extend: its salesperson, its creator or a manager (a house
        hold: a manager only)."""
        if self.house:
            return venue.is_manager(user)
        return user in (self.salesperson, self.creator) or venue.is_manager(user)

    def may_see_contact(self, user: str, venue: Venue) -> bool:
        """The customer's contact (連絡先): its salesperson and managers only."""
        return user == self.salesperson or venue.is_manager(user)


@dataclass(frozen=True)
class Enquiry:
    """One customer's case (案件) with one salesperson: its holds are candidate dates."""

    id: int
    venue_id: str
    customer: str
    kind: Kind
    salesperson: str
    creator: str
    note: str
    created_at: datetime
    kind_id: str = ""  # the venue's kind; "" means the default kind of ``kind``'s class
    guests: int | None = None
    contact: str = field(default="", repr=False)
    details: Details = field(default_factory=Details)

    def __post_init__(self) -> None:
        if not self.kind_id:
            object.__setattr__(self, "kind_id", self.kind.value)

    def may_act(self, user: str, venue: Venue) -> bool:
        """Adding a candidate date: its salesperson, its creator or a manager."""
        return user in (self.salesperson, self.creator) or venue.is_manager(user)


@dataclass(frozen=True)
class ItemRequest:
    """One more room of a request, on the request's date; minutes as in ``HoldRequest``."""

    room_id: str
    start_min: int
    end_min: int


@dataclass(frozen=True)
class HoldRequest:
    """What a salesperson asks for, in venue-local terms.

    ``start_min`` counts minutes from the local midnight of ``local_date``; ``end_min`` too, so
    an event that runs past midnight has ``end_min`` above 1440 (see ``rules.times``).
    ``also`` adds rooms on the same date (a package). With ``enquiry_id`` the hold is another
    candidate date of that enquiry, and an empty ``kind``, ``customer`` or ``salesperson``
    means the enquiry's. ``kind`` is one of the venue's kind ids (``wedding``, ``nijikai``).
    """

    room_id: str
    local_date: date
    start_min: int
    end_min: int
    kind: str
    customer: str
    salesperson: str
    creator: str
    note: str = ""
    also: tuple[ItemRequest, ...] = ()
    enquiry_id: int | None = None
    guests: int | None = None  # 人数
    # 連絡先: its salesperson and managers only, never in the channel or logs
    contact: str = field(default="", repr=False)
    # A candidate date's details replace its enquiry's field by field where given.
    details: Details = field(default_factory=Details)
    house: bool = False  # 社内押さえ (a manager's; docs/rules.md, House holds)

    @property
    def items(self) -> tuple[ItemRequest, ...]:
        """Every room asked for, the first one first."""
        return (ItemRequest(self.room_id, self.start_min, self.end_min), *self.also)


@dataclass(frozen=True)
class HoldEdit:
    """What an edit of a hold asks for (docs/rules.md, Changing a hold): each field given
    replaces the hold's, None keeps it. ``room_id``, ``start_min`` and ``end_min`` change the
    item whose room is ``item_room`` (a one-room hold's only item when None); ``local_date``
    moves every item. Minutes count from local midnight as in ``HoldRequest``; an end at or
    before the item's start runs past midnight. ``version``: the one the form saw."""

    hold_id: int
    version: int
    actor: str
    item_room: str | None = None
    room_id: str | None = None
    local_date: date | None = None
    start_min: int | None = None
    end_min: int | None = None
    customer: str | None = None
    note: str | None = None
    salesperson: str | None = None
    # What the booking carries (its enquiry's): each given replaces it on every candidate date.
    kind: str | None = None
    guests: int | None = None
    contact: str | None = field(default=None, repr=False)
    estimate: int | None = None
    plan: str | None = None
    source: str | None = None
    next_action: date | None = None
    next_action_note: str | None = None
    # A swap that would make a 1st hold wait is done only when asked for (`--yes`, the
    # Slack confirm step); False refuses it with ``would_lose_first``.
    may_lose_first: bool = True
    # Every room of the hold as it should be (the Slack form's rows: rooms added, removed or
    # changed, the first one first), replacing the one-item change above; None: that change.
    items: tuple[ItemRequest, ...] | None = None
