"""Named scenarios through the engine and the model side by side, driven by hand.

Each step still goes through the machine (``tests.support.machine``): the engine's answer
must be the model's, and the ledger, the invariants and the rows beside the holds are
checked after it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa

from core.engine import HoldEngine
from core.results import Code
from tests.support import factories
from tests.support.factories import MANAGER, NOW, SALES
from tests.support.machine import D10, D11, D12, OTHER, STRANGER, fresh, step
from tests.support.model import Accepted, Done, EditDone, MEdit, Refusal, SweepResult

MORNING = (660, 900)  # 11:00-15:00


def test_confirm_releases_the_whole_room_and_promotes_the_hold_behind_it(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """A1 is 1st, the whole room 2nd behind it, then A2 is 2nd behind the whole room only.

    Confirming A1 releases the whole room, and A2, which waited behind the released hold
    and not behind the confirmed one, becomes 1st.
    """
    m = fresh(engine, sa_engine)
    a1 = step(m, m.submit("hoo-a", D10, MORNING))
    whole = step(m, m.submit("hoo", D10, MORNING))
    a2 = step(m, m.submit("hoo-b", D10, MORNING))
    assert (a1.rank, whole.rank, a2.rank) == (1, 2, 2)
    done = step(m, m.act("confirm", a1.hold_id, "natural"))
    assert done == Done(a1.hold_id, released=(whole.hold_id,), promoted=(a2.hold_id,))
    assert m.model.holds[a2.hold_id].expires_at == NOW + timedelta(days=7)


def test_the_whole_room_is_promoted_only_when_both_halves_are_gone(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    m = fresh(engine, sa_engine)
    a1 = step(m, m.submit("hoo-a", D10, MORNING))
    a2 = step(m, m.submit("hoo-b", D10, MORNING, people=(OTHER, OTHER)))
    whole = step(m, m.submit("hoo", D10, MORNING))
    assert (a1.rank, a2.rank, whole.rank) == (1, 1, 2)
    assert step(m, m.act("release", a1.hold_id, "natural")) == Done(a1.hold_id)
    later = NOW + timedelta(hours=5)
    m.now = later
    assert step(m, m.act("release", a2.hold_id, MANAGER)) == Done(
        a2.hold_id, promoted=(whole.hold_id,)
    )
    assert m.model.holds[whole.hold_id].expires_at == later + timedelta(days=7)


def test_at_the_deadline_confirm_is_refused_and_sweep_expires_and_promotes(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """The 2nd's new deadline is counted from the sweep and capped at the event's start."""
    m = fresh(engine, sa_engine)
    first = step(m, m.submit("hoo", D10, MORNING))
    second = step(m, m.submit("hoo", D10, MORNING, people=(OTHER, OTHER)))
    assert first.expires_at == NOW + timedelta(days=7)
    m.now = first.expires_at
    assert step(m, m.act("confirm", first.hold_id, "natural")) == Refusal(Code.DEADLINE_PASSED)
    assert step(m, m.act("extend", first.hold_id, "natural")) == Refusal(Code.DEADLINE_PASSED)
    assert step(m, m.sweep()) == SweepResult((first.hold_id,), (second.hold_id,))
    start = datetime(2027, 3, 10, 11, 0, tzinfo=factories.JST)
    assert m.model.holds[second.hold_id].expires_at == start  # 8 March + 7 days is too late


def test_touching_and_past_midnight_spans(engine: HoldEngine, sa_engine: sa.Engine) -> None:
    m = fresh(engine, sa_engine, max_rank=1)
    late = step(m, m.submit("hoo", D10, (1320, 1620)))  # 22:00-03:00, span to 04:00
    assert step(m, m.submit("hoo-a", D11, (210, 300))) == Refusal(Code.RANK_TOO_LOW)  # 03:30
    touching = step(m, m.submit("hoo-a", D11, (240, 300)))  # 04:00: touches
    assert (late.rank, touching.rank) == (1, 1)
    assert step(m, m.act("confirm", late.hold_id, SALES)).released == ()
    assert step(m, m.submit("hoo-b", D11, (180, 240))) == Refusal(Code.CONFIRMED_CONFLICT)


def test_authority_and_idempotency(engine: HoldEngine, sa_engine: sa.Engine) -> None:
    m = fresh(engine, sa_engine, max_extensions=1)
    h = step(m, m.submit("sakura", D11, MORNING, people=(SALES, OTHER), key="k1"))
    assert step(m, m.submit("sakura", D12, MORNING, key="k1")) == Refusal(Code.IDEMPOTENCY_MISMATCH)
    key, req = m.keyed[0]
    assert step(m, m._request(req, key)) == Accepted(h.hold_id, 1, h.expires_at, replayed=True)
    assert step(m, m.act("confirm", h.hold_id, STRANGER)) == Refusal(Code.NOT_AUTHORIZED)
    extended = step(m, m.act("extend", h.hold_id, "creator"))
    assert extended.expires_at == datetime(2027, 3, 11, 11, 0, tzinfo=factories.JST)  # start
    assert step(m, m.act("extend", h.hold_id, MANAGER)) == Refusal(Code.EXTENSION_LIMIT)
    assert step(m, m.act("cancel", h.hold_id, MANAGER)) == Refusal(Code.NOT_CONFIRMED)
    assert step(m, m.act("confirm", None, SALES)) == Refusal(Code.HOLD_NOT_FOUND)
    assert step(m, m.act("confirm", h.hold_id, "creator")) == Done(h.hold_id)
    assert step(m, m.act("cancel", h.hold_id, SALES)) == Refusal(Code.NOT_AUTHORIZED)
    assert step(m, m.act("cancel", h.hold_id, MANAGER)) == Done(h.hold_id)
    assert step(m, m.act("release", h.hold_id, SALES)) == Refusal(Code.ALREADY_DECIDED)


# -- packages and candidate dates --------------------------------------------------------------
RECEPTION = (750, 930)  # 12:30-15:30
CHAPEL = ("chapel", (660, 720))  # 11:00-12:00, its span to 13:00


def promoted_notices(m: object, engine: HoldEngine) -> list[int | None]:
    venue = m.venue  # type: ignore[attr-defined]
    return [n.hold_id for n in engine.notices(venue.id) if n.kind == "promoted"]


def test_a_package_behind_a_single_hold_is_promoted_once_when_that_hold_lapses(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    m = fresh(engine, sa_engine)
    single = step(m, m.submit("hoo", D10, RECEPTION, people=(OTHER, OTHER)))
    package = step(m, m.submit("hoo", D10, RECEPTION, also=[CHAPEL]))
    assert (single.rank, package.rank, package.item_ranks) == (1, 2, (2, 1))
    assert package.expires_at is None  # not every item is rank 1
    m.now = single.expires_at
    swept = step(m, m.sweep())
    assert swept == SweepResult((single.hold_id,), (package.hold_id,))
    assert [i.rank for i in m.model.holds[package.hold_id].items] == [1, 1]
    assert promoted_notices(m, engine) == [m.engine_id[package.hold_id]]


def test_a_package_behind_two_holds_moves_up_only_when_both_are_gone_with_one_notice(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """Its chapel item reaches rank 1 first (and blocks the chapel), the hold stays 2nd."""
    m = fresh(engine, sa_engine)
    on_chapel = step(m, m.submit("chapel", D10, CHAPEL[1], people=(OTHER, OTHER)))
    on_hall = step(m, m.submit("hoo", D10, RECEPTION, people=(OTHER, OTHER)))
    package = step(m, m.submit("hoo", D10, RECEPTION, also=[CHAPEL]))
    assert package.item_ranks == (2, 2)
    assert step(m, m.act("release", on_chapel.hold_id, "natural")) == Done(on_chapel.hold_id)
    assert [i.rank for i in m.model.holds[package.hold_id].items] == [2, 1]
    later_chapel = step(m, m.submit("chapel", D10, CHAPEL[1]))
    assert later_chapel.rank == 2, "the waiting package's chapel item blocks the chapel"
    assert step(m, m.act("release", on_hall.hold_id, "natural")) == Done(
        on_hall.hold_id, promoted=(package.hold_id,)
    )
    assert promoted_notices(m, engine) == [m.engine_id[package.hold_id]]


def test_both_holds_ahead_lapsing_in_one_sweep_promote_the_package_once(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    m = fresh(engine, sa_engine)
    step(m, m.submit("chapel", D10, CHAPEL[1], people=(OTHER, OTHER)))
    step(m, m.submit("hoo-a", D10, RECEPTION, people=(OTHER, OTHER)))
    package = step(m, m.submit("hoo", D10, RECEPTION, also=[CHAPEL]))
    m.now = NOW + timedelta(days=7)
    swept = step(m, m.sweep())
    assert len(swept.expired) == 2 and swept.promoted == (package.hold_id,)
    assert promoted_notices(m, engine) == [m.engine_id[package.hold_id]]


def test_a_confirm_on_the_chapel_releases_a_package_whole_and_promotes_behind_its_hall(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    m = fresh(engine, sa_engine)
    chapel = step(m, m.submit("chapel", D10, CHAPEL[1], people=(OTHER, OTHER)))
    package = step(m, m.submit("hoo", D10, RECEPTION, also=[CHAPEL]))
    behind_hall = step(m, m.submit("hoo-a", D10, RECEPTION, people=(MANAGER, MANAGER)))
    assert (package.item_ranks, behind_hall.rank) == ((1, 2), 2)
    done = step(m, m.act("confirm", chapel.hold_id, "natural"))
    assert done == Done(
        chapel.hold_id, released=(package.hold_id,), promoted=(behind_hall.hold_id,)
    )
    gone = m.model.holds[package.hold_id]
    assert gone.status.value == "released" and all(i.rank is None for i in gone.items)


def test_two_candidate_dates_confirm_one_and_the_other_is_released_a_third_is_refused(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    m = fresh(engine, sa_engine)
    first = step(m, m.submit("hoo", D10, RECEPTION, also=[CHAPEL], customer="山田様"))
    second = step(m, m.join(first.enquiry, "hoo", D12, RECEPTION, also=[CHAPEL]))
    assert (second.enquiry, second.rank) == (first.enquiry, 1)
    third = step(m, m.join(first.enquiry, "sakura", D11, MORNING))
    assert third == Refusal(Code.TOO_MANY_CANDIDATES)
    someone_else = step(m, m.submit("hoo-b", D12, RECEPTION, people=(OTHER, OTHER)))
    assert someone_else.rank == 2
    done = step(m, m.act("confirm", second.hold_id, "natural"))
    assert done == Done(
        second.hold_id,
        released=(first.hold_id, someone_else.hold_id),
        candidates=(first.hold_id,),
    )
    kinds = {(n.kind, n.hold_id) for n in engine.notices(m.venue.id)}
    assert ("other_date_chosen", m.engine_id[first.hold_id]) in kinds
    assert ("lost", m.engine_id[someone_else.hold_id]) in kinds
    closed = step(m, m.join(first.enquiry, "sakura", D11, MORNING))
    assert closed == Refusal(Code.ENQUIRY_CONFIRMED)


def test_a_candidate_must_match_its_enquiry_and_its_salesperson_may_add_it(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    m = fresh(engine, sa_engine, max_candidates=3)
    first = step(m, m.submit("sakura", D10, MORNING, customer="ｻﾄｳ"))
    same_name = step(m, m.join(first.enquiry, "sakura", D11, MORNING, given=("same",) * 3))
    assert same_name.rank == 1
    for given in [("other", "omitted", "omitted"), ("omitted", "other", "omitted")]:
        assert step(m, m.join(first.enquiry, "sakura", D12, MORNING, given=given)) == Refusal(
            Code.ENQUIRY_MISMATCH
        )
    stranger = step(m, m.join(first.enquiry, "sakura", D12, MORNING, actor=STRANGER))
    assert stranger == Refusal(Code.NOT_AUTHORIZED)
    assert step(m, m.join(-1, "sakura", D12, MORNING)) == Refusal(Code.ENQUIRY_NOT_FOUND)
    assert step(m, m.join(first.enquiry, "sakura", D12, MORNING, actor=MANAGER)).rank == 1


def test_one_bad_room_refuses_the_whole_package_and_names_it(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    m = fresh(engine, sa_engine, max_rank=1)
    step(m, m.submit("chapel", D10, CHAPEL[1], people=(OTHER, OTHER)))
    taken = step(m, m.submit("hoo", D10, RECEPTION, also=[CHAPEL]))
    assert (taken, taken.room) == (Refusal(Code.RANK_TOO_LOW), "chapel")
    overlap = step(m, m.submit("hoo", D10, RECEPTION, also=[("hoo-a", (900, 960))]))
    assert (overlap, overlap.room) == (Refusal(Code.ITEMS_OVERLAP), "hoo-a")
    ghost = step(m, m.submit("hoo", D10, RECEPTION, also=[("ghost", (600, 660))]))
    assert (ghost, ghost.room) == (Refusal(Code.UNKNOWN_ROOM), "ghost")
    assert m.model.holds.keys() == {1}


def test_a_new_enquiry_for_a_customer_holding_elsewhere_is_warned_not_refused(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    m = fresh(engine, sa_engine)
    yamada = step(m, m.submit("sakura", D10, MORNING, customer="山田 様"))
    again = step(m, m.submit("sakura", D11, MORNING, customer="山田さま"))
    assert (again.rank, again.warnings) == (1, (yamada.hold_id,))
    candidate = step(m, m.join(yamada.enquiry, "sakura", D12, MORNING))
    assert candidate.warnings == ()  # the same enquiry: nothing to warn of


def test_a_waiting_whole_room_that_shrinks_to_the_free_half_moves_up_itself(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """鳳凰A is 1st; the whole room waits behind it. Shrunk to 鳳凰B (inside its old parts)
    it keeps its place and, with nobody earlier in its way, is 1st with a deadline from now;
    a swap to 鳳凰A later would be a new arrival behind nobody but A1's hold."""
    m = fresh(engine, sa_engine)
    a1 = step(m, m.submit("hoo-a", D10, MORNING))
    whole = step(m, m.submit("hoo", D10, MORNING, people=(OTHER, OTHER)))
    assert whole.rank == 2
    version = m.model.holds[whole.hold_id].version
    m.now = NOW + timedelta(hours=2)
    done = step(m, m.change(whole.hold_id, MEdit(version, room="hoo-b"), "natural"))
    assert done == EditDone(
        whole.hold_id, True, 1, m.now + timedelta(days=7), promoted=(whole.hold_id,)
    )
    version = m.model.holds[whole.hold_id].version
    moved = step(m, m.change(whole.hold_id, MEdit(version, room="hoo-a"), "natural"))
    assert isinstance(moved, EditDone) and not moved.kept_place
    assert (moved.rank, moved.released) == (2, (whole.hold_id,))
    stale = step(m, m.change(whole.hold_id, MEdit(version, end=800), "natural"))
    assert stale == Refusal(Code.STALE_VERSION)
    assert m.model.holds[a1.hold_id].rank == 1


