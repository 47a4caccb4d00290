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
- release may take any tentative hold, 1st (even past its deadline, before a sweep) or not;
- house holds (社内押さえ): a manager's request (``not_a_manager`` before any other input
  check), never a candidate date, no banquet window; 1st or refused (``house_not_first``,
  after a confirmed conflict), never a deadline; confirm and extend refuse them
  (``house_hold``, after ``already_decided``); only a manager may act on them at all
  (``not_a_manager`` where others get ``not_authorized``);
- edit refuses in this order: not found, not authorized, stale version, decided, a confirmed
  hold by a non-manager, the item (which room), the request's input checks, nothing changed,
  then (confirmed) anyone in the way or (swap) the request's ledger refusals; an edit in
  place (it meets nobody new and costs nobody a rank, its own included) may see its own rank
  get better (it is ranked again like anyone behind what it gave up).
"""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
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
    max_items: int = 4
    max_candidates: int = 2


def jp_priority_day(day: date) -> bool:
    """The default wedding-priority days: weekends and Japanese national holidays."""
    return day.weekday() >= 5 or day in holidays.country_holidays("JP", years=day.year)


# -- holds and answers ------------------------------------------------------------------------
@dataclass
class MItem:
    room_id: str
    parts: frozenset[str]
    start: datetime
    end: datetime
    span_end: datetime  # end + the room's turnover
    rank: int | None = None  # while its hold is tentative


@dataclass
class MEnquiry:
    id: int  # 1, 2, 3, ... in the order enquiries were made
    customer: str
    kind: Kind
    salesperson: str
    creator: str


@dataclass
class MHold:
    id: int  # arrival order: 1, 2, 3, ... in the order requests were accepted
    enquiry: int
    items: list[MItem]
    kind: Kind
    local_date: date
    customer: str
    salesperson: str
    creator: str
    status: Status
    rank: int | None
    expires_at: datetime | None
    extensions_used: int = 0
    version: int = 1  # +1 on every change of the hold: edit, rank, deadline, status
    house: bool = False  # 社内押さえ: 1st or nothing, no deadline, a manager's

    @property
    def live(self) -> bool:
        return self.status in LIVE

    @property
    def tentative(self) -> bool:
        return self.status is Status.TENTATIVE

    @property
    def first(self) -> bool:
        return self.status is Status.TENTATIVE and self.rank == 1

    # The first item's, for one-room scenarios.
    @property
    def room_id(self) -> str:
        return self.items[0].room_id

    @property
    def parts(self) -> frozenset[str]:
        return self.items[0].parts

    @property
    def start(self) -> datetime:
        """The earliest start: a deadline never falls after it."""
        return min(i.start for i in self.items)


@dataclass(frozen=True)
class Accepted:
    """A request's answer. Only id, rank, deadline and replay take part in ``==`` (what the
    one-room scenarios compare); the machine compares the rest field by field."""

    hold_id: int
    rank: int
    expires_at: datetime | None
    replayed: bool = False
    enquiry: int = field(default=0, compare=False)
    item_ranks: tuple[int, ...] = field(default=(), compare=False)
    warnings: tuple[int, ...] = field(default=(), compare=False)  # same customer elsewhere


@dataclass(frozen=True)
class Refusal:
    code: Code
    room: str | None = field(default=None, compare=False)  # the item at fault (compared apart)


@dataclass(frozen=True)
class Done:
    """confirm / release / extend / cancel went through."""

    hold_id: int
    released: tuple[int, ...] = ()  # lost the slot to a confirmation, or other candidates
    promoted: tuple[int, ...] = ()  # now 1st, with a new deadline
    notified: tuple[int, ...] = ()  # extend: the holds waiting behind it
    expires_at: datetime | None = None  # extend: the new deadline
    candidates: tuple[int, ...] = ()  # confirm: of ``released``, the enquiry's other dates


@dataclass(frozen=True)
class EditDone:
    """An edit went through: ``hold_id`` is the hold as it is now (a new one after a swap)."""

    hold_id: int
    kept_place: bool
    rank: int | None
    expires_at: datetime | None
    released: tuple[int, ...] = ()  # the old hold of a swap
    promoted: tuple[int, ...] = ()


@dataclass(frozen=True)
class SweepResult:
    expired: tuple[int, ...]
    promoted: tuple[int, ...]


Span = tuple[frozenset[str], datetime, datetime]
Check = tuple[Callable[[], bool], Code, str | None]  # (is it bad?, refusal, the room it names)


# -- the pure rules ---------------------------------------------------------------------------
def overlaps(a_start: datetime, a_end: datetime, b_start: datetime, b_end: datetime) -> bool:
    """Half-open intervals: touching ones do not overlap."""
    return a_start < b_end and b_start < a_end


def conflict(a: Span, b: Span) -> bool:
    """(parts, span start, span end): share a part and overlap in time."""
    return bool(a[0] & b[0]) and overlaps(a[1], a[2], b[1], b[2])


def rank_among(target: Span, earlier_tentatives: Iterable[Span]) -> int:
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


def same_customer(name: str) -> str:
    """A name as staff mean it: width-blind, space-blind, without a trailing 様 / さま."""
    text = "".join(unicodedata.normalize("NFKC", name).casefold().split())
    for suffix in ("様", "さま"):
        while text.endswith(suffix):
            text = text[: -len(suffix)]
    return text


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
        self.enquiries: dict[int, MEnquiry] = {}
        self.keys: dict[str, tuple[tuple[object, ...], Accepted]] = {}

    # -- queries ---------------------------------------------------------------------------
    def live(self) -> list[MHold]:
        return [h for h in self.holds.values() if h.live]

    def firsts(self) -> list[MHold]:
        return [h for h in self.holds.values() if h.first]

    @staticmethod
    def span(item: MItem) -> Span:
        return (item.parts, item.start, item.span_end)

    def touches(self, a: MHold, b: MHold) -> bool:
        """Some item of one conflicts with some item of the other."""
        return any(conflict(self.span(x), self.span(y)) for x in a.items for y in b.items)

    def conflicting(self, h: MHold) -> list[MHold]:
        """Live holds other than ``h`` with an item in the way of one of its items."""
        return [o for o in self.holds.values() if o.id != h.id and o.live and self.touches(h, o)]

    def item_rank(self, item: MItem, hold_id: int) -> int:
        """Behind the earlier live tentative items of other holds."""
        earlier = [
            self.span(i)
            for o in self.holds.values()
            if o.id < hold_id and o.tentative
            for i in o.items
        ]
        return rank_among(self.span(item), earlier)

    def local(self, day: date, minute: int) -> datetime:
        """``minute`` wall-clock minutes after local midnight of ``day`` (may pass 24:00)."""
        return (datetime(day.year, day.month, day.day) + timedelta(minutes=minute)).replace(
            tzinfo=self.tz
        )

    def deadline(self, now: datetime, kind: Kind, start: datetime) -> datetime:
        return min(now + timedelta(days=self.policy.hold_days[kind.value]), start)

    def warnings(self, customer: str, enquiry: int | None) -> tuple[int, ...]:
        """Live holds of other enquiries whose customer is the same one (never a refusal)."""
        key = same_customer(customer)
        return tuple(
            sorted(
                h.id
                for h in self.holds.values()
                if h.live and h.enquiry != enquiry and same_customer(h.customer) == key
            )
        )

    # -- request ---------------------------------------------------------------------------
    def request(
        self,
        items: list[tuple[str, int, int]],
        local_date: date,
        kind: str,
        customer: str,
        salesperson: str,
        creator: str,
        now: datetime,
        *,
        enquiry: int | None = None,
        note: str = "",
        key: str | None = None,
        fingerprint: tuple[object, ...] = (),
        write: bool = True,
        house: bool = False,
    ) -> Accepted | Refusal:
        """``items``: (room, start minute, end minute) in the order asked, the first first.
        ``enquiry``: join that enquiry as another candidate date (-1: one that does not
        exist here). ``fingerprint`` identifies the request for idempotency."""
        if key is not None and key in self.keys:
            return self._replay(key, fingerprint, joining=enquiry is not None)
        joined = None
        if enquiry is not None:
            joined = self._join(enquiry, customer, kind, salesperson, creator)
            if isinstance(joined, Refusal):
                return joined
            customer, kind, salesperson = joined.customer, joined.kind.value, joined.salesperson
            creator = joined.creator
        refused = self._house(house, creator, enquiry) or self._bad_input(
            items, local_date, kind, customer, note, salesperson, now, house=house
        )
        if refused is None and joined is not None:
            refused = self._full(joined)
        if refused:
            return refused
        hold = MHold(
            id=max(self.holds, default=0) + 1,
            enquiry=joined.id if joined else max(self.enquiries, default=0) + 1,
            items=[self._item(room, local_date, s, e) for room, s, e in items],
            kind=Kind(kind),
            local_date=local_date,
            customer=customer.strip(),
            salesperson=salesperson.strip(),
            creator=creator,
            status=Status.TENTATIVE,
            rank=None,
            expires_at=None,
            house=house,
        )
        refused = self._place(hold, now)
        if refused:
            return refused
        answer = Accepted(
            hold.id,
            hold.rank or 1,
            hold.expires_at,
            enquiry=hold.enquiry,
            item_ranks=tuple(i.rank or 1 for i in hold.items),
            warnings=self.warnings(hold.customer, None) if joined is None else (),
        )
        if write:
            self.holds[hold.id] = hold
            if joined is None:
                self.enquiries[hold.enquiry] = MEnquiry(
                    hold.enquiry, hold.customer, hold.kind, hold.salesperson, creator
                )
            if key is not None:
                self.keys[key] = (fingerprint, answer)
        return answer

    def _replay(
        self, key: str, fingerprint: tuple[object, ...], *, joining: bool
    ) -> Accepted | Refusal:
        """The first answer again (its ranks as first given); warnings as they are now."""
        seen, answer = self.keys[key]
        if seen != fingerprint:
            return Refusal(Code.IDEMPOTENCY_MISMATCH)
        hold = self.holds[answer.hold_id]
        shown = () if joining else self.warnings(hold.customer, hold.enquiry)
        return replace(answer, replayed=True, warnings=shown)

    def _place(self, hold: MHold, now: datetime) -> Refusal | None:
        """Refused if a confirmed hold is in any item's way, or an item would rank above
        max_rank (the first such item named); else the hold's ranks and deadline."""
        confirmed = [i for o in self.live() if o.status is Status.CONFIRMED for i in o.items]
        for item in hold.items:
            if any(conflict(self.span(item), self.span(i)) for i in confirmed):
                return Refusal(Code.CONFIRMED_CONFLICT, room=item.room_id)
        if hold.house:
            tentative = [i for o in self.live() if o.id != hold.id for i in o.items]
            for item in hold.items:
                if any(conflict(self.span(item), self.span(i)) for i in tentative):
                    return Refusal(Code.HOUSE_NOT_FIRST, room=item.room_id)
        for item in hold.items:
            item.rank = self.item_rank(item, hold.id)
        for item in hold.items:
            if (item.rank or 1) > self.policy.max_rank:
                return Refusal(Code.RANK_TOO_LOW, room=item.room_id)
        hold.rank = max(i.rank or 1 for i in hold.items)
        first = hold.rank == 1 and not hold.house
        hold.expires_at = self.deadline(now, hold.kind, hold.start) if first else None
        return None

    def _item(self, room_id: str, day: date, start_min: int, end_min: int) -> MItem:
        room = self.rooms[room_id]
        start, end = self.local(day, start_min), self.local(day, end_min)
        return MItem(room_id, room.parts, start, end, end + timedelta(minutes=room.turnover_min))

    def _join(
        self, enquiry: int, customer: str, kind: str, salesperson: str, creator: str
    ) -> MEnquiry | Refusal:
        """The enquiry a candidate date joins; what it gives must match (or be left out)."""
        found = self.enquiries.get(enquiry)
        if found is None:
            return Refusal(Code.ENQUIRY_NOT_FOUND)
        if creator not in (found.salesperson, found.creator) and creator not in self.managers:
            return Refusal(Code.NOT_AUTHORIZED)
        if customer.strip() and same_customer(customer) != same_customer(found.customer):
            return Refusal(Code.ENQUIRY_MISMATCH)
        if kind and kind != found.kind.value:
            return Refusal(Code.ENQUIRY_MISMATCH)
        if salesperson.strip() and salesperson.strip() != found.salesperson:
            return Refusal(Code.ENQUIRY_MISMATCH)
        return found

    def _house(self, house: bool, creator: str, enquiry: int | None) -> Refusal | None:
        """A house hold: a manager's, an enquiry of its own."""
        if house and creator not in self.managers:
            return Refusal(Code.NOT_A_MANAGER)
        if house and enquiry is not None:
            return Refusal(Code.ENQUIRY_MISMATCH)
        return None

    def _full(self, enquiry: MEnquiry) -> Refusal | None:
        mine = [h for h in self.holds.values() if h.enquiry == enquiry.id and h.live]
        if any(h.house for h in mine):  # none joins a house hold's enquiry
            return Refusal(Code.ENQUIRY_MISMATCH)
        if any(h.status is Status.CONFIRMED for h in mine):
            return Refusal(Code.ENQUIRY_CONFIRMED)
        if len(mine) >= self.policy.max_candidates:
            return Refusal(Code.TOO_MANY_CANDIDATES)
        return None

    def _bad_input(
        self,
        items: list[tuple[str, int, int]],
        local_date: date,
        kind: str,
        customer: str,
        note: str,
        salesperson: str,
        now: datetime,
        *,
        house: bool = False,
    ) -> Refusal | None:
        """Refusals that need no look at the ledger, in the order the form's fields come;
        the ones about one item name its room (each check over every item before the next)."""
        today = now.astimezone(self.tz).date()
        opens = self.local(local_date - timedelta(days=self.policy.banquet_open_days), 0)
        who, what = customer.strip(), salesperson.strip()

        def each(bad: Callable[[str, int, int], bool], code: Code) -> list[Check]:
            return [(lambda i=i: bad(*i), code, i[0]) for i in items]

        checks: list[Check] = [
            (lambda: len(items) > self.policy.max_items, Code.TOO_MANY_ITEMS, None),
            *each(lambda room, _s, _e: room not in self.rooms, Code.UNKNOWN_ROOM),
            (lambda: kind not in {k.value for k in Kind}, Code.UNKNOWN_KIND, None),
        ]
        for item in items:
            checks += [
                (lambda i=item: not 0 <= i[1] < MINUTES_PER_DAY, Code.BAD_TIMES, item[0]),
                (lambda i=item: i[2] <= i[1], Code.BAD_TIMES, item[0]),
                (lambda i=item: i[2] - i[1] > MINUTES_PER_DAY, Code.TOO_LONG, item[0]),
                # past midnight only for an event of at most 12 hours
                (
                    lambda i=item: i[2] > MINUTES_PER_DAY and i[2] - i[1] > 12 * 60,
                    Code.OVERNIGHT_TOO_LONG,
                    item[0],
                ),
            ]
        checks += [
            (lambda: not who or len(who) > 200, Code.BAD_CUSTOMER, None),
            (lambda: len(note.strip()) > 1000, Code.BAD_NOTE, None),
            (lambda: not what or len(what) > 64, Code.BAD_SALESPERSON, None),
            # the date, common to every room, before any item's start
            (lambda: local_date < today, Code.IN_PAST, None),
            (
                lambda: local_date > today + timedelta(days=self.policy.horizon_days),
                Code.BEYOND_HORIZON,
                None,
            ),
            *each(lambda _r, start, _e: self.local(local_date, start) <= now, Code.IN_PAST),
            (
                lambda: (
                    kind == Kind.BANQUET
                    and self.priority_day(local_date)
                    and now < opens
                    and not house
                ),
                Code.BANQUET_NOT_OPEN,
                None,
            ),
        ]
        refused = next((Refusal(code, room=room) for bad, code, room in checks if bad()), None)
        return refused or self._apart(items, local_date)

    def _apart(self, items: list[tuple[str, int, int]], local_date: date) -> Refusal | None:
        """No item may conflict with an earlier one of the same hold."""
        made = [self._item(room, local_date, s, e) for room, s, e in items]
        for j, later in enumerate(made):
            if any(conflict(self.span(later), self.span(earlier)) for earlier in made[:j]):
                return Refusal(Code.ITEMS_OVERLAP, room=later.room_id)
        return None

    def preview(
        self,
        items: list[tuple[str, int, int]],
        local_date: date,
        kind: str,
        customer: str,
        salesperson: str,
        creator: str,
        now: datetime,
        *,
        enquiry: int | None = None,
        note: str = "",
        house: bool = False,
    ) -> Accepted | Refusal:
        """What ``request`` would answer now, writing nothing (no idempotency key)."""
        return self.request(
            items,
            local_date,
            kind,
            customer,
            salesperson,
            creator,
            now,
            enquiry=enquiry,
            note=note,
            write=False,
            house=house,
        )

    # -- decisions -------------------------------------------------------------------------
    def may_act(self, h: MHold, actor: str) -> bool:
        if h.house:
            return actor in self.managers
        return actor in (h.salesperson, h.creator) or actor in self.managers

    def _actionable(self, hold_id: int, actor: str) -> MHold | Refusal:
        h = self.holds.get(hold_id)
        if h is None:
            return Refusal(Code.HOLD_NOT_FOUND)
        if not self.may_act(h, actor):
            return Refusal(Code.NOT_A_MANAGER if h.house else Code.NOT_AUTHORIZED)
        return h

    def _first_before_deadline(self, h: MHold, now: datetime) -> Refusal | None:
        if h.status is not Status.TENTATIVE:
            return Refusal(Code.ALREADY_DECIDED)
        if h.house:
            return Refusal(Code.HOUSE_HOLD)
        if h.rank != 1:
            return Refusal(Code.NOT_FIRST)
        assert h.expires_at is not None
        if now >= h.expires_at:
            return Refusal(Code.DEADLINE_PASSED)
        return None

    def confirm(self, hold_id: int, actor: str, now: datetime) -> Done | Refusal:
        """Every tentative hold with an item in the way is released whole; so are the
        enquiry's other candidate dates (the customer chose; that reason wins)."""
        h = self._actionable(hold_id, actor)
        if isinstance(h, Refusal):
            return h
        refused = self._first_before_deadline(h, now)
        if refused:
            return refused
        others = [
            o
            for o in self.holds.values()
            if o.enquiry == h.enquiry and o.id != h.id and o.tentative
        ]
        other_ids = {o.id for o in others}
        losers = [o for o in self.conflicting(h) if o.id not in other_ids]
        assert all(o.tentative for o in losers), "a 1st hold conflicts with a confirmed one"
        for o in [*losers, *others]:
            self._leave(o, Status.RELEASED)
        self._leave(h, Status.CONFIRMED)
        promoted = self._promote(now)
        released = tuple(sorted(o.id for o in [*losers, *others]))
        candidates = tuple(sorted(o.id for o in others))
        return Done(h.id, released=released, promoted=promoted, candidates=candidates)

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
        h.version += 1
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

    def edit(self, hold_id: int, actor: str, now: datetime, change: MEdit) -> EditDone | Refusal:
        """An edit that takes nobody's place keeps it (and ranks again whoever it freed,
        itself too); anything else is a new arrival placed as if the old hold had gone,
        which then goes."""
        return _edit(self, hold_id, actor, now, change)

    # -- bookkeeping -----------------------------------------------------------------------
    def _leave(self, h: MHold, status: Status) -> None:
        h.version += 1
        h.status, h.rank, h.expires_at = status, None, None
        for item in h.items:
            item.rank = None

    def _promote(self, now: datetime) -> tuple[int, ...]:
        """Re-rank every item of every tentative hold; a hold whose items are all rank 1
        now (and were not) becomes 1st with a deadline from now."""
        promoted = []
        for h in sorted(self.holds.values(), key=lambda o: o.id):
            if not h.tentative:
                continue
            assert h.rank is not None
            before = [i.rank for i in h.items]
            for item in h.items:
                rank = self.item_rank(item, h.id)
                assert item.rank is not None and rank <= item.rank, f"model: item of {h.id} rose"
                item.rank = rank
            h.version += before != [i.rank for i in h.items]
            rank = max(i.rank or 1 for i in h.items)
            if rank < h.rank and rank == 1:
                h.expires_at = self.deadline(now, h.kind, h.start)
                promoted.append(h.id)
            h.rank = rank
        return tuple(promoted)


