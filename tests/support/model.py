"""An in-memory model of the hold rules (docs/rules.md): the model-based test's oracle.

It is written from the rules alone and shares no code with ``core.rules`` or ``core.operations``
(only the ``Kind`` / ``Status`` enums and the refusal ``Code`` names, so that answers compare).
It favours obviousness over speed: ranks are recomputed from scratch for every tentative hold
after every change, and the rank itself is found by counting coverage at every candidate
instant, so a "look only near the hold that left" shortcut in the engine is checked too.

Where the rules are silent the model makes these choices (change them here if the spec does):
- refusal order: not found, not authorized, then state (decided / not 1st / deadline passed),
  then extension limit before "would pass the event's start"; request input checks in the
  modal's field order, then confirmed conflict before rank;
- a deadline is ``now + hold_days`` on the venue's local clock (the test's venue is
  Asia/Tokyo, which has no DST, so wall-clock and elapsed days agree);
- sweep expires the holds due when it starts and promotes once: a hold promoted by that
  sweep whose deadline is already due (the event has started) waits for the next sweep,
  and gets no "promoted" notice (its Confirm could not work), only the "expired" one;
- extend tells every waiting hold that conflicts with the extended one;
- release may take any tentative hold, 1st (even past its deadline, before a sweep) or not.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import holidays

from core.model import Kind, Status
from core.results import Code

MINUTES_PER_DAY = 1440
LIVE = (Status.TENTATIVE, Status.CONFIRMED)


# -- the venue --------------------------------------------------------------------------------
@dataclass(frozen=True)
class MRoom:
    parts: frozenset[str]
    turnover_min: int = 60


@dataclass(frozen=True)
class MPolicy:
    max_rank: int = 2
    hold_days: Mapping[str, int] = field(default_factory=lambda: {"wedding": 7, "banquet": 3})
    max_extensions: int = 1
    banquet_open_days: int = 90
    horizon_days: int = 730


def jp_priority_day(day: date) -> bool:
    """The default wedding-priority days: weekends and Japanese national holidays."""
    return day.weekday() >= 5 or day in holidays.country_holidays("JP", years=day.year)


# -- holds and answers ------------------------------------------------------------------------
@dataclass
class MHold:
    id: int  # arrival order: 1, 2, 3, ... in the order requests were accepted
    room_id: str
    parts: frozenset[str]
    kind: Kind
    local_date: date
    start: datetime
    end: datetime
    span_end: datetime  # end + the room's turnover
    salesperson: str
    creator: str
    status: Status
    rank: int | None
    expires_at: datetime | None
    extensions_used: int = 0

    @property
    def live(self) -> bool:
        return self.status in LIVE

    @property
    def tentative(self) -> bool:
        return self.status is Status.TENTATIVE

    @property
    def first(self) -> bool:
        return self.status is Status.TENTATIVE and self.rank == 1


@dataclass(frozen=True)
class Accepted:
    hold_id: int
    rank: int
    expires_at: datetime | None
    replayed: bool = False


@dataclass(frozen=True)
class Refusal:
    code: Code


@dataclass(frozen=True)
class Done:
    """confirm / release / extend / cancel went through."""

    hold_id: int
    released: tuple[int, ...] = ()  # lost the slot to a confirmation
    promoted: tuple[int, ...] = ()  # now 1st, with a new deadline
    notified: tuple[int, ...] = ()  # extend: the holds waiting behind it
    expires_at: datetime | None = None  # extend: the new deadline


@dataclass(frozen=True)
class SweepResult:
    expired: tuple[int, ...]
    promoted: tuple[int, ...]


# -- the pure rules ---------------------------------------------------------------------------
def overlaps(a_start: datetime, a_end: datetime, b_start: datetime, b_end: datetime) -> bool:
    """Half-open intervals: touching ones do not overlap."""
    return a_start < b_end and b_start < a_end


def conflict(
    a: tuple[frozenset[str], datetime, datetime], b: tuple[frozenset[str], datetime, datetime]
) -> bool:
    """(parts, span start, span end): share a part and overlap in time."""
    return bool(a[0] & b[0]) and overlaps(a[1], a[2], b[1], b[2])


def rank_among(
    target: tuple[frozenset[str], datetime, datetime],
    earlier_tentatives: Iterable[tuple[frozenset[str], datetime, datetime]],
) -> int:
    """1 + the most earlier tentatives covering one part of ``target`` at one instant.

    The most intervals covering one instant is reached at some interval's start, so it is
    enough to count, per part, the coverage at each (clipped) start instant.
    """
    parts, start, end = target
    best = 0
    ahead = [s for s in earlier_tentatives if conflict(target, s)]
    for part in parts:
        pieces = [(max(s, start), min(e, end)) for p, s, e in ahead if part in p]
        for instant, _ in pieces:
            covering = sum(1 for s, e in pieces if s <= instant < e)
            best = max(best, covering)
    return best + 1


# -- the model --------------------------------------------------------------------------------
class Model:
    def __init__(
        self,
        rooms: Mapping[str, MRoom],
        managers: Iterable[str],
        policy: MPolicy | None = None,
        tz: str = "Asia/Tokyo",
        priority_day: Callable[[date], bool] = jp_priority_day,
    ) -> None:
        self.rooms = dict(rooms)
        self.managers = frozenset(managers)
        self.policy = policy or MPolicy()
        self.tz = ZoneInfo(tz)
        self.priority_day = priority_day
        self.holds: dict[int, MHold] = {}
        self.keys: dict[str, tuple[tuple[object, ...], Accepted]] = {}

    # -- queries ---------------------------------------------------------------------------
    def live(self) -> list[MHold]:
        return [h for h in self.holds.values() if h.live]

    def firsts(self) -> list[MHold]:
        return [h for h in self.holds.values() if h.first]

    def span(self, h: MHold) -> tuple[frozenset[str], datetime, datetime]:
        return (h.parts, h.start, h.span_end)

    def conflicting(self, h: MHold) -> list[MHold]:
        """Live holds other than ``h`` that conflict with it, in arrival order."""
        return [
            o
            for o in self.holds.values()
            if o.id != h.id and o.live and conflict(self.span(h), self.span(o))
        ]

    def rank_now(self, h: MHold) -> int:
        earlier = [self.span(o) for o in self.holds.values() if o.id < h.id and o.tentative]
        return rank_among(self.span(h), earlier)

    def local(self, day: date, minute: int) -> datetime:
        """``minute`` wall-clock minutes after local midnight of ``day`` (may pass 24:00)."""
        return (datetime(day.year, day.month, day.day) + timedelta(minutes=minute)).replace(
            tzinfo=self.tz
        )

    def deadline(self, now: datetime, kind: Kind, start: datetime) -> datetime:
        return min(now + timedelta(days=self.policy.hold_days[kind.value]), start)

    # -- request ---------------------------------------------------------------------------
    def request(
        self,
        room_id: str,
        local_date: date,
        start_min: int,
        end_min: int,
        kind: str,
        salesperson: str,
        creator: str,
        now: datetime,
        *,
        key: str | None = None,
        fingerprint: tuple[object, ...] = (),
        write: bool = True,
    ) -> Accepted | Refusal:
        """``fingerprint`` identifies the request for idempotency (same key, same request)."""
        if key is not None and key in self.keys:
            seen, answer = self.keys[key]
            if seen != fingerprint:
                return Refusal(Code.IDEMPOTENCY_MISMATCH)
            return Accepted(answer.hold_id, answer.rank, answer.expires_at, replayed=True)
        refused = self._bad_input(room_id, local_date, start_min, end_min, kind, now)
        if refused:
            return refused
        room, the_kind = self.rooms[room_id], Kind(kind)
        start, end = self.local(local_date, start_min), self.local(local_date, end_min)
        new_id = max(self.holds, default=0) + 1
        hold = MHold(
            id=new_id,
            room_id=room_id,
            parts=room.parts,
            kind=the_kind,
            local_date=local_date,
            start=start,
            end=end,
            span_end=end + timedelta(minutes=room.turnover_min),
            salesperson=salesperson,
            creator=creator,
            status=Status.TENTATIVE,
            rank=None,
            expires_at=None,
        )
        around = [o for o in self.live() if conflict(self.span(hold), self.span(o))]
        if any(o.status is Status.CONFIRMED for o in around):
            return Refusal(Code.CONFIRMED_CONFLICT)
        rank = self.rank_now(hold)
        if rank > self.policy.max_rank:
            return Refusal(Code.RANK_TOO_LOW)
        hold.rank = rank
        hold.expires_at = self.deadline(now, the_kind, start) if rank == 1 else None
        answer = Accepted(new_id, rank, hold.expires_at)
        if write:
            self.holds[new_id] = hold
            if key is not None:
                self.keys[key] = (fingerprint, answer)
        return answer

    def _bad_input(
        self,
        room_id: str,
        local_date: date,
        start_min: int,
        end_min: int,
        kind: str,
        now: datetime,
    ) -> Refusal | None:
        """Refusals that need no look at the ledger, in the order the modal's fields come."""
        today = now.astimezone(self.tz).date()
        opens = self.local(local_date - timedelta(days=self.policy.banquet_open_days), 0)
        checks: list[tuple[Callable[[], bool], Code]] = [
            (lambda: room_id not in self.rooms, Code.UNKNOWN_ROOM),
            (lambda: kind not in {k.value for k in Kind}, Code.UNKNOWN_KIND),
            (lambda: not 0 <= start_min < MINUTES_PER_DAY, Code.BAD_TIMES),
            (lambda: end_min <= start_min, Code.BAD_TIMES),
            (lambda: end_min - start_min > MINUTES_PER_DAY, Code.TOO_LONG),
            (lambda: local_date < today, Code.IN_PAST),
            (lambda: self.local(local_date, start_min) <= now, Code.IN_PAST),
            (
                lambda: local_date > today + timedelta(days=self.policy.horizon_days),
                Code.BEYOND_HORIZON,
            ),
            (
                lambda: kind == Kind.BANQUET and self.priority_day(local_date) and now < opens,
                Code.BANQUET_NOT_OPEN,
            ),
        ]
        return next((Refusal(code) for bad, code in checks if bad()), None)

    def preview(
        self,
        room_id: str,
        local_date: date,
        start_min: int,
        end_min: int,
        kind: str,
        salesperson: str,
        creator: str,
        now: datetime,
    ) -> Accepted | Refusal:
        """What ``request`` would answer now, writing nothing (no idempotency key)."""
        return self.request(
            room_id, local_date, start_min, end_min, kind, salesperson, creator, now, write=False
        )

    # -- decisions -------------------------------------------------------------------------
    def may_act(self, h: MHold, actor: str) -> bool:
        return actor in (h.salesperson, h.creator) or actor in self.managers

    def _actionable(self, hold_id: int, actor: str) -> MHold | Refusal:
        h = self.holds.get(hold_id)
        if h is None:
            return Refusal(Code.HOLD_NOT_FOUND)
        if not self.may_act(h, actor):
            return Refusal(Code.NOT_AUTHORIZED)
        return h

    def _first_before_deadline(self, h: MHold, now: datetime) -> Refusal | None:
        if h.status is not Status.TENTATIVE:
            return Refusal(Code.ALREADY_DECIDED)
        if h.rank != 1:
            return Refusal(Code.NOT_FIRST)
        assert h.expires_at is not None
        if now >= h.expires_at:
            return Refusal(Code.DEADLINE_PASSED)
        return None

    def confirm(self, hold_id: int, actor: str, now: datetime) -> Done | Refusal:
        h = self._actionable(hold_id, actor)
        if isinstance(h, Refusal):
            return h
        refused = self._first_before_deadline(h, now)
        if refused:
            return refused
        losers = self.conflicting(h)
        assert all(o.tentative for o in losers), "a 1st hold conflicts with a confirmed one"
        for o in losers:
            self._leave(o, Status.RELEASED)
        h.status, h.rank, h.expires_at = Status.CONFIRMED, None, None
        promoted = self._promote(now)
        return Done(h.id, released=tuple(o.id for o in losers), promoted=promoted)

    def confirm_plan(self, hold_id: int, actor: str, now: datetime) -> Done | Refusal:
        return copy.deepcopy(self).confirm(hold_id, actor, now)

    def release(self, hold_id: int, actor: str, now: datetime) -> Done | Refusal:
        h = self._actionable(hold_id, actor)
        if isinstance(h, Refusal):
            return h
        if h.status is not Status.TENTATIVE:
            return Refusal(Code.ALREADY_DECIDED)
        self._leave(h, Status.RELEASED)
        return Done(h.id, promoted=self._promote(now))

    def extend(self, hold_id: int, actor: str, now: datetime) -> Done | Refusal:
        h = self._actionable(hold_id, actor)
        if isinstance(h, Refusal):
            return h
        refused = self._first_before_deadline(h, now)
        if refused:
            return refused
        assert h.expires_at is not None
        if h.extensions_used >= self.policy.max_extensions:
            return Refusal(Code.EXTENSION_LIMIT)
        moved = h.expires_at + timedelta(days=self.policy.hold_days[h.kind.value])
        new_deadline = min(moved, h.start)
        if new_deadline <= h.expires_at:
            return Refusal(Code.EXTENSION_PAST_START)
        h.expires_at = new_deadline
        h.extensions_used += 1
        behind = tuple(o.id for o in self.conflicting(h) if o.tentative and (o.rank or 0) > 1)
        return Done(h.id, notified=behind, expires_at=new_deadline)

    def cancel(self, hold_id: int, actor: str, now: datetime) -> Done | Refusal:
        h = self.holds.get(hold_id)
        if h is None:
            return Refusal(Code.HOLD_NOT_FOUND)
        if actor not in self.managers:
            return Refusal(Code.NOT_AUTHORIZED)
        if h.status is Status.TENTATIVE:
            return Refusal(Code.NOT_CONFIRMED)
        if h.status is not Status.CONFIRMED:
            return Refusal(Code.ALREADY_DECIDED)
        self._leave(h, Status.CANCELLED)
        return Done(h.id, promoted=self._promote(now))

    def sweep(self, now: datetime) -> SweepResult:
        """Expire every 1st hold due at ``now`` (``expires_at <= now``), then promote once."""
        due = [h for h in self.firsts() if h.expires_at is not None and h.expires_at <= now]
        for h in due:
            self._leave(h, Status.EXPIRED)
        return SweepResult(tuple(sorted(h.id for h in due)), self._promote(now))

    # -- bookkeeping -----------------------------------------------------------------------
    def _leave(self, h: MHold, status: Status) -> None:
        h.status, h.rank, h.expires_at = status, None, None

    def _promote(self, now: datetime) -> tuple[int, ...]:
        """Re-rank every tentative hold; the ones that reach 1st get a deadline from now."""
        promoted = []
        for h in sorted(self.holds.values(), key=lambda o: o.id):
            if not h.tentative:
                continue
            assert h.rank is not None
            rank = self.rank_now(h)
            assert rank <= h.rank, f"model: rank of {h.id} rose from {h.rank} to {rank}"
            if rank < h.rank:
                if rank == 1:
                    h.expires_at = self.deadline(now, h.kind, h.start)
                    promoted.append(h.id)
                h.rank = rank
        return tuple(promoted)