def test_a_confirmed_booking_moves_only_where_nobody_else_holds(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    m = fresh(engine, sa_engine)
    booked = step(m, m.submit("hoo", D10, MORNING))
    step(m, m.act("confirm", booked.hold_id, "natural"))
    other = step(m, m.submit("sakura", D10, MORNING, people=(OTHER, OTHER)))
    assert other.rank == 1
    version = m.model.holds[booked.hold_id].version
    mine = step(m, m.change(booked.hold_id, MEdit(version, end=960), "natural"))
    assert mine == Refusal(Code.NOT_AUTHORIZED)
    blocked = step(m, m.change(booked.hold_id, MEdit(version, room="sakura"), MANAGER))
    assert blocked == Refusal(Code.EDIT_BLOCKED)
    moved = step(m, m.change(booked.hold_id, MEdit(version, end=960), MANAGER))
    assert moved == EditDone(booked.hold_id, True, None, None)


def test_a_house_hold_blocks_never_lapses_never_ranks_behind_and_a_manager_frees_it(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """社内押さえ through the engine and the model: 1st with no deadline, blocking like a
    1st, refused behind anything live, untouched by the sweep, released by a manager only."""
    m = fresh(engine, sa_engine)
    fair = step(m, m.submit("hoo", D10, MORNING, people=(MANAGER, MANAGER), house=True))
    assert (fair.rank, fair.expires_at) == (1, None)
    behind = step(m, m.submit("hoo-a", D10, MORNING))
    assert (behind.rank, behind.expires_at) == (2, None)
    salesperson_house = m.submit("sakura", D10, MORNING, people=(SALES, SALES), house=True)
    assert step(m, salesperson_house) == Refusal(Code.NOT_A_MANAGER)
    again = m.submit("hoo-b", D10, MORNING, people=(MANAGER, MANAGER), house=True)
    assert step(m, again) == Refusal(Code.HOUSE_NOT_FIRST)
    for op in ("confirm", "extend"):
        assert step(m, m.act(op, fair.hold_id, MANAGER)) == Refusal(Code.HOUSE_HOLD)
    m.now = NOW + timedelta(days=8)  # a wedding's 1st would have lapsed a day ago
    assert step(m, m.sweep()) == SweepResult((), ())
    m.now += timedelta(hours=1)
    assert step(m, m.act("release", fair.hold_id, SALES)) == Refusal(Code.NOT_A_MANAGER)
    done = step(m, m.act("release", fair.hold_id, MANAGER))
    assert done == Done(fair.hold_id, promoted=(behind.hold_id,))
    assert m.model.holds[behind.hold_id].expires_at is not None
