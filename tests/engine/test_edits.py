"""Changing a hold (docs/rules.md, Changing a hold): an edit that takes nobody's place keeps
it and the deadline, anything else is an atomic swap; stale forms, confirmed holds, packages,
trail."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa

from core.engine import HoldEngine
from core.model import HoldEdit, ItemRequest, Status, Venue
from core.results import Code, EditAnswer, EditPlan, Refused
from tests.engine.test_operations import accepted, footprint, refused
from tests.support import invariants
from tests.support.factories import JST, MANAGER, NOW, SALES, later, minutes, request

OTHER = "U0SALES002"
DAY = date(2027, 3, 10)


def change(engine: HoldEngine, venue: Venue, hold_id: int, **fields: Any) -> HoldEdit:
    """An edit of the hold at the version it has now, by its salesperson unless told."""
    found = engine.hold(venue.id, hold_id)
    assert not isinstance(found, Refused)
    for name in ("start", "end"):
        if name in fields:
            fields[f"{name}_min"] = minutes(fields.pop(name))
    fields.setdefault("actor", SALES)
    return HoldEdit(hold_id=hold_id, version=found.version, **fields)


def at(instant: datetime) -> str:
    return instant.astimezone(JST).strftime("%H:%M")


def edited(result: EditAnswer | Refused) -> EditAnswer:
    assert isinstance(result, EditAnswer), result
    return result


def test_a_shrink_keeps_the_place_the_id_and_the_deadline(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    first = accepted(engine.request(venue.id, request(start="11:00", end="15:00"), now=NOW))
    second = accepted(engine.request(venue.id, request(salesperson=OTHER), now=NOW))
    plan = engine.edit_plan(venue.id, change(engine, venue, first.hold.id, start="12:00"), now=NOW)
    assert isinstance(plan, EditPlan) and plan.kept_place and plan.rank == 1
    done = edited(
        engine.edit(
            venue.id,
            change(engine, venue, first.hold.id, start="12:00", end="14:00"),
            now=later(hours=5),
        )
    )
    assert done.kept_place and done.released == () and done.promoted == ()
    assert done.hold.id == first.hold.id
    assert (done.hold.rank, done.hold.expires_at) == (1, first.expires_at)
    assert (at(done.hold.start_at), at(done.hold.end_at)) == ("12:00", "14:00")
    assert done.hold.version == first.hold.version + 1
    after = engine.hold(venue.id, second.hold.id)
    assert not isinstance(after, Refused) and after.rank == 2  # still behind: they overlap
    invariants.check(sa_engine, venue)


def test_a_shrink_that_frees_a_span_promotes_who_waited_for_it(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    first = accepted(
        engine.request(venue.id, request(room="hoo", start="11:00", end="15:00"), now=NOW)
    )
    half = accepted(engine.request(venue.id, request(room="hoo-b", salesperson=OTHER), now=NOW))
    assert half.rank == 2
    # 鳳凰の間 shrinks to 鳳凰A: its parts inside the old ones, so it keeps its place.
    done = edited(
        engine.edit(venue.id, change(engine, venue, first.hold.id, room_id="hoo-a"), now=NOW)
    )
    assert done.kept_place and done.hold.room_id == "hoo-a" and done.hold.rank == 1
    assert [h.id for h in done.promoted] == [half.hold.id]
    assert done.promoted[0].expires_at is not None
    invariants.check(sa_engine, venue)


def test_a_grow_that_meets_nobody_new_keeps_the_1st_place_and_who_waits_still_waits(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    # The week's 松本様 / 井上様: 30 minutes longer over a slot where only its own 2nd waits.
    first = accepted(engine.request(venue.id, request(start="11:00", end="14:00"), now=NOW))
    second = accepted(engine.request(venue.id, request(salesperson=OTHER), now=NOW))
    edit = change(engine, venue, first.hold.id, end="14:30")
    plan = engine.edit_plan(venue.id, edit, now=NOW)
    assert isinstance(plan, EditPlan) and plan.kept_place and plan.would == "keep"
    assert (plan.rank, plan.expires_at, plan.promoted) == (1, first.expires_at, ())
    done = edited(engine.edit(venue.id, replace(edit, may_lose_first=False), now=later(hours=1)))
    assert done.kept_place and done.hold.id == first.hold.id
    assert (done.hold.rank, done.hold.expires_at) == (1, first.expires_at)
    assert at(done.hold.end_at) == "14:30" and done.promoted == () and done.released == ()
    after = engine.hold(venue.id, second.hold.id)
    assert not isinstance(after, Refused)
    assert (after.rank, after.version) == (2, second.hold.version)
    invariants.check(sa_engine, venue)


def test_a_move_clear_of_who_it_waited_behind_keeps_its_id_and_becomes_1st(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    ahead = accepted(engine.request(venue.id, request(salesperson=OTHER), now=NOW))
    mine = accepted(engine.request(venue.id, request(), now=NOW))
    assert mine.rank == 2
    moved_at = later(days=1)
    edit = change(engine, venue, mine.hold.id, room_id="sakura")
    plan = engine.edit_plan(venue.id, edit, now=moved_at)
    assert isinstance(plan, EditPlan) and plan.kept_place and plan.rank == 1
    assert plan.expires_at == later(moved_at, days=7)
    done = edited(engine.edit(venue.id, edit, now=moved_at))
    assert done.kept_place and done.hold.id == mine.hold.id and done.hold.room_id == "sakura"
    assert (done.hold.rank, done.hold.expires_at) == (1, plan.expires_at)
    found = engine.hold(venue.id, ahead.hold.id)
    assert not isinstance(found, Refused) and found.rank == 1
    invariants.check(sa_engine, venue)


def test_a_move_onto_another_hold_is_a_swap_and_costing_the_1st_needs_a_yes(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    first = accepted(engine.request(venue.id, request(end="13:00"), now=NOW))
    second = accepted(engine.request(venue.id, request(end="13:00", salesperson=OTHER), now=NOW))
    there = accepted(
        engine.request(venue.id, request(room="sakura", end="13:00", salesperson=OTHER), now=NOW)
    )
    edit = change(engine, venue, first.hold.id, room_id="sakura")
    plan = engine.edit_plan(venue.id, edit, now=NOW)
    assert isinstance(plan, EditPlan) and not plan.kept_place and plan.would == "swap"
    assert plan.loses_first and plan.rank == 2
    assert [h.id for h in plan.ahead] == [there.hold.id]
    assert plan.promoted == (second.hold.id,)
    before = footprint(sa_engine, venue)
    no = refused(
        engine.edit(venue.id, replace(edit, may_lose_first=False), now=NOW), Code.WOULD_LOSE_FIRST
    )
    assert no.rank == 2 and [h.id for h in no.holders] == [there.hold.id]
    assert footprint(sa_engine, venue) == before
    done = edited(engine.edit(venue.id, edit, now=NOW))
    assert not done.kept_place and done.hold.id > there.hold.id
    assert (done.hold.rank, done.hold.expires_at) == (2, None)
    assert done.hold.enquiry_id == first.hold.enquiry_id  # the same customer's case
    assert [h.id for h in done.released] == [first.hold.id]
    assert done.released[0].status is Status.RELEASED
    assert [h.id for h in done.promoted] == [second.hold.id]
    assert [h.id for h in done.ahead] == [there.hold.id]
    invariants.check(sa_engine, venue)


def test_a_later_1st_that_would_wait_behind_the_edit_makes_it_a_swap(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    # 鳳凰A and 鳳凰B are 1st side by side; 鳳凰A's hold grows to the whole 鳳凰の間: it meets
    # the later hold on 鳳凰B, which would wait behind it in its old place: a swap, 2nd.
    mine = accepted(engine.request(venue.id, request(room="hoo-a", end="13:00"), now=NOW))
    other = accepted(
        engine.request(venue.id, request(room="hoo-b", end="13:00", salesperson=OTHER), now=NOW)
    )
    assert (mine.rank, other.rank) == (1, 1)
    edit = change(engine, venue, mine.hold.id, room_id="hoo")
    plan = engine.edit_plan(venue.id, edit, now=NOW)
    assert isinstance(plan, EditPlan) and not plan.kept_place and plan.rank == 2
    assert plan.loses_first and [h.id for h in plan.ahead] == [other.hold.id]
    invariants.check(sa_engine, venue)


def test_a_refused_swap_changes_nothing_and_says_why(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    mine = accepted(engine.request(venue.id, request(room="sakura"), now=NOW))
    accepted(engine.request(venue.id, request(room="hoo", salesperson=OTHER), now=NOW))
    accepted(engine.request(venue.id, request(room="hoo", salesperson=OTHER), now=NOW))
    before = footprint(sa_engine, venue)
    edit = change(engine, venue, mine.hold.id, room_id="hoo")
    refusal = refused(engine.edit(venue.id, edit, now=NOW), Code.RANK_TOO_LOW)
    assert refusal.rank == 3 and refusal.limit == 2
    assert footprint(sa_engine, venue) == before
    assert engine.hold(venue.id, mine.hold.id) == mine.hold
    refused(engine.edit_plan(venue.id, edit, now=NOW), Code.RANK_TOO_LOW)
    invariants.check(sa_engine, venue)


def test_a_stale_form_is_refused_and_a_resubmission_too(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    hold = accepted(engine.request(venue.id, request(), now=NOW)).hold
    edit = change(engine, venue, hold.id, end="14:00")
    edited(engine.edit(venue.id, edit, now=NOW))
    before = footprint(sa_engine, venue)
    stale = refused(engine.edit(venue.id, edit, now=NOW), Code.STALE_VERSION)
    assert stale.hold is not None and stale.hold.version == edit.version + 1
    refused(engine.edit_plan(venue.id, edit, now=NOW), Code.STALE_VERSION)
    assert footprint(sa_engine, venue) == before


def test_a_promotion_makes_an_open_form_stale(engine: HoldEngine, venue: Venue) -> None:
    first = accepted(engine.request(venue.id, request(), now=NOW))
    second = accepted(engine.request(venue.id, request(salesperson=OTHER), now=NOW))
    edit = change(engine, venue, second.hold.id, actor=OTHER, end="14:00")
    engine.release(venue.id, first.hold.id, actor=SALES, now=NOW)
    refused(engine.edit(venue.id, edit, now=NOW), Code.STALE_VERSION)


def test_who_may_edit_and_what_is_not_an_edit(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    hold = accepted(engine.request(venue.id, request(), now=NOW)).hold
    before = footprint(sa_engine, venue)
    refused(
        engine.edit(venue.id, change(engine, venue, hold.id, actor=OTHER, end="14:00"), now=NOW),
        Code.NOT_AUTHORIZED,
    )
    refused(engine.edit(venue.id, change(engine, venue, hold.id), now=NOW), Code.NO_CHANGE)
    refused(
        engine.edit(venue.id, change(engine, venue, hold.id, start="16:00"), now=NOW),
        Code.BAD_TIMES,
    )
    refused(
        engine.edit(venue.id, change(engine, venue, hold.id, room_id="nowhere"), now=NOW),
        Code.UNKNOWN_ROOM,
    )
    refused(
        engine.edit(venue.id, change(engine, venue, hold.id, customer=" "), now=NOW),
        Code.BAD_CUSTOMER,
    )
    refused(
        engine.edit(
            venue.id, change(engine, venue, hold.id, item_room="chapel", end="14:00"), now=NOW
        ),
        Code.ITEM_NOT_FOUND,
    )
    refused(
        engine.edit(
            venue.id, HoldEdit(hold_id=10**9, version=1, actor=SALES, end_min=600), now=NOW
        ),
        Code.HOLD_NOT_FOUND,
    )
    assert footprint(sa_engine, venue) == before
    edited(
        engine.edit(venue.id, change(engine, venue, hold.id, actor=MANAGER, end="14:00"), now=NOW)
    )


def test_people_only_keep_the_place_and_change_the_enquiry(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    hold = accepted(engine.request(venue.id, request(customer="山田様"), now=NOW)).hold
    done = edited(
        engine.edit(
            venue.id,
            change(engine, venue, hold.id, customer="山田・佐藤様", note="両家", salesperson=OTHER),
            now=NOW,
        )
    )
    assert done.kept_place and done.hold.id == hold.id and done.hold.expires_at == hold.expires_at
    assert (done.hold.customer, done.hold.note, done.hold.salesperson) == (
        "山田・佐藤様",
        "両家",
        OTHER,
    )
    invariants.check(sa_engine, venue)


def test_a_confirmed_hold_is_moved_by_a_manager_only_where_nobody_else_is(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    hold = accepted(engine.request(venue.id, request(room="hoo"), now=NOW)).hold
    engine.confirm(venue.id, hold.id, actor=SALES, now=NOW)
    other = accepted(engine.request(venue.id, request(room="sakura", salesperson=OTHER), now=NOW))
    refused(
        engine.edit(venue.id, change(engine, venue, hold.id, end="16:00"), now=NOW),
        Code.NOT_AUTHORIZED,
    )
    before = footprint(sa_engine, venue)
    blocked = refused(
        engine.edit(
            venue.id, change(engine, venue, hold.id, actor=MANAGER, room_id="sakura"), now=NOW
        ),
        Code.EDIT_BLOCKED,
    )
    assert [h.id for h in blocked.holders] == [other.hold.id]
    assert footprint(sa_engine, venue) == before
    done = edited(
        engine.edit(venue.id, change(engine, venue, hold.id, actor=MANAGER, end="17:00"), now=NOW)
    )
    assert done.kept_place and done.hold.id == hold.id and done.hold.status is Status.CONFIRMED
    assert at(done.hold.end_at) == "17:00"
    # Its new span blocks: a request there now meets a confirmed hold.
    refused(
        engine.request(venue.id, request(room="hoo-a", start="16:30", end="18:00"), now=NOW),
        Code.CONFIRMED_CONFLICT,
    )
    invariants.check(sa_engine, venue)


def test_the_item_of_a_package_is_picked_by_its_room(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    package = replace(
        request(room="hoo-a", start="12:30", end="15:30"), also=(ItemRequest("chapel", 660, 720),)
    )
    hold = accepted(engine.request(venue.id, package, now=NOW)).hold
    refused(
        engine.edit(venue.id, change(engine, venue, hold.id, end="15:00"), now=NOW),
        Code.ITEM_NOT_FOUND,
    )
    done = edited(
        engine.edit(
            venue.id, change(engine, venue, hold.id, item_room="チャペル", start="11:15"), now=NOW
        )
    )
    assert done.kept_place and [at(i.start_at) for i in done.hold.items] == ["12:30", "11:15"]
    moved = edited(
        engine.edit(
            venue.id,
            change(engine, venue, hold.id, local_date=date(2027, 3, 11)),
            now=NOW,
        )
    )
    # A free date: it meets nobody there, so the package keeps its id and its place.
    assert moved.kept_place and moved.hold.id == hold.id
    assert moved.hold.local_date == date(2027, 3, 11)
    assert [(i.room_id, at(i.start_at)) for i in moved.hold.items] == [
        ("hoo-a", "12:30"),
        ("chapel", "11:15"),
    ]
    invariants.check(sa_engine, venue)


def test_the_trail_records_before_and_after(engine: HoldEngine, venue: Venue) -> None:
    hold = accepted(engine.request(venue.id, request(start="11:00", end="15:00"), now=NOW)).hold
    kept = edited(engine.edit(venue.id, change(engine, venue, hold.id, end="14:00"), now=NOW))
    # 16:00 (with its turnover) meets a hold that starts at 16:30: a swap.
    accepted(engine.request(venue.id, request(start="16:30", end="20:00"), now=NOW))
    swapped = edited(engine.edit(venue.id, change(engine, venue, hold.id, end="16:00"), now=NOW))
    trail = engine.trail(venue.id, hold.id)
    assert [e.action for e in trail] == ["requested", "edited", "edited"]
    shrink, swap = trail[1].detail, trail[2].detail
    assert shrink["kept_place"] is True and shrink["now_id"] == hold.id
    assert shrink["before"]["items"][0]["end_at"] == hold.end_at.isoformat()
    assert shrink["after"]["items"][0]["end_at"] == kept.hold.end_at.isoformat()
    assert swap["kept_place"] is False and swap["now_id"] == swapped.hold.id
    assert swap["after"]["items"][0]["end_at"] == swapped.hold.end_at.isoformat()
    new_trail = engine.trail(venue.id, swapped.hold.id)
    assert new_trail[0].action == "requested" and new_trail[0].detail["replaces"] == hold.id