# -- edits ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MEdit:
    """What an edit asks for; None keeps the hold's. ``start`` / ``end``: minutes of the
    item in ``item_room`` (a one-room hold's only one); an end at or before the start is
    the next day's."""

    version: int
    item_room: str | None = None
    room: str | None = None
    day: date | None = None
    start: int | None = None
    end: int | None = None
    customer: str | None = None
    salesperson: str | None = None


def _edit(  # noqa: PLR0911 - one return per refusal, in the order the class docstring gives
    model: Model, hold_id: int, actor: str, now: datetime, change: MEdit
) -> EditDone | Refusal:
    h = _editable(model, hold_id, actor, change.version)
    if isinstance(h, Refusal):
        return h
    asked = _asked(model, h, change)
    if isinstance(asked, Refusal):
        return asked
    day = change.day or h.local_date
    customer = h.customer if change.customer is None else change.customer
    salesperson = h.salesperson if change.salesperson is None else change.salesperson
    refused = model._bad_input(
        asked, day, h.kind.value, customer, "", salesperson, now, house=h.house
    )
    if refused:
        return refused
    items = [model._item(room, day, s, e) for room, s, e in asked]
    same_items = [(i.room_id, i.start, i.end) for i in items] == [
        (i.room_id, i.start, i.end) for i in h.items
    ]
    people = (customer.strip(), salesperson.strip()) != (h.customer, h.salesperson)
    if day == h.local_date and same_items and not people:
        return Refusal(Code.NO_CHANGE)
    if h.status is Status.CONFIRMED:
        others = [j for o in model.live() if o.id != h.id for j in o.items]
        if any(conflict(model.span(i), model.span(j)) for i in items for j in others):
            return Refusal(Code.EDIT_BLOCKED)
    if h.status is Status.CONFIRMED or _keeps_place(model, h, items):
        for new, old in zip(items, h.items, strict=True):
            new.rank = old.rank
        h.items, h.local_date, h.version = items, day, h.version + 1
        _people(model, h.enquiry, customer, salesperson)
        promoted = model._promote(now)
        return EditDone(h.id, True, h.rank, h.expires_at, promoted=promoted)
    return _swap(model, h, items, day, customer, salesperson, now)


