"""Checking a hold request and deciding its rank, as pure functions of the facts read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from zoneinfo import ZoneInfo

from core.model import Details, Hold, HoldItem, HoldRequest, ItemRequest, Kind, Room, Venue
from core.results import Code, Refused
from core.rules.deadlines import banquet_opens_at, deadline_from, last_bookable_day
from core.rules.details import check_details, cleaned
from core.rules.house import check_house
from core.rules.rank import rank_of
from core.rules.spans import (
    MAX_EVENT,
    MINUTES_PER_DAY,
    Span,
    hold_span,
    local_instant,
    skipped,
)

MAX_CUSTOMER = 200
MAX_NOTE = 1000
MAX_CONTACT = 200
MAX_GUESTS = 100_000


@dataclass(frozen=True)
class CheckedItem:
    """One room of a checked request, in absolute time."""

    room: Room
    start: datetime
    end: datetime
    span: Span


@dataclass(frozen=True)
class Checked:
    """A request that passed every input check: its rooms in the order asked."""

    items: tuple[CheckedItem, ...]
    kind: Kind  # the class of the venue's kind ``kind_id``
    customer: str
    note: str
    kind_id: str = ""
    guests: int | None = None
    contact: str = field(default="", repr=False)
    details: Details = field(default_factory=Details)
    house: bool = False  # 社内押さえ: 1st or refused, no deadline

    # The first room's, as a one-room request reads them.
    @property
    def room(self) -> Room:
        return self.items[0].room

    @property
    def start(self) -> datetime:
        return self.items[0].start

    @property
    def end(self) -> datetime:
        return self.items[0].end

    @property
    def span(self) -> Span:
        return self.items[0].span

    @property
    def spans(self) -> list[Span]:
        return [item.span for item in self.items]

    @property
    def first_start(self) -> datetime:
        """The earliest start: no deadline falls after it."""
        return min(item.start for item in self.items)


@dataclass(frozen=True)
class Occupant:
    """A live hold's item as its span rows show it, on the parts a request asks about."""

    hold_id: int
    item: int  # the item's number in its hold
    span: Span
    confirmed: bool
    first: bool  # an item of rank 1: blocking, not yet confirmed


@dataclass(frozen=True)
class Ranked:
    rank: int  # the hold's: its largest item rank
    expires_at: datetime | None
    ahead: tuple[int, ...]  # the holds with a blocking item in its way
    item_ranks: tuple[int, ...] = ()  # each item's, in the order asked
    in_way: tuple[int, ...] = ()  # every live hold in its way (waiting ones too)


@dataclass(frozen=True)
class Blocked:
    """A refusal the ledger decided, naming the holds in the way by id."""

    code: Code
    holders: tuple[int, ...]
    rank: int | None = None
    limit: int | None = None
    room: str | None = None  # the item's room
    in_way: tuple[int, ...] = ()  # every live hold in the way of any item


def check_request(req: HoldRequest, venue: Venue, now: datetime) -> Checked | Refused:
    """Bad input is refused here, before anything is read or written.

    A request of several rooms is refused as a whole and the refusal names the room at fault
    (``room``, and ``room_name`` for the message); the order is docs/rules.md's, Requests.
    """
    rooms = check_house(req, venue) or _rooms(req.items, venue)
    if isinstance(rooms, Refused):
        return rooms
    refused = (
        _check_kind(req, venue)
        or _check_all_times(req.items, rooms, venue.policy.max_event_hours)
        or _check_texts(req)
        or _check_carried(req)
        or check_details(req.details, venue)
    )
    # The date alone first: past or beyond the horizon is refused before any instant is
    # computed (9999-12-31 plus a night past midnight would overflow ``datetime``).
    refused = refused or check_day(req.local_date, venue, now)
    if refused:
        return refused
    event_kind = venue.policy.kind(req.kind)
    assert event_kind is not None  # noqa: S101 - _check_kind refused an unknown one
    kind = event_kind.cls
    items = _in_time(req, rooms, venue, now)
    if isinstance(items, Refused):
        return items
    # The banquet window keeps priority days for weddings sold: not for the venue's own use.
    window = None if req.house else check_banquet(req.local_date, venue, kind, now, req.kind)
    refused = window or _check_apart(items)
    return refused or Checked(
        tuple(items),
        kind,
        req.customer.strip(),
        req.note.strip(),
        kind_id=event_kind.id,
        guests=req.guests,
        contact=req.contact.strip(),
        details=cleaned(req.details),
        house=req.house,
    )


