"""The engine against the model, one operation at a time: a Hypothesis state machine.

Every step runs one operation on the real engine (PostgreSQL) and on ``tests.support.model``,
an independent in-memory model of docs/rules.md, and compares the answers: accepted or
refused and the refusal code (and the room it names), rank, each item's rank, deadline,
enquiry, same-customer warnings, and the holds released (lost, or other candidate dates) /
promoted / expired / notified. Requests are of one room or of packages of several, for a new
enquiry or as another candidate date of one. After every step it checks the whole ledger
against the model (every hold's items and enquiry too), the four invariants at hold and
item level (``tests.support.invariants``) on what the engine stores, and, with SQL, the rows
beside the holds: span rows exactly for live holds' items, no two blocking span rows
overlapping on one part, the part-day ledger (every part-day a write's hold touches is
bumped, refusals and reads change nothing, each row's live-span count is the number of live
item spans on it), the outbox notices and the audit events each write must leave (and none
from a refusal).

``tests/engine/test_model_based.py`` runs it on random sequences;
``tests/engine/test_model_scenarios.py`` drives it by hand through named scenarios.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any, ClassVar

import sqlalchemy as sa
from hypothesis import currently_in_test_context, event
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from core.engine import HoldEngine
from core.model import Hold, HoldEdit, HoldRequest, ItemRequest, Kind, Policy, Status
from core.notices import CARD_RECIPIENT, QUEUED_RECIPIENT
from core.results import (
    CancelAnswer,
    ConfirmAnswer,
    ConfirmPlan,
    EditAnswer,
    EditPlan,
    ExtendAnswer,
    Preview,
    Refused,
    ReleaseAnswer,
    RequestAnswer,
    Swept,
)
from tests.support import factories, invariants
from tests.support.factories import MANAGER, NOW, SALES
from tests.support.invariants import item_blocks
from tests.support.model import (
    Accepted,
    Done,
    EditDone,
    MEdit,
    Model,
    MPolicy,
    MRoom,
    Refusal,
    SweepResult,
)

OTHER = "U0SALES002"  # another salesperson
MISSING = -1  # the model's id of an enquiry this venue does not have
STRANGER = "U0STRANGER"  # neither salesperson, creator nor manager

# Wed, Thu, Fri before the vernal equinox: no wedding priority, so banquets are open. Friday
# events that run past midnight reach Saturday. 5 June 2027 is a Saturday whose banquet
# opening (90 days before: 7 March 00:00) the clock can cross during a sequence.
D10, D11, D12, FAR_SATURDAY = (
    date(2027, 3, 10),
    date(2027, 3, 11),
    date(2027, 3, 12),
    date(2027, 6, 5),
)
DAYS = [D10, D10, D10, D11, D11, D12, FAR_SATURDAY]
ROOMS = ["hoo", "hoo", "hoo-a", "hoo-a", "hoo-b", "hoo-b", "sakura", "ghost"]
PACKAGE_ROOMS = ["chapel"] * 4 + ["hoo", "hoo-a", "hoo-b", "sakura"] * 2 + ["ghost"]
KINDS = ["wedding", "wedding", "wedding", "wedding", "banquet", "banquet", "banquet", "party"]
# (salesperson, creator)
PEOPLE = [(SALES, SALES), (SALES, SALES), (OTHER, OTHER), (SALES, OTHER), (OTHER, MANAGER)]
KEYS = [None, None, None, None, None, "k1", "k2"]
# Unique names, and names that compare as one customer (山田 / サトウ) under other enquiries.
CUSTOMERS = [None, None, None, None, "山田様", "山田　さま", "ｻﾄｳ", "サトウ様"]
# A house hold's (salesperson, creator): a manager's own, a manager's for another, and a
# salesperson's (refused: not_a_manager).
HOUSE_PEOPLE = [(MANAGER, MANAGER), (MANAGER, MANAGER), (OTHER, MANAGER), (SALES, SALES)]
# A candidate date's customer / kind / salesperson: left out, the enquiry's, or another.
GIVEN = ["omitted", "omitted", "same", "same", "other"]

# A small grid of times so that conflicts are frequent. With 60 min turnover 10:00-11:00 ends
# its span at 12:00, where a 12:00 event starts (touching, no conflict); 22:00 + 5 h and
# 23:30 + 2 h run past midnight into the next day's morning events.
STARTS = [600, 720, 840, 960, 1080, 1320, 1410]
LENGTHS = [60, 120, 180, 300, 480]
GOOD_TIMES = [(s, s + n) for s in STARTS for n in LENGTHS]
BAD_TIMES = [(720, 720), (720, 600), (600, 600 + 1441), (1440, 1500)]
TIMES = GOOD_TIMES + BAD_TIMES
BUSY_TIMES = [(s, s + n) for s in (600, 720, 840) for n in (60, 120, 240)]
# A package's rooms after the first: the chapel before a reception, a room after it, or
# (for items_overlap) on top of it.
ALSO_TIMES = [(540, 600), (600, 660), (720, 780), (900, 1020), (1080, 1200), (660, 780)]

OPS = ["confirm", "confirm", "confirm", "release", "release", "extend", "extend", "cancel"]
OPS += ["cancel", "confirm_plan"]
# "natural": the pool an operation usually acts on (confirm / extend: a 1st hold before its
# deadline; release: a tentative hold; cancel: a confirmed one) and its natural actor (the
# salesperson; for cancel a manager). The rest make refusals.
POOLS = ["natural", "natural", "natural", "natural", "first", "waiting", "confirmed", "live"]
POOLS += ["any", "foreign"]
ACTORS = ["natural", "natural", "natural", "creator", MANAGER, OTHER, STRANGER]

# Edits, relative to the item they change: (what, by). Shrinks keep the place; the others
# swap (or are refused as a request would be); "nothing" changes nothing.
EDITS = [
    ("shrink_end", 60), ("shrink_end", 60), ("shrink_start", 60), ("shrink_start", 30),
    ("grow_end", 60), ("grow_end", 120), ("earlier", 60), ("later", 120),
    ("room", "hoo-a"), ("room", "hoo"), ("room", "hoo-b"), ("room", "sakura"), ("room", "ghost"),
    ("day", D11), ("day", D12), ("customer", "佐藤様"), ("customer", " "),
    ("salesperson", OTHER), ("nothing", None), ("item", "ghost"),
]  # fmt: skip
MOVES = {"shrink_end", "shrink_start", "grow_end", "earlier", "later", "room"}
EDIT_POOLS = ["tentative", "tentative", "tentative", "waiting", "confirmed", "any"]

ADVANCE = st.one_of(
    st.integers(1, 180).map(lambda n: timedelta(minutes=n)),
    st.integers(3, 12).map(lambda n: timedelta(hours=n)),
    st.integers(12, 60).map(lambda n: timedelta(hours=n)),
)


class HoldMachine(RuleBasedStateMachine):
    engine: ClassVar[HoldEngine]
    db: ClassVar[sa.Engine]  # the same database, for SQL on the rows beside the holds
    foreign_id: ClassVar[int]  # a hold of another venue: must be "not found" here
    foreign_enquiry: ClassVar[int]  # an enquiry of another venue: "not found" here too

    def __init__(self) -> None:
        super().__init__()
        self.ready = False

    # -- set-up ----------------------------------------------------------------------------
    @initialize(
        max_rank=st.sampled_from([2, 2, 2, 1, 3]),
        wedding_days=st.sampled_from([7, 7, 2]),
        banquet_days=st.sampled_from([3, 3, 1]),
        max_extensions=st.sampled_from([1, 1, 0, 2]),
        turnover=st.sampled_from([(60, 60, 60), (60, 60, 60), (30, 60, 0), (0, 90, 60)]),
        max_items=st.sampled_from([4, 4, 4, 2]),
        max_candidates=st.sampled_from([2, 2, 1, 3]),
    )
    def set_up(
        self,
        max_rank: int,
        wedding_days: int,
        banquet_days: int,
        max_extensions: int,
        turnover: tuple[int, int, int],
        max_items: int = 4,
        max_candidates: int = 2,
    ) -> None:
        policy = Policy(
            max_rank=max_rank,
            hold_days={Kind.WEDDING: wedding_days, Kind.BANQUET: banquet_days},
            max_extensions=max_extensions,
            max_items=max_items,
            max_candidates=max_candidates,
        )
        whole, half_a, half_b = turnover
        spec = factories.venue(
            policy=policy, rooms=factories.rooms(hoo=whole, hoo_a=half_a, hoo_b=half_b)
        )
        self.venue = self.engine.save_venue(spec, now=NOW)
        self.model = Model(
            {rid: MRoom(r.parts, r.turnover_min) for rid, r in spec.rooms.items()},
            managers=spec.managers,
            policy=MPolicy(
                max_rank=max_rank,
                hold_days={"wedding": wedding_days, "banquet": banquet_days},
                max_extensions=max_extensions,
                max_items=max_items,
                max_candidates=max_candidates,
            ),
        )
        self.now = NOW
        self.engine_id: dict[int, int] = {}  # model id -> engine id
        self.model_id: dict[int, int] = {}  # engine id -> model id
        self.engine_enquiry: dict[int, int] = {MISSING: self.foreign_enquiry}  # model -> engine
        self.model_enquiry: dict[int, int] = {}  # engine enquiry id -> model enquiry id
        self.keyed: list[tuple[str, HoldRequest]] = []
        self.customers = 0
        self.ledger: dict[tuple[str, date], tuple[int, int]] = {}  # as last seen
        self.last_notice = 0
        self.last_event = 0
        self.ready = True

    # -- the clock -------------------------------------------------------------------------
    @rule(step=ADVANCE)
    def advance(self, step: timedelta) -> None:
        self.now += step

    @precondition(lambda self: self.ready and any(h.expires_at for h in self.model.firsts()))
    @rule(which=st.integers(0, 20))
    def to_a_deadline(self, which: int) -> None:
        """Land exactly on a deadline: confirm must refuse and sweep must expire."""
        ahead = sorted(
            h.expires_at
            for h in self.model.firsts()
            if h.expires_at is not None and h.expires_at >= self.now
        )
        if ahead:
            self.now = ahead[which % len(ahead)]

    # -- requests --------------------------------------------------------------------------
    @rule(
        room=st.sampled_from(ROOMS),
        day=st.sampled_from(DAYS),
        times=st.sampled_from(TIMES),
        kind=st.sampled_from(KINDS),
        people=st.sampled_from(PEOPLE),
        key=st.sampled_from(KEYS),
        customer=st.sampled_from(CUSTOMERS),
    )
    def request(
        self,
        room: str,
        day: date,
        times: tuple[int, int],
        kind: str,
        people: tuple[str, str],
        key: str | None,
        customer: str | None,
    ) -> None:
        self.submit(room, day, times, kind, people, key, customer=customer)

    @rule(
        room=st.sampled_from(["hoo", "hoo-a", "hoo-b"]),
        times=st.sampled_from(BUSY_TIMES),
        kind=st.sampled_from(["wedding", "wedding", "banquet"]),
        people=st.sampled_from(PEOPLE),
    )
    def request_busy(
        self, room: str, times: tuple[int, int], kind: str, people: tuple[str, str]
    ) -> None:
        """A valid request for the ballroom on its busiest day: conflicts are the point."""
        self.submit(room, D10, times, kind, people)

    @rule(
        room=st.sampled_from(["hoo", "hoo-a", "hoo-b", "hoo"]),
        times=st.sampled_from(BUSY_TIMES),
        also=st.lists(
            st.tuples(st.sampled_from(PACKAGE_ROOMS), st.sampled_from(ALSO_TIMES)),
            min_size=1,
            max_size=3,
        ),
        day=st.sampled_from([D10, D10, D11]),
        kind=st.sampled_from(["wedding", "wedding", "banquet"]),
        people=st.sampled_from(PEOPLE),
        key=st.sampled_from(KEYS),
        customer=st.sampled_from(CUSTOMERS),
    )
    def request_package(
        self,
        room: str,
        times: tuple[int, int],
        also: list[tuple[str, tuple[int, int]]],
        day: date,
        kind: str,
        people: tuple[str, str],
        key: str | None,
        customer: str | None,
    ) -> None:
        """A wedding as it is sold: a reception with the chapel and more rooms, as one."""
        self.submit(room, day, times, kind, people, key, also=also, customer=customer)

    @rule(
        room=st.sampled_from(["hoo", "hoo-a", "hoo-b", "sakura", "chapel"]),
        times=st.sampled_from(BUSY_TIMES),
        also=st.lists(
            st.tuples(st.sampled_from(PACKAGE_ROOMS), st.sampled_from(ALSO_TIMES)), max_size=1
        ),
        day=st.sampled_from([D10, D10, D11, FAR_SATURDAY]),
        kind=st.sampled_from(["banquet", "banquet", "wedding"]),
        people=st.sampled_from(HOUSE_PEOPLE),
        key=st.sampled_from(KEYS),
    )
    def request_house(
        self,
        room: str,
        times: tuple[int, int],
        also: list[tuple[str, tuple[int, int]]],
        day: date,
        kind: str,
        people: tuple[str, str],
        key: str | None,
    ) -> None:
        """社内押さえ: a manager holds rooms for the venue's own use (a fair), 1st or not at
        all, with no deadline (a salesperson's is refused)."""
        self.submit(
            room, day, times, kind, people, key, also=also, customer="ブライダルフェア", house=True
        )

    @precondition(lambda self: self.ready and bool(self._pool("house")))
    @rule(which=st.integers(0, 30), actor=st.sampled_from([MANAGER, MANAGER, "natural", OTHER]))
    def release_house(self, which: int, actor: str) -> None:
        """The venue is done with the room: a manager releases it (no one else may)."""
        self._decide("release", "house", which, actor)

    @precondition(lambda self: self.ready and bool(self.model.enquiries))
    @rule(
        which=st.integers(0, 30),
        room=st.sampled_from(["hoo", "hoo-a", "hoo-b", "sakura", "chapel"]),
        times=st.sampled_from(BUSY_TIMES),
        also=st.lists(
            st.tuples(st.sampled_from(PACKAGE_ROOMS), st.sampled_from(ALSO_TIMES)), max_size=2
        ),
        day=st.sampled_from([D10, D11, D12, D12]),
        given=st.tuples(*[st.sampled_from(GIVEN)] * 3),
        actor=st.sampled_from(["salesperson", "salesperson", "creator", MANAGER, STRANGER]),
        missing=st.sampled_from([False] * 9 + [True]),
        key=st.sampled_from(KEYS),
    )
    def request_candidate(
        self,
        which: int,
        room: str,
        times: tuple[int, int],
        also: list[tuple[str, tuple[int, int]]],
        day: date,
        given: tuple[str, str, str],
        actor: str,
        missing: bool,
        key: str | None,
    ) -> None:
        """Another candidate date of an enquiry (or of one this venue does not have)."""
        mine = sorted(self.model.enquiries.values(), key=lambda e: e.id)
        enquiry = mine[which % len(mine)]
        self.join(
            MISSING if missing else enquiry.id,
            room,
            day,
            times,
            also=also,
            given=given,
            actor=actor,
            key=key,
        )

    def submit(
        self,
        room: str,
        day: date,
        times: tuple[int, int],
        kind: str = "wedding",
        people: tuple[str, str] = (SALES, SALES),
        key: str | None = None,
        *,
        also: Sequence[tuple[str, tuple[int, int]]] = (),
        customer: str | None = None,
        house: bool = False,
    ) -> Accepted | Refusal:
        """A request for a new enquiry: one room, or a package with ``also``."""
        self.customers += 1
        req = HoldRequest(
            room_id=room,
            local_date=day,
            start_min=times[0],
            end_min=times[1],
            kind=kind,
            customer=customer or f"顧客{self.customers}様",
            salesperson=people[0],
            creator=people[1],
            also=tuple(ItemRequest(r, s, e) for r, (s, e) in also),
            house=house,
        )
        if key is not None:
            self.keyed.append((key, req))
        return self._request(req, key)

    def join(
        self,
        enquiry: int,
        room: str,
        day: date,
        times: tuple[int, int],
        *,
        also: Sequence[tuple[str, tuple[int, int]]] = (),
        given: tuple[str, str, str] = ("omitted", "omitted", "omitted"),
        actor: str = "salesperson",
        key: str | None = None,
    ) -> Accepted | Refusal:
        """Another candidate date of the model's ``enquiry`` (``MISSING``: not here)."""
        found = self.model.enquiries.get(enquiry)
        theirs = (
            (found.customer, found.kind.value, found.salesperson)
            if found
            else ("顧客様", "wedding", SALES)
        )
        others = ("別の顧客様", "banquet" if theirs[1] == "wedding" else "wedding", OTHER)
        values = [
            "" if how == "omitted" else (same if how == "same" else other)
            for how, same, other in zip(given, theirs, others, strict=True)
        ]
        if values[0] and given[0] == "same":  # the same customer, written another way
            values[0] = f" {values[0]} "
        creator = {
            "salesperson": found.salesperson if found else SALES,
            "creator": found.creator if found else SALES,
        }.get(actor, actor)
        req = HoldRequest(
            room_id=room,
            local_date=day,
            start_min=times[0],
            end_min=times[1],
            kind=values[1],
            customer=values[0],
            salesperson=values[2],
            creator=creator,
            also=tuple(ItemRequest(r, s, e) for r, (s, e) in also),
            enquiry_id=self.engine_enquiry[enquiry],
        )
        if key is not None:
            self.keyed.append((key, req))
        return self._request(req, key)

    @precondition(lambda self: self.ready and bool(self.keyed))
    @rule(which=st.integers(0, 20))
    def resubmit(self, which: int) -> None:
        """The modal submitted twice: the same request under the same key."""
        key, req = self.keyed[which % len(self.keyed)]
        self._request(req, key)

    def _request(self, req: HoldRequest, key: str | None) -> Accepted | Refusal:
        if key is None:
            self._preview(req)
        expected = self.model.request(
            *self._asked(req), self.now, key=key, fingerprint=_fingerprint(req), **self._joins(req)
        )
        got = self.engine.request(self.venue.id, req, now=self.now, idempotency_key=key)
        if isinstance(got, RequestAnswer) and not got.replayed:
            assert isinstance(expected, Accepted), (expected, got)
            assert all(got.hold.id > e for e in self.model_id), "ids must follow arrival order"
            self.model_id[got.hold.id] = expected.hold_id
            self.engine_id[expected.hold_id] = got.hold.id
            self.model_enquiry.setdefault(got.hold.enquiry_id, expected.enquiry)
            self.engine_enquiry.setdefault(expected.enquiry, got.hold.enquiry_id)
        outcome = self._outcome(got)
        assert outcome == expected, (req, key, self.now)
        _same_details(outcome, expected, req)
        what = "candidate" if req.enquiry_id else "package" if req.also else "request"
        what = f"house {what}" if req.house else what
        note(f"{what}: {_label(expected)}")
        if isinstance(expected, Accepted) and not expected.replayed:
            self._check_writes(
                req.creator,
                acted=[expected.hold_id],
                bumped=[expected.hold_id],
                queued=self._firsts_ahead(expected),
                request=True,
            )
        else:
            self._check_writes(None)
        return expected

    def _preview(self, req: HoldRequest) -> None:
        """The modal's live preview: the answer the request would get, nothing written."""
        expected = self.model.preview(*self._asked(req), self.now, **self._joins(req))
        got = self.engine.preview(self.venue.id, req, now=self.now)
        if isinstance(got, Preview):
            assert isinstance(expected, Accepted), (expected, got)
            assert (got.rank, got.expires_at) == (expected.rank, expected.expires_at)
            assert got.item_ranks == expected.item_ranks, (got.item_ranks, expected)
            warned = self._ids(h for w in got.warnings for h in w.holds)
            assert warned == expected.warnings, (warned, expected.warnings)
        else:
            outcome = self._outcome(got)
            assert outcome == expected, (req, self.now)
            _same_details(outcome, expected, req)
        self._check_writes(None)

    def _asked(self, req: HoldRequest) -> tuple[Any, ...]:
        """A request as the model's ``request`` and ``preview`` take it."""
        items = [(i.room_id, i.start_min, i.end_min) for i in req.items]
        return (items, req.local_date, req.kind, req.customer, req.salesperson, req.creator)

    def _joins(self, req: HoldRequest) -> dict[str, Any]:
        if req.enquiry_id is None:
            return {"note": req.note, "house": req.house}
        model = {e: m for m, e in self.engine_enquiry.items()}
        return {"enquiry": model.get(req.enquiry_id, MISSING), "note": req.note, "house": req.house}

    # -- decisions -------------------------------------------------------------------------
    @precondition(lambda self: self.ready and bool(self.model.holds))
    @rule(
        op=st.sampled_from(OPS),
        pool=st.sampled_from(POOLS),
        which=st.integers(0, 30),
        actor=st.sampled_from(ACTORS),
    )
    def decide(self, op: str, pool: str, which: int, actor: str) -> None:
        """confirm / confirm_plan / release / extend / cancel, on a hold picked from a pool."""
        self._decide(op, pool, which, actor)

    # The same on the holds they are meant for, so that the sequences go somewhere.
    @precondition(lambda self: self.ready and bool(self._pool("first in time")))
    @rule(
        op=st.sampled_from(["confirm", "confirm", "extend", "confirm_plan"]),
        which=st.integers(0, 30),
        actor=st.sampled_from(["natural", "natural", "creator", MANAGER]),
    )
    def decide_first(self, op: str, which: int, actor: str) -> None:
        self._decide(op, "first in time", which, actor)

    @precondition(lambda self: self.ready and bool(self._pool("tentative")))
    @rule(which=st.integers(0, 30), actor=st.sampled_from(["natural", "creator", MANAGER]))
    def release_tentative(self, which: int, actor: str) -> None:
        self._decide("release", "tentative", which, actor)

    @precondition(lambda self: self.ready and bool(self._pool("confirmed")))
    @rule(which=st.integers(0, 30), actor=st.sampled_from([MANAGER, MANAGER, MANAGER, SALES]))
    def cancel_confirmed(self, which: int, actor: str) -> None:
        self._decide("cancel", "confirmed", which, actor)

    def _decide(self, op: str, pool: str, which: int, actor_role: str) -> None:
        if pool == "natural":
            pool = {"release": "tentative", "cancel": "confirmed"}.get(op, "first in time")
        self.act(op, self._pick(pool, which), actor_role)

    def act(self, op: str, mid: int | None, actor_role: str) -> Done | Refusal:
        """Run ``op`` on the model's hold ``mid`` (None: another venue's hold) and compare."""
        eid = self.foreign_id if mid is None else self.engine_id[mid]
        hold = self.model.holds.get(mid) if mid is not None else None
        natural = MANAGER if op == "cancel" else hold.salesperson if hold else SALES
        actor = {
            "natural": natural,
            "creator": hold.creator if hold else SALES,
        }.get(actor_role, actor_role)
        expected = getattr(self.model, op)(mid if mid is not None else -1, actor, self.now)
        got = getattr(self.engine, op)(self.venue.id, eid, actor=actor, now=self.now)
        assert self._outcome(got) == expected, (op, mid, actor, self.now)
        note(f"{op}: {_label(expected)}")
        if op == "confirm_plan" or isinstance(expected, Refusal):
            self._check_writes(None)
        else:
            assert isinstance(expected, Done) and mid is not None
            self._check_writes(
                actor,
                acted=[mid],
                bumped=[mid],
                released=expected.released,
                promoted=expected.promoted,
                notified=expected.notified,
                candidates=expected.candidates,
                cancelled=[mid] if op == "cancel" else [],
                told=[mid] if op != "cancel" and self._other(mid, actor) else [],
            )
        return expected

    @precondition(lambda self: self.ready and bool(self._pool("due")))
    @rule()
    def sweep_due(self) -> None:
        self.sweep()

    @rule(step=ADVANCE)
    def tick(self, step: timedelta) -> None:
        """Time passes and the scheduler's sweep runs, with or without work to do."""
        self.now += step
        self.sweep()

    def sweep(self) -> SweepResult:
        expected = self.model.sweep(self.now)
        got = self.engine.sweep(self.venue.id, now=self.now)
        assert self._outcome(got) == expected, self.now
        note(f"sweep: {_label(expected)}")
        self._check_writes(
            None,
            acted=expected.expired,
            bumped=expected.expired,
            expired=expected.expired,
            promoted=expected.promoted,
        )
        return expected

    # -- edits -----------------------------------------------------------------------------
    @precondition(lambda self: self.ready and bool(self.model.holds))
    @rule(
        pool=st.sampled_from(EDIT_POOLS),
        which=st.integers(0, 30),
        item=st.integers(0, 3),
        what=st.sampled_from(EDITS),
        actor=st.sampled_from(["natural", "natural", "natural", "creator", MANAGER, OTHER]),
        stale=st.sampled_from([False] * 9 + [True]),
    )
    def edit(
        self,
        pool: str,
        which: int,
        item: int,
        what: tuple[str, Any],
        actor: str,
        stale: bool,
    ) -> None:
        """Change a hold's rooms, times or people, as the edit form would."""
        mid = self._pick(pool, which)
        assert mid is not None
        self.change(mid, _edit_of(self.model, mid, item, what, stale), actor)

    # The same on the holds and changes that make places move, so that sequences get there.
    @precondition(lambda self: self.ready and bool(self._pool("tentative")))
    @rule(
        which=st.integers(0, 30),
        item=st.integers(0, 3),
        what=st.sampled_from([e for e in EDITS if e[0] in MOVES]),
    )
    def edit_tentative(self, which: int, item: int, what: tuple[str, Any]) -> None:
        mid = self._pick("tentative", which)
        assert mid is not None
        self.change(mid, _edit_of(self.model, mid, item, what, stale=False), "natural")

    @precondition(lambda self: self.ready and bool(self._pool("confirmed")))
    @rule(which=st.integers(0, 30), what=st.sampled_from(EDITS))
    def edit_confirmed(self, which: int, what: tuple[str, Any]) -> None:
        mid = self._pick("confirmed", which)
        assert mid is not None
        self.change(mid, _edit_of(self.model, mid, 0, what, stale=False), MANAGER)

    def change(self, mid: int, change: MEdit, actor_role: str) -> EditDone | Refusal:
        """Run one edit on the model's hold ``mid`` and on the engine; compare answers, the
        preview the form showed, and what the edit wrote."""
        hold = self.model.holds[mid]
        actor = {"natural": hold.salesperson, "creator": hold.creator}.get(actor_role, actor_role)
        edit = HoldEdit(
            hold_id=self.engine_id[mid],
            version=change.version,
            actor=actor,
            item_room=change.item_room,
            room_id=change.room,
            local_date=change.day,
            start_min=change.start,
            end_min=change.end,
            customer=change.customer,
            salesperson=change.salesperson,
        )
        dry = copy.deepcopy(self.model).edit(mid, actor, self.now, change)
        planned = self.engine.edit_plan(self.venue.id, edit, now=self.now)
        if isinstance(dry, Refusal):
            assert isinstance(planned, Refused) and planned.code is dry.code, (planned, dry)
        else:
            assert isinstance(planned, EditPlan) and planned.kept_place == dry.kept_place
            if planned.rank is not None:  # a confirmed hold is not ranked
                assert (planned.rank, planned.expires_at) == (dry.rank, dry.expires_at)
            # who would become 1st: the preview names them before anything is written
            others = {self.engine_id[m] for m in dry.promoted if m != mid}
            assert set(planned.promoted) == others, (planned.promoted, dry.promoted)
        self._check_writes(None)
        expected = self.model.edit(mid, actor, self.now, change)
        got = self.engine.edit(self.venue.id, edit, now=self.now)
        if isinstance(got, EditAnswer) and isinstance(expected, EditDone) and not got.kept_place:
            assert got.hold.id > max(self.model_id), "a swap is a new arrival"
            self.model_id[got.hold.id] = expected.hold_id
            self.engine_id[expected.hold_id] = got.hold.id
        assert self._outcome(got) == expected, (mid, change, actor, self.now)
        note(f"edit: {_label(expected)}")
        if isinstance(expected, Refusal):
            self._check_writes(None)
        else:
            acted = sorted({mid, expected.hold_id})
            # Its card is redrawn (a swap's: released, replaced); a swap's new hold's card is
            # the bot's to post, as a new hold's is.
            posted = [] if expected.hold_id == mid else [expected.hold_id]
            # A hold that shrank may itself move up: its card is redrawn twice (two lines).
            again = [m for m in expected.promoted if m in acted]
            self._check_writes(
                actor,
                acted=acted,
                bumped=acted,
                promoted=expected.promoted,
                posted=posted,
                again=again,
                told=[expected.hold_id] if self._other(expected.hold_id, actor) else [],
            )
        return expected

    def _other(self, mid: int, actor: str) -> bool:
        """Someone other than the hold's salesperson acts on it (they are told)."""
        return actor != self.model.holds[mid].salesperson

    # -- after every step ------------------------------------------------------------------
    @invariant()
    def ledger_agrees(self) -> None:
        if not self.ready:
            return
        listed = self.engine.holds(self.venue.id)
        assert isinstance(listed, list), listed
        by_id = {self.model_id.get(h.id, ("unknown", h.id)): h for h in listed}
        assert set(by_id) == set(self.model.holds)
        for mid, m in self.model.holds.items():
            e = by_id[mid]
            assert (e.local_date, e.kind, e.customer, e.salesperson, e.creator) == (
                m.local_date,
                m.kind,
                m.customer,
                m.salesperson,
                m.creator,
            ), mid
            assert self.model_enquiry.get(e.enquiry_id) == m.enquiry, (mid, e.enquiry_id)
            items = [(i.room_id, i.start_at, i.end_at, i.span_end, i.rank) for i in e.items]
            want = [(i.room_id, i.start, i.end, i.span_end, i.rank) for i in m.items]
            assert items == want, (mid, items, want)
            assert (e.status, e.rank, e.expires_at, e.extensions_used, e.version, e.house) == (
                m.status,
                m.rank,
                m.expires_at,
                m.extensions_used,
                m.version,
                m.house,
            ), (mid, self.now)
        invariants.check_holds(listed, self.venue.policy.max_rank)
        self._check_rows(listed)

    # -- helpers ---------------------------------------------------------------------------
    def _pool(self, pool: str) -> list[Any]:
        holds = sorted(self.model.holds.values(), key=lambda h: h.id)
        return {
            "first in time": [h for h in holds if h.first and self.now < (h.expires_at or NOW)],
            "first": [h for h in holds if h.first],
            "due": [h for h in holds if h.first and h.expires_at and h.expires_at <= self.now],
            "house": [h for h in holds if h.house and h.tentative],
            "tentative": [h for h in holds if h.tentative],
            "waiting": [h for h in holds if h.tentative and (h.rank or 0) > 1],
            "confirmed": [h for h in holds if h.status is Status.CONFIRMED],
            "live": [h for h in holds if h.live],
            "any": holds,
            "foreign": [],
        }[pool]

    def _pick(self, pool: str, which: int) -> int | None:
        chosen = self._pool(pool) or ([] if pool == "foreign" else self._pool("any"))
        return chosen[which % len(chosen)].id if chosen else None

    def _mid(self, hold: Hold | int) -> object:
        eid = hold if isinstance(hold, int) else hold.id
        return self.model_id.get(eid, ("unknown engine id", eid))

    def _ids(self, holds: Any) -> tuple[object, ...]:
        mids = [self._mid(h) for h in holds]
        known = sorted(m for m in mids if isinstance(m, int))
        return (*known, *(m for m in mids if not isinstance(m, int)))

    def _outcome(self, got: object) -> object:
        """The engine's answer in the model's terms (hold ids translated to the model's)."""
        match got:
            case Refused():
                return Refusal(got.code, room=got.room)
            case RequestAnswer():
                return Accepted(
                    self._mid(got.hold),
                    got.rank,
                    got.expires_at,
                    got.replayed,
                    enquiry=self.model_enquiry.get(got.hold.enquiry_id, -2),
                    item_ranks=got.item_ranks,
                    warnings=self._ids(h for w in got.warnings for h in w.holds),
                )
            case Swept():
                return SweepResult(self._ids(got.expired), self._ids(got.promoted))
            case EditAnswer():
                return EditDone(
                    self._mid(got.hold),
                    got.kept_place,
                    got.hold.rank,
                    got.hold.expires_at,
                    self._ids(got.released),
                    self._ids(got.promoted),
                )
        return self._decision(got)

    def _decision(self, got: object) -> Done:
        candidates: Any = ()
        match got:
            case ConfirmAnswer():
                released, promoted, candidates = got.released, got.promoted, got.candidates
            case ConfirmPlan():
                released, promoted = got.would_release, got.would_promote
                candidates = got.candidates
            case ReleaseAnswer() | CancelAnswer():
                released, promoted = (), got.promoted
            case ExtendAnswer():
                return Done(
                    self._mid(got.hold),
                    notified=self._ids(got.notified),
                    expires_at=got.hold.expires_at,
                )
            case _:
                raise AssertionError(f"unexpected answer {got!r}")
        return Done(
            self._mid(got.hold),
            released=self._ids(released),
            promoted=self._ids(promoted),
            candidates=self._ids(candidates),
        )

    def _firsts_ahead(self, accepted: Accepted) -> list[int]:
        """The 1st holds a new waiting hold queued behind: each salesperson is told once."""
        if accepted.rank == 1:
            return []
        new = self.model.holds[accepted.hold_id]

        def meets(a: Any, b: Any) -> bool:
            return bool(a.parts & b.parts) and a.start < b.span_end and b.start < a.span_end

        return [
            m
            for m, h in self.model.holds.items()
            if m != accepted.hold_id
            and h.first
            and any(meets(i, j) for i in h.items for j in new.items)
        ]

    def _answerable(self, mid: int) -> bool:
        """A promoted hold is DMed only if its new deadline is still ahead of it."""
        expires = self.model.holds[mid].expires_at
        return expires is not None and expires > self.now

    def _check_writes(
        self,
        actor: str | None,
        *,
        acted: Any = (),
        bumped: Any = (),
        released: Any = (),
        promoted: Any = (),
        expired: Any = (),
        notified: Any = (),
        candidates: Any = (),
        queued: Any = (),
        request: bool = False,
        cancelled: Any = (),
        posted: Any = (),
        again: Any = (),
        told: Any = (),
    ) -> None:
        """What a write leaves beside the holds: ledger bumps, outbox notices, audit events.
        Every hold a decision, an edit or a sweep changes gets one card row (its card
        redrawn); a new hold none (the bot posts its card), nor ``posted``, a swap's new hold.

        ``actor=None`` and nothing acted on means a refusal or a read: nothing may change.
        """
        named = self._resolve_queued(acted if request else ())
        with self.db.connect() as conn:
            ledger = self._ledger(conn)
            notices = conn.execute(
                sa.text(
                    "SELECT id, kind, hold_id, recipient FROM outbox"
                    " WHERE venue_id = :v AND id > :after AND recipient <> :named ORDER BY id"
                ),
                {"v": self.venue.id, "after": self.last_notice, "named": QUEUED_RECIPIENT},
            ).all()
            events = conn.execute(
                sa.text(
                    "SELECT id, hold_id, actor, at FROM audit_events"
                    " WHERE venue_id = :v AND id > :after ORDER BY id"
                ),
                {"v": self.venue.id, "after": self.last_event},
            ).all()
        if not acted and actor is None and not promoted:
            assert ledger == self.ledger, "a refusal or a read changed the part-day ledger"
        for mid in bumped:
            for key in {
                k for i in self.model.holds[mid].items for k in part_days(i, self.model.tz)
            }:
                before = self.ledger.get(key, (0, 0))[0]
                assert ledger.get(key, (0, 0))[0] > before, ("not bumped", key, mid)
        self.ledger = ledger

        def notice(kind: str, mid: int) -> tuple[str, int, str]:
            return (kind, mid, self.model.holds[mid].salesperson)

        lost = [m for m in released if m not in set(candidates)]
        want = Counter(
            [notice("lost", m) for m in lost]
            + [notice("other_date_chosen", m) for m in candidates]
            + [notice("promoted", m) for m in promoted if self._answerable(m)]
            + [notice("expired", m) for m in expired]
            + [notice("extended", m) for m in notified]
            + [notice("queued", m) for m in queued]
            + [notice("cancelled", m) for m in cancelled]
            # someone else acted on the hold: its salesperson is told (docs/rules.md)
            + [notice("acted_for", m) for m in told]
        )
        # Every hold a decision or a sweep changed has its card redrawn; a new hold's card
        # is the bot's to post (its request is not announced here).
        carded = {*released, *promoted, *expired} | (set() if request else set(acted) - {*posted})
        want.update(("card", m, CARD_RECIPIENT) for m in [*carded, *again])
        have = Counter((n.kind, self._mid(n.hold_id), n.recipient) for n in notices)
        assert have == want, ("outbox", have, want)
        if notices or named:
            self.last_notice = max([n.id for n in notices] + named)

        touched = set(acted) | set(released) | set(promoted) | set(expired)
        seen = {self._mid(e.hold_id) for e in events}
        assert touched <= seen, ("audit events missing", touched - seen)
        assert seen <= touched, ("audit events for holds not acted on", seen - touched)
        for e in events:
            assert e.at == self.now, ("audit time", e)
            if actor is not None and self._mid(e.hold_id) in acted:
                assert e.actor == actor, ("audit actor", e, actor)
        if events:
            self.last_event = events[-1].id

    def _resolve_queued(self, acted: Any) -> list[int]:
        """Resolve, as delivery would at once, the rows a queued hold leaves naming the holds
        ahead of it (only a request's new hold leaves one); their ids."""
        with self.db.connect() as conn:
            named = conn.execute(
                sa.text(
                    "SELECT id, hold_id FROM outbox WHERE venue_id = :v AND id > :after"
                    " AND recipient = :named ORDER BY id"
                ),
                {"v": self.venue.id, "after": self.last_notice, "named": QUEUED_RECIPIENT},
            ).all()
        assert {self._mid(n.hold_id) for n in named} <= set(acted), ("queued rows", named)
        for row in named:
            assert self.engine.resolve_queued(self.venue.id, row.id, now=self.now) is not None
        return [row.id for row in named]

    def _check_rows(self, listed: list[Hold]) -> None:
        """SQL on the span rows: exactly one per part of each live hold, blocking ones apart."""
        with self.db.connect() as conn:
            rows = {
                tuple(row)
                for row in conn.execute(
                    sa.text(
                        "SELECT hold_id, item_no, part_id, starts_at, ends_at, blocking"
                        " FROM hold_spans WHERE venue_id = :v"
                    ),
                    {"v": self.venue.id},
                )
            }
            overlapping = conn.execute(
                sa.text(
                    "SELECT a.hold_id, b.hold_id, a.part_id FROM hold_spans a"
                    " JOIN hold_spans b ON b.venue_id = a.venue_id AND b.part_id = a.part_id"
                    " AND a.hold_id < b.hold_id"
                    " AND tstzrange(a.starts_at, a.ends_at, '[)')"
                    " && tstzrange(b.starts_at, b.ends_at, '[)')"
                    " WHERE a.venue_id = :v AND a.blocking AND b.blocking"
                ),
                {"v": self.venue.id},
            ).all()
            count = conn.execute(
                sa.text("SELECT count(*) FROM holds WHERE venue_id = :v"), {"v": self.venue.id}
            ).scalar_one()
            ledger = self._ledger(conn)
        assert count == len(listed) == len(self.model.holds)
        assert not overlapping, ("blocking spans overlap", overlapping)
        want = {
            (h.id, n, part, i.start_at, i.span_end, item_blocks(h, i))
            for h in listed
            if h.status in (Status.TENTATIVE, Status.CONFIRMED)
            for n, i in enumerate(h.items, start=1)
            for part in i.parts
        }
        assert rows == want, ("hold_spans", rows ^ want)
        # Every part-day a hold ever touched was bumped; each row counts the live spans on it.
        live: Counter[tuple[str, date]] = Counter()
        for h in self.model.holds.values():
            for item in h.items:
                for key in part_days(item, self.model.tz):
                    assert ledger.get(key, (0, 0))[0] > 0, ("part-day never bumped", key, h.id)
                    live[key] += h.live
        counts = {key: spans for key, (_, spans) in ledger.items() if spans}
        assert counts == {key: n for key, n in live.items() if n}, ("live_spans", counts, live)

    def _ledger(self, conn: sa.Connection) -> dict[tuple[str, date], tuple[int, int]]:
        """(part, day) -> (version, live spans) of the rows ever bumped (made ahead: 0, 0)."""
        rows = conn.execute(
            sa.text(
                "SELECT part_id, day, version, live_spans FROM part_days"
                " WHERE venue_id = :v AND (version <> 0 OR live_spans <> 0)"
            ),
            {"v": self.venue.id},
        )
        return {(part, day): (version, spans) for part, day, version, spans in rows}


def note(label: str) -> None:
    """A statistics event (``--hypothesis-show-statistics``); scenario tests run outside."""
    if currently_in_test_context():
        event(label)


def _label(answer: object) -> str:
    """A coarse name of an answer, for ``--hypothesis-show-statistics``."""
    match answer:
        case Refusal():
            return answer.code.value
        case Accepted():
            return "replayed" if answer.replayed else f"rank {answer.rank}"
        case Done():
            moved = ["released"] * bool(answer.released) + ["promoted"] * bool(answer.promoted)
            moved += ["candidates"] * bool(answer.candidates)
            return " ".join(["done", *moved])
        case EditDone():
            kept = "kept place" if answer.kept_place else "swapped"
            return f"{kept} rank {answer.rank}" + " promoted" * bool(answer.promoted)
        case SweepResult():
            return (
                f"expired {min(len(answer.expired), 2)}+ promoted {min(len(answer.promoted), 2)}+"
            )
    return type(answer).__name__


def _edit_of(model: Model, mid: int, item: int, what: tuple[str, Any], stale: bool) -> MEdit:
    """An edit of the model's hold ``mid``: ``what`` applied to its item number ``item``
    (named by room when the hold has several), at its version (or a stale one)."""
    hold = model.holds[mid]
    version = hold.version + (-1 if hold.version > 1 else 1) if stale else hold.version
    chosen = hold.items[item % len(hold.items)]
    midnight = model.local(hold.local_date, 0)
    start = int((chosen.start - midnight).total_seconds() // 60)
    end = int((chosen.end - midnight).total_seconds() // 60)
    named = chosen.room_id if len(hold.items) > 1 else None
    how, by = what
    if how in ("shrink_end", "shrink_start", "grow_end", "earlier", "later"):
        moved = {
            "shrink_end": (start, end - by),
            "shrink_start": (start + by, end),
            "grow_end": (start, end + by),
            "earlier": (start - by, end - by),
            "later": (start + by, end + by),
        }[how]
        return MEdit(version, item_room=named, start=moved[0], end=moved[1])
    if how == "room":
        return MEdit(version, item_room=named, room=by)
    if how == "item":
        return MEdit(version, item_room=by, start=start)
    if how == "day":
        return MEdit(version, day=by)
    if how in ("customer", "salesperson"):
        return MEdit(version, **{how: by})
    return MEdit(version)


def _same_details(got: object, expected: object, req: HoldRequest) -> None:
    """What ``==`` leaves out of a request's answer: the room a refusal names, the enquiry,
    each item's rank and the same-customer warnings of an acceptance."""
    if isinstance(expected, Refusal):
        assert isinstance(got, Refusal) and got.room == expected.room, (got, expected, req)
    if isinstance(expected, Accepted):
        assert isinstance(got, Accepted), (got, expected)
        details = (got.enquiry, got.item_ranks, got.warnings)
        wanted = (expected.enquiry, expected.item_ranks, expected.warnings)
        assert details == wanted, (details, wanted, req)


def _fingerprint(req: HoldRequest) -> tuple[object, ...]:
    return tuple(sorted(req.__dict__.items()))


def part_days(item: Any, tz: Any) -> set[tuple[str, date]]:
    """The (part, venue-local day) ledger rows an item's span ``[start, span_end)`` touches."""
    first = item.start.astimezone(tz).date()
    last = (item.span_end - timedelta(microseconds=1)).astimezone(tz).date()
    days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
    return {(p, d) for p in item.parts for d in days}


def bound(engine: HoldEngine, db: sa.Engine) -> type[HoldMachine]:
    """The machine class wired to ``engine``, with a hold (and its enquiry) in another venue
    to look for."""
    foreign = engine.save_venue(factories.venue(), now=NOW)
    other = engine.request(foreign.id, factories.request(), now=NOW)
    assert isinstance(other, RequestAnswer)
    wired = {
        "engine": engine,
        "db": db,
        "foreign_id": other.hold.id,
        "foreign_enquiry": other.hold.enquiry_id,
    }
    return type("BoundHoldMachine", (HoldMachine,), wired)


def fresh(engine: HoldEngine, db: sa.Engine, **policy: Any) -> HoldMachine:
    """A machine driven by hand: every step still compares engine and model and checks."""
    machine = bound(engine, db)()
    defaults = {"max_rank": 2, "wedding_days": 7, "banquet_days": 3, "max_extensions": 1}
    machine.set_up(**{**defaults, **policy}, turnover=(60, 60, 60))
    machine.ledger_agrees()
    return machine


def step(machine: HoldMachine, result: Any) -> Any:
    machine.ledger_agrees()
    return result