def _keeps_place(model: Model, h: MHold, items: list[MItem]) -> bool:
    """The rule, from scratch: the new items meet no live hold the old ones did not, and
    with them in the hold's place every tentative item's rank is as it was or better (the
    hold's own items against their old ranks); a 1st's deadline stays before its start."""
    if len(items) != len(h.items):
        return False
    if h.expires_at is not None and h.expires_at > min(i.start for i in items):
        return False
    others = [o for o in model.live() if o.id != h.id]

    def met(mine: list[MItem]) -> set[int]:
        return {
            o.id
            for o in others
            for j in o.items
            if any(conflict(model.span(i), model.span(j)) for i in mine)
        }

    if not met(items) <= met(h.items):
        return False
    trial = copy.deepcopy(model)
    trial.holds[h.id].items = copy.deepcopy(items)
    for o in trial.holds.values():
        if not o.tentative:
            continue
        before = h.items if o.id == h.id else model.holds[o.id].items
        for item, old in zip(o.items, before, strict=True):
            assert old.rank is not None
            if trial.item_rank(item, o.id) > old.rank:
                return False
    return True


def _editable(model: Model, hold_id: int, actor: str, version: int) -> MHold | Refusal:
    h = model._actionable(hold_id, actor)
    if isinstance(h, Refusal):
        return h
    if version != h.version:
        return Refusal(Code.STALE_VERSION)
    if not h.live:
        return Refusal(Code.ALREADY_DECIDED)
    if h.status is Status.CONFIRMED and actor not in model.managers:
        return Refusal(Code.NOT_AUTHORIZED)
    return h