def decide_rank(
    checked: Checked, occupants: Sequence[Occupant], venue: Venue, now: datetime
) -> Ranked | Blocked:
    """Rank among the live holds in the request's way (all of them came earlier).

    Each item ranks behind the earlier tentative items of other holds (docs/rules.md, Rank);
    the hold's rank is the largest. A confirmed hold in any item's way refuses it first.
    """
    present = [[o for o in occupants if o.span.conflicts(i.span)] for i in checked.items]
    in_way = tuple(sorted({o.hold_id for around in present for o in around}))
    for item, around in zip(checked.items, present, strict=True):
        confirmed = tuple(sorted({o.hold_id for o in around if o.confirmed}))
        if confirmed:
            return Blocked(
                Code.CONFIRMED_CONFLICT, holders=confirmed, room=item.room.id, in_way=in_way
            )
    for item, around in zip(checked.items, present, strict=True):
        if checked.house and around:  # a house hold never waits: whoever is there is named
            return Blocked(Code.HOUSE_NOT_FIRST, in_way, room=item.room.id, in_way=in_way)
    ranks = [
        rank_of(item.span, [o.span for o in around])
        for item, around in zip(checked.items, present, strict=True)
    ]
    limit = venue.policy.max_rank
    for item, around, rank in zip(checked.items, present, ranks, strict=True):
        if rank > limit:
            ahead = tuple(sorted({o.hold_id for o in around if o.first}))
            return Blocked(
                Code.RANK_TOO_LOW,
                ahead,
                rank=rank,
                limit=limit,
                room=item.room.id,
                in_way=in_way,
            )
    rank = max(ranks)
    expires = (
        deadline_from(now, checked.kind, checked.first_start, venue.policy, venue.tz)
        if rank == 1 and not checked.house
        else None
    )
    ahead = tuple(sorted({o.hold_id for around in present for o in around if o.first}))
    return Ranked(rank, expires, ahead, tuple(ranks), in_way)


def item_span(item: HoldItem) -> Span:
    return Span(item.parts, item.start_at, item.span_end)


def spans_of(hold: Hold) -> list[Span]:
    """Every item's span: what the hold occupies."""
    return [item_span(item) for item in hold.items]


def _naming(refused: Refused, room: str, name: str) -> Refused:
    return replace(refused, room=room, room_name=name)


def _rooms(asked: Sequence[ItemRequest], venue: Venue) -> list[Room] | Refused:
    if len(asked) > venue.policy.max_items:
        return Refused(Code.TOO_MANY_ITEMS, field="room", limit=venue.policy.max_items)
    rooms = []
    for item in asked:
        room = venue.rooms.get(item.room_id)
        if room is None or not room.active:
            refused = Refused(Code.UNKNOWN_ROOM, field="room", detail=item.room_id)
            return _naming(refused, item.room_id, item.room_id if len(asked) > 1 else "")
        rooms.append(room)
    return rooms


def _check_kind(req: HoldRequest, venue: Venue) -> Refused | None:
    """One of the venue's kinds (``wedding`` and ``banquet`` are always there)."""
    if venue.policy.kind(req.kind) is None:
        kinds = venue.policy.kinds
        return Refused(Code.UNKNOWN_KIND, field="kind", detail=req.kind[:40], kinds=kinds)
    return None


def _check_carried(req: HoldRequest) -> Refused | None:
    """Guests a whole number from 1; a contact of at most ``MAX_CONTACT`` characters (never
    quoted back: the refusal may be shown where the contact must not be)."""
    if req.guests is not None and not 1 <= req.guests <= MAX_GUESTS:
        return Refused(Code.BAD_GUESTS, field="guests", limit=MAX_GUESTS, detail=str(req.guests))
    if len(req.contact.strip()) > MAX_CONTACT:
        return Refused(Code.BAD_CONTACT, field="contact", limit=MAX_CONTACT)
    return None


def _check_all_times(
    asked: Sequence[ItemRequest], rooms: Sequence[Room], max_hours: int
) -> Refused | None:
    for item, room in zip(asked, rooms, strict=True):
        refused = check_times(item.start_min, item.end_min, max_hours)
        if refused:
            return _naming(refused, room.id, room.name if len(asked) > 1 else "")
    return None


def _check_texts(req: HoldRequest) -> Refused | None:
    return (
        _check_text(req.customer.strip(), Code.BAD_CUSTOMER, "customer", MAX_CUSTOMER)
        or _check_long(req.note.strip(), Code.BAD_NOTE, "note", MAX_NOTE)
        or _check_text(req.salesperson.strip(), Code.BAD_SALESPERSON, "salesperson", 64)
    )


def _in_time(
    req: HoldRequest, rooms: Sequence[Room], venue: Venue, now: datetime
) -> list[CheckedItem] | Refused:
    """Each item in absolute time (a DST gap can make wall minutes lie), none started yet."""
    items = []
    for item, room in zip(req.items, rooms, strict=True):
        instants = in_time(req.local_date, item.start_min, item.end_min, venue.tz, now)
        if isinstance(instants, Refused):
            return _naming(instants, room.id, room.name if len(rooms) > 1 else "")
        start, end = instants
        items.append(
            CheckedItem(room, start, end, hold_span(room.parts, start, end, room.turnover_min))
        )
    return items


