"""Checking a hold request and deciding its rank, as pure functions of the facts read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from core.model import Hold, HoldRequest, Kind, Room, Venue
from core.results import Code, Refused
from core.rules.deadlines import banquet_opens_at, deadline_from, last_bookable_day
from core.rules.rank import rank_of
from core.rules.spans import (
    MAX_EVENT,
    MINUTES_PER_DAY,
    Span,
    hold_span,
    local_instant,
)

MAX_CUSTOMER = 200
MAX_NOTE = 1000


@dataclass(frozen=True)
class Checked:
    """A request that passed every input check, in absolute time."""

    room: Room
    kind: Kind
    start: datetime
    end: datetime
    span: Span
    customer: str
    note: str


@dataclass(frozen=True)
class Occupant:
    """A live hold as its span rows show it, on the parts a request asks about."""

    hold_id: int
    span: Span
    confirmed: bool
    first: bool  # a 1st hold: blocking, not yet confirmed


@dataclass(frozen=True)
class Ranked:
    rank: int
    expires_at: datetime | None
    ahead: tuple[int, ...]  # the 1st holds it waits behind


@dataclass(frozen=True)
class Blocked:
    """A refusal the ledger decided, naming the holds in the way by id."""

    code: Code
    holders: tuple[int, ...]
    rank: int | None = None
    limit: int | None = None


def check_request(req: HoldRequest, venue: Venue, now: datetime) -> Checked | Refused:
    """Bad input is refused here, before anything is read or written."""
    room = venue.rooms.get(req.room_id)
    if room is None or not room.active:
        return Refused(Code.UNKNOWN_ROOM, field="room", detail=req.room_id)
    try:
        kind = Kind(req.kind)
    except ValueError:
        return Refused(Code.UNKNOWN_KIND, field="kind", detail=req.kind)
    customer, note = req.customer.strip(), req.note.strip()
    refused = (
        _check_times(req)
        or _check_text(customer, Code.BAD_CUSTOMER, "customer", MAX_CUSTOMER)
        or _check_long(note, Code.BAD_NOTE, "note", MAX_NOTE)
        or _check_text(req.salesperson.strip(), Code.BAD_SALESPERSON, "salesperson", 64)
    )
    # The date alone first: past or beyond the horizon is refused before any instant is
    # computed (9999-12-31 plus a night past midnight would overflow ``datetime``).
    refused = refused or _check_day(req, venue, now)
    if refused:
        return refused
    tz = venue.tz
    start = local_instant(req.local_date, req.start_min, tz)
    end = local_instant(req.local_date, req.end_min, tz)
    if end <= start or end - start > MAX_EVENT:  # a DST gap can make wall minutes lie
        return Refused(Code.TOO_LONG if end > start else Code.BAD_TIMES, field="end")
    refused = _check_start(req, venue, kind, start, now)
    if refused:
        return refused
    span = hold_span(room.parts, start, end, room.turnover_min)
    return Checked(room, kind, start, end, span, customer, note)


def decide_rank(
    checked: Checked, occupants: Sequence[Occupant], venue: Venue, now: datetime
) -> Ranked | Blocked:
    """Rank among the live holds in the request's way (all of them came earlier)."""
    present = [o for o in occupants if o.span.conflicts(checked.span)]
    confirmed = tuple(sorted(o.hold_id for o in present if o.confirmed))
    if confirmed:
        return Blocked(Code.CONFIRMED_CONFLICT, holders=confirmed)
    rank = rank_of(checked.span, [o.span for o in present])
    ahead = tuple(sorted(o.hold_id for o in present if o.first))
    if rank > venue.policy.max_rank:
        return Blocked(Code.RANK_TOO_LOW, holders=ahead, rank=rank, limit=venue.policy.max_rank)
    expires = (
        deadline_from(now, checked.kind, checked.start, venue.policy, venue.tz)
        if rank == 1
        else None
    )
    return Ranked(rank, expires, ahead)


def span_of(hold: Hold) -> Span:
    return Span(hold.parts, hold.start_at, hold.span_end)


def _check_times(req: HoldRequest) -> Refused | None:
    if not 0 <= req.start_min < MINUTES_PER_DAY:
        return Refused(Code.BAD_TIMES, field="start", detail=str(req.start_min))
    if req.end_min <= req.start_min:
        return Refused(Code.BAD_TIMES, field="end")
    if req.end_min - req.start_min > MINUTES_PER_DAY:
        return Refused(Code.TOO_LONG, field="end", limit=24)
    return None


def _check_text(value: str, code: Code, field: str, longest: int) -> Refused | None:
    if not value:
        return Refused(code, field=field, limit=longest)
    return _check_long(value, code, field, longest)


def _check_long(value: str, code: Code, field: str, longest: int) -> Refused | None:
    if len(value) > longest:
        return Refused(code, field=field, limit=longest, detail=value[:40])
    return None


def _check_day(req: HoldRequest, venue: Venue, now: datetime) -> Refused | None:
    today = now.astimezone(venue.tz).date()
    if req.local_date < today:
        return Refused(Code.IN_PAST, field="date", detail=req.local_date.isoformat())
    if req.local_date > last_bookable_day(today, venue.policy):
        return Refused(
            Code.BEYOND_HORIZON,
            field="date",
            limit=venue.policy.horizon_days,
            detail=req.local_date.isoformat(),
        )
    return None


def _check_start(
    req: HoldRequest, venue: Venue, kind: Kind, start: datetime, now: datetime
) -> Refused | None:
    if start <= now:
        return Refused(Code.IN_PAST, field="date", detail=req.local_date.isoformat())
    if kind is Kind.BANQUET:
        opens = banquet_opens_at(req.local_date, venue.policy, venue.tz)
        if opens is not None and now < opens:
            return Refused(Code.BANQUET_NOT_OPEN, field="date", opens_at=opens)
    return None
