"""Changing a hold (docs/rules.md, Changing a hold): a shrink keeps the place and the
deadline, anything else is an atomic swap; stale forms, confirmed holds, packages, trail."""

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


def test_a_grow_is_a_swap_a_new_arrival_behind_who_waited_and_they_move_up(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    first = accepted(engine.request(venue.id, request(start="11:00", end="15:00"), now=NOW))
    second = accepted(engine.request(venue.id, request(salesperson=OTHER), now=NOW))
    edit = change(engine, venue, first.hold.id, end="16:00")
    plan = engine.edit_plan(venue.id, edit, now=NOW)
    assert isinstance(plan, EditPlan) and not plan.kept_place
    assert (plan.rank, [h.id for h in plan.ahead]) == (2, [second.hold.id])
    done = edited(engine.edit(venue.id, edit, now=NOW))
    assert not done.kept_place and done.hold.id > second.hold.id
    assert (done.hold.rank, done.hold.expires_at) == (2, None)
    assert done.hold.enquiry_id == first.hold.enquiry_id  # the same customer's case
    assert at(done.hold.end_at) == "16:00"
    assert [h.id for h in done.released] == [first.hold.id]
    assert done.released[0].status is Status.RELEASED
    assert [h.id for h in done.promoted] == [second.hold.id]
    assert [h.id for h in done.ahead] == [second.hold.id]
    invariants.check(sa_engine, venue)


def test_a_move_to_a_free_room_is_a_swap_that_is_1st_with_a_new_deadline(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    first = accepted(engine.request(venue.id, request(room="hoo"), now=NOW))
    moved_at = later(days=1)
    done = edited(
        engine.edit(venue.id, change(engine, venue, first.hold.id, room_id="sakura"), now=moved_at)
    )
    assert not done.kept_place and done.hold.room_id == "sakura" and done.hold.rank == 1
    assert done.hold.expires_at == later(moved_at, days=7)
    assert engine.holds(venue.id, statuses=[Status.TENTATIVE]) == [done.hold]
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
    assert not moved.kept_place and moved.hold.local_date == date(2027, 3, 11)
    assert [(i.room_id, at(i.start_at)) for i in moved.hold.items] == [
        ("hoo-a", "12:30"),
        ("chapel", "11:15"),
    ]
    invariants.check(sa_engine, venue)


def test_the_trail_records_before_and_after(engine: HoldEngine, venue: Venue) -> None:
    hold = accepted(engine.request(venue.id, request(start="11:00", end="15:00"), now=NOW)).hold
    kept = edited(engine.edit(venue.id, change(engine, venue, hold.id, end="14:00"), now=NOW))
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