def in_time(
    day: date, start_min: int, end_min: int, tz: ZoneInfo, now: datetime
) -> tuple[datetime, datetime] | Refused:
    """The start and end of times on ``day`` as instants, refused if a clock change makes them
    empty or too long, or the start is not after ``now`` (the same for every room)."""
    refused = _check_gap(day, start_min, tz, "start") or _check_gap(day, end_min, tz, "end")
    if refused:
        return refused
    start = local_instant(day, start_min, tz)
    end = local_instant(day, end_min, tz)
    if end <= start or end - start > MAX_EVENT:
        limit = 24 if end > start else None
        return Refused(Code.TOO_LONG if end > start else Code.BAD_TIMES, field="end", limit=limit)
    if start <= now:
        return Refused(Code.IN_PAST, field="date", detail=day.isoformat())
    return start, end


def _check_gap(day: date, minute: int, tz: ZoneInfo, field: str) -> Refused | None:
    """A local time the clocks skip that day (spring forward) is no time at all: refused,
    naming the skipped times, rather than moved to one the salesperson did not ask for."""
    gap = skipped(day, minute, tz)
    if gap is None:
        return None
    first, after = gap
    shown = f"{first:%Y-%m-%d %H:%M}–{after:%H:%M}"
    asked = f"{minute % MINUTES_PER_DAY // 60:02d}:{minute % 60:02d}"
    return Refused(Code.BAD_TIMES, field=field, detail=asked, gap=shown)


def _check_apart(items: Sequence[CheckedItem]) -> Refused | None:
    """Items of one hold must not conflict with each other (turnover included)."""
    for i, later in enumerate(items):
        for earlier in items[:i]:
            if later.span.conflicts(earlier.span):
                return Refused(
                    Code.ITEMS_OVERLAP,
                    field="room",
                    detail=earlier.room.name,
                    room=later.room.id,
                    room_name=later.room.name,
                )
    return None


def check_times(start_min: int, end_min: int, limit: int = 12) -> Refused | None:
    """Past midnight only for an event of at most ``limit`` hours (``max_event_hours``)."""
    if not 0 <= start_min < MINUTES_PER_DAY:
        return Refused(Code.BAD_TIMES, field="start", detail=str(start_min))
    if end_min <= start_min:
        return Refused(Code.BAD_TIMES, field="end")
    if end_min - start_min > MINUTES_PER_DAY:
        return Refused(Code.TOO_LONG, field="end", limit=24)
    if end_min > MINUTES_PER_DAY and end_min - start_min > limit * 60:
        # An end at or before the start was read as the next day's: say how it was read
        # (14:00〜翌11:00 は21時間), as that is rarely what was meant.
        hours = -(-(end_min - start_min) // 60)
        return Refused(
            Code.OVERNIGHT_TOO_LONG,
            field="end",
            limit=limit,
            rank=hours,  # how long it would last, in hours (rounded up)
            detail=_clock(start_min),
            gap=_clock(end_min % MINUTES_PER_DAY),
        )
    return None


def _clock(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def _check_text(value: str, code: Code, field: str, longest: int) -> Refused | None:
    if not value:
        return Refused(code, field=field, limit=longest)
    return _check_long(value, code, field, longest)


def _check_long(value: str, code: Code, field: str, longest: int) -> Refused | None:
    if len(value) > longest:
        return Refused(code, field=field, limit=longest, detail=value[:40])
    return None


def check_day(day: date, venue: Venue, now: datetime) -> Refused | None:
    """Past or beyond the horizon: the date alone, whatever the times and room."""
    today = now.astimezone(venue.tz).date()
    if day < today:
        return Refused(Code.IN_PAST, field="date", detail=day.isoformat())
    if day > last_bookable_day(today, venue.policy):
        return Refused(
            Code.BEYOND_HORIZON,
            field="date",
            limit=venue.policy.horizon_days,
            detail=day.isoformat(),
        )
    return None


def check_banquet(
    day: date, venue: Venue, kind: Kind, now: datetime, kind_id: str | None = None
) -> Refused | None:
    """A banquet on a wedding-priority day before its window opens (the date alone);
    ``kind_id``: the venue's kind asked for, named in the refusal."""
    if kind is Kind.BANQUET:
        opens = banquet_opens_at(day, venue.policy, venue.tz)
        if opens is not None and now < opens:
            asked = venue.policy.kind(kind_id) if kind_id else None
            return Refused(
                Code.BANQUET_NOT_OPEN,
                field="date",
                opens_at=opens,
                kinds=(asked,) if asked else (),
                detail=day.isoformat(),
            )
    return None