def _asked(model: Model, h: MHold, change: MEdit) -> list[tuple[str, int, int]] | Refusal:
    """The hold's items as (room, start, end) minutes of its date, the change applied."""
    midnight = model.local(h.local_date, 0)
    asked = [(i.room_id, _minutes(i.start - midnight), _minutes(i.end - midnight)) for i in h.items]
    moves = (change.room, change.start, change.end) != (None, None, None)
    rooms = [room for room, _, _ in asked]
    if change.item_room is not None and change.item_room not in rooms:
        return Refusal(Code.ITEM_NOT_FOUND)
    if change.item_room is None and moves and len(asked) > 1:
        return Refusal(Code.ITEM_NOT_FOUND)
    if change.item_room is None and not moves:
        return asked
    which = rooms.index(change.item_room) if change.item_room is not None else 0
    room, start, end = asked[which]
    start = start if change.start is None else change.start
    if change.end is not None:
        end = change.end if change.end > start else change.end + MINUTES_PER_DAY
    asked[which] = (change.room or room, start, end)
    return asked


def _swap(
    model: Model,
    h: MHold,
    items: list[MItem],
    day: date,
    customer: str,
    salesperson: str,
    now: datetime,
) -> EditDone | Refusal:
    """A new arrival of the same enquiry, placed as if the old hold had gone; if it is
    refused, the old hold is as it was."""
    new = MHold(
        id=max(model.holds) + 1,
        enquiry=h.enquiry,
        items=items,
        kind=h.kind,
        local_date=day,
        customer=customer.strip(),
        salesperson=salesperson.strip(),
        creator=h.creator,
        status=Status.TENTATIVE,
        rank=None,
        expires_at=None,
        house=h.house,
    )
    kept = copy.deepcopy(h)
    model._leave(h, Status.RELEASED)
    refused = model._place(new, now)
    if refused:
        model.holds[h.id] = kept
        return refused
    model.holds[new.id] = new
    _people(model, h.enquiry, customer, salesperson)
    promoted = model._promote(now)
    return EditDone(new.id, False, new.rank, new.expires_at, (h.id,), promoted)


def _people(model: Model, enquiry: int, customer: str, salesperson: str) -> None:
    """The enquiry's customer and salesperson, as every one of its holds shows them."""
    found = model.enquiries[enquiry]
    found.customer, found.salesperson = customer.strip(), salesperson.strip()
    for o in model.holds.values():
        if o.enquiry == enquiry:
            o.customer, o.salesperson = found.customer, found.salesperson


def _minutes(delta: timedelta) -> int:
    return int(delta.total_seconds() // 60)
