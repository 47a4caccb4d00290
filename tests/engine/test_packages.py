"""Holds of several rooms and candidate dates, operation by operation: what is answered, what
is stored beside the holds (span rows, notices, audit), and what is not written."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, replace
from datetime import date, datetime

import pytest
import sqlalchemy as sa

from core.engine import HoldEngine
from core.errors import VenueConflict
from core.model import HoldRequest, ItemRequest, Policy, Status, Venue
from core.operations.request import request_hash
from core.results import Code, ConfirmPlan, Preview, Refused, WarningCode
from tests.engine.test_operations import accepted, footprint, refused
from tests.support import factories, invariants
from tests.support.factories import JST, MANAGER, NOW, SALES, request

OTHER = "U0SALES002"
DAY = date(2027, 3, 10)


def wedding(
    day: date = DAY, salesperson: str = SALES, customer: str = "山田様", **more: object
) -> HoldRequest:
    """The chapel 11:00-12:00 with 鳳凰A 12:30-15:30 as one hold (the reception first)."""
    base = request(
        room="hoo-a",
        day=day,
        start="12:30",
        end="15:30",
        salesperson=salesperson,
        customer=customer,
    )
    return replace(base, also=(ItemRequest("chapel", 660, 720),), **more)  # type: ignore[arg-type]


def spans(db: sa.Engine, venue: Venue, hold_id: int) -> list[tuple[int, str, bool]]:
    with db.connect() as conn:
        found = conn.execute(
            sa.text(
                "SELECT item_no, part_id, blocking FROM hold_spans"
                " WHERE venue_id = :v AND hold_id = :h ORDER BY item_no, part_id"
            ),
            {"v": venue.id, "h": hold_id},
        )
        return [tuple(r) for r in found]  # type: ignore[misc]


def test_each_room_has_its_place_and_a_room_of_rank_1_blocks_while_the_hold_waits(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    ahead = accepted(engine.request(venue.id, request(room="hoo-a", day=DAY), now=NOW))
    pack = accepted(engine.request(venue.id, wedding(), now=NOW))
    assert (pack.rank, pack.item_ranks, pack.expires_at) == (2, (2, 1), None)
    assert [i.room_id for i in pack.hold.items] == ["hoo-a", "chapel"]
    assert pack.ahead == (ahead.hold,)
    assert spans(sa_engine, venue, pack.hold.id) == [(1, "A1", False), (2, "C1", True)]
    later = accepted(engine.request(venue.id, request(room="chapel", day=DAY), now=NOW))
    assert (later.rank, [h.id for h in later.ahead]) == (2, [pack.hold.id])
    seen = engine.overview(venue.id, SALES, now=NOW)
    waiting = {w.hold.id: [a.id for a in w.ahead] for w in seen.waiting}
    assert waiting[pack.hold.id] == [ahead.hold.id]
    assert waiting[later.hold.id] == [pack.hold.id]
    invariants.check(sa_engine, venue)


def test_a_package_deadline_never_falls_after_its_earliest_room_starts(
    engine: HoldEngine, venue: Venue
) -> None:
    soon = accepted(engine.request(venue.id, wedding(day=date(2027, 3, 3)), now=NOW))
    chapel_start = datetime(2027, 3, 3, 11, 0, tzinfo=JST)
    assert soon.hold.start_at == datetime(2027, 3, 3, 12, 30, tzinfo=JST)  # its first room
    assert soon.expires_at == chapel_start == soon.hold.first_start


def test_a_refused_package_writes_nothing_and_names_the_room(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    confirmed = accepted(engine.request(venue.id, request(room="chapel", day=DAY), now=NOW))
    engine.confirm(venue.id, confirmed.hold.id, actor=SALES, now=NOW)
    before = footprint(sa_engine, venue)
    taken = refused(engine.request(venue.id, wedding(), now=NOW), Code.CONFIRMED_CONFLICT)
    assert (taken.room, taken.room_name) == ("chapel", "チャペル")
    assert [h.id for h in taken.holders] == [confirmed.hold.id]
    many = replace(
        wedding(), also=tuple(ItemRequest("sakura", 60 * h, 60 * h + 30) for h in (6, 7, 8, 9))
    )
    assert refused(engine.request(venue.id, many, now=NOW), Code.TOO_MANY_ITEMS).limit == 4
    ghost = replace(wedding(), also=(ItemRequest("ghost", 600, 660),))
    assert refused(engine.request(venue.id, ghost, now=NOW), Code.UNKNOWN_ROOM).room == "ghost"
    late = replace(wedding(), also=(ItemRequest("sakura", 1000, 990),))
    assert refused(engine.request(venue.id, late, now=NOW), Code.BAD_TIMES).room == "sakura"
    touching = replace(wedding(), also=(ItemRequest("hoo", 600, 690),))  # its span to 12:30
    seen = engine.preview(venue.id, touching, now=NOW)
    assert isinstance(seen, Preview) and seen.item_ranks == (1, 1)
    overlapping = replace(wedding(), also=(ItemRequest("hoo", 600, 720),))
    overlap = refused(engine.request(venue.id, overlapping, now=NOW), Code.ITEMS_OVERLAP)
    assert (overlap.room, overlap.detail) == ("hoo", "鳳凰A")
    assert footprint(sa_engine, venue) == before


def test_a_package_resubmitted_gets_its_first_answer_and_one_room_hashes_as_before(
    engine: HoldEngine, venue: Venue
) -> None:
    ahead = accepted(engine.request(venue.id, request(room="chapel", day=DAY), now=NOW))
    first = accepted(engine.request(venue.id, wedding(), now=NOW, idempotency_key="v-9"))
    assert first.item_ranks == (1, 2)
    engine.release(venue.id, ahead.hold.id, actor=SALES, now=NOW)
    again = accepted(engine.request(venue.id, wedding(), now=NOW, idempotency_key="v-9"))
    assert again.replayed and (again.rank, again.item_ranks) == (2, (1, 2))
    assert [i.rank for i in again.hold.items] == [1, 1]  # the hold as it is now: 1st
    single = request()
    old_fields = asdict(single)
    # the fields requests had before packages (0004's guests and contact are left out too)
    for added in ("also", "enquiry_id", "guests", "contact", "details", "house"):
        del old_fields[added]
    old_fields["local_date"] = single.local_date.isoformat()
    digest = hashlib.sha256(json.dumps(old_fields, sort_keys=True).encode()).hexdigest()
    assert request_hash(single) == digest, "a key stored before packages must still match"


def test_extending_a_package_tells_each_hold_waiting_behind_any_of_its_rooms_once(
    engine: HoldEngine,
) -> None:
    venue = engine.save_venue(factories.venue(Policy(max_rank=3)), now=NOW)
    pack = accepted(engine.request(venue.id, wedding(), now=NOW))
    on_chapel = accepted(engine.request(venue.id, request(room="chapel", day=DAY), now=NOW))
    on_both = accepted(
        engine.request(venue.id, wedding(salesperson=OTHER, customer="佐藤様"), now=NOW)
    )
    done = engine.extend(venue.id, pack.hold.id, actor=SALES, now=NOW)
    assert not isinstance(done, Refused)
    assert sorted(h.id for h in done.notified) == [on_chapel.hold.id, on_both.hold.id]
    extended = [n.hold_id for n in engine.notices(venue.id) if n.kind == "extended"]
    assert sorted(extended) == [on_chapel.hold.id, on_both.hold.id]


def test_confirm_plan_and_confirm_release_the_other_date_as_the_customers_choice(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    first = accepted(engine.request(venue.id, wedding(), now=NOW))
    enquiry = first.hold.enquiry_id
    second_day = replace(wedding(day=date(2027, 3, 17)), enquiry_id=enquiry, customer="")
    second = accepted(engine.request(venue.id, second_day, now=NOW))
    behind = accepted(engine.request(venue.id, request(room="chapel", day=DAY), now=NOW))
    plan = engine.confirm_plan(venue.id, second.hold.id, actor=SALES, now=NOW)
    assert isinstance(plan, ConfirmPlan)
    assert [h.id for h in plan.would_release] == [first.hold.id]
    assert [h.id for h in plan.candidates] == [first.hold.id]
    assert [h.id for h in plan.would_promote] == [behind.hold.id]
    done = engine.confirm(venue.id, second.hold.id, actor=SALES, now=NOW)
    assert not isinstance(done, Refused)
    assert [h.id for h in done.candidates] == [first.hold.id]
    assert [h.id for h in done.promoted] == [behind.hold.id]
    notices = {(n.kind, n.hold_id): n for n in engine.notices(venue.id)}
    chosen = notices[("other_date_chosen", first.hold.id)]
    assert chosen.payload["chosen"]["id"] == second.hold.id
    assert chosen.recipient == SALES
    assert ("lost", first.hold.id) not in notices
    trail = engine.trail(venue.id, first.hold.id)
    assert [(e.action, dict(e.detail)) for e in trail][-1] == (
        "other_date_chosen",
        {"chosen": second.hold.id},
    )
    confirmed = engine.trail(venue.id, second.hold.id)[-1]
    assert dict(confirmed.detail) == {"released": [], "candidates": [first.hold.id]}
    view = engine.enquiry(venue.id, enquiry)
    assert not isinstance(view, Refused)
    assert [(h.id, h.status) for h in view.holds] == [
        (first.hold.id, Status.RELEASED),
        (second.hold.id, Status.CONFIRMED),
    ]
    invariants.check(sa_engine, venue)


def test_a_candidate_takes_the_enquirys_people_and_its_note_becomes_the_enquirys(
    engine: HoldEngine, venue: Venue
) -> None:
    first = accepted(engine.request(venue.id, wedding(note="チャペル希望"), now=NOW))
    join = HoldRequest(
        room_id="sakura",
        local_date=date(2027, 3, 12),
        start_min=660,
        end_min=900,
        kind="",
        customer="",
        salesperson="",
        creator=MANAGER,
        note="第二候補",
        enquiry_id=first.hold.enquiry_id,
    )
    second = accepted(engine.request(venue.id, join, now=NOW))
    assert (second.hold.customer, second.hold.kind, second.hold.salesperson) == (
        "山田様",
        first.hold.kind,
        SALES,
    )
    assert second.hold.creator == first.hold.creator == SALES
    assert second.warnings == ()
    view = engine.enquiry(venue.id, first.hold.enquiry_id)
    assert not isinstance(view, Refused) and view.enquiry.note == "第二候補"
    other_venue = engine.save_venue(factories.venue(), now=NOW)
    missing = refused(engine.request(other_venue.id, join, now=NOW), Code.ENQUIRY_NOT_FOUND)
    assert missing.detail == str(first.hold.enquiry_id)
    assert isinstance(engine.enquiry(other_venue.id, first.hold.enquiry_id), Refused)


def test_the_same_customer_under_another_enquiry_is_a_warning_in_preview_and_answer(
    engine: HoldEngine, venue: Venue
) -> None:
    elsewhere = accepted(
        engine.request(venue.id, request(room="sakura", customer="ﾔﾏﾀﾞ 太郎 様"), now=NOW)
    )
    gone = accepted(
        engine.request(venue.id, request(room="chapel", customer="ヤマダ太郎"), now=NOW)
    )
    engine.release(venue.id, gone.hold.id, actor=SALES, now=NOW)  # no longer live: not named
    asked = wedding(customer="ヤマダ　太郎さま", day=date(2027, 3, 24))
    seen = engine.preview(venue.id, asked, now=NOW)
    assert isinstance(seen, Preview)
    assert [(w.code, [h.id for h in w.holds]) for w in seen.warnings] == [
        (WarningCode.SAME_CUSTOMER, [elsewhere.hold.id])
    ]
    answer = accepted(engine.request(venue.id, asked, now=NOW))
    assert [[h.id for h in w.holds] for w in answer.warnings] == [[elsewhere.hold.id]]
    assert accepted(engine.request(venue.id, wedding(customer="佐藤様"), now=NOW)).warnings == ()


def test_a_room_with_a_live_item_keeps_its_parts(engine: HoldEngine, venue: Venue) -> None:
    accepted(engine.request(venue.id, wedding(), now=NOW))  # the chapel is its second room
    moved = dict(venue.rooms)
    moved["chapel"] = replace(moved["chapel"], parts=frozenset({"C1", "C2"}))
    with pytest.raises(VenueConflict, match="chapel"):
        engine.save_venue(replace(venue, rooms=moved), now=NOW)


def test_limits_come_from_the_venue_policy(engine: HoldEngine) -> None:
    venue = engine.save_venue(factories.venue(Policy(max_items=1, max_candidates=1)), now=NOW)
    assert refused(engine.request(venue.id, wedding(), now=NOW), Code.TOO_MANY_ITEMS).limit == 1
    first = accepted(engine.request(venue.id, request(), now=NOW))
    join = replace(request(day=date(2027, 3, 11)), customer="", enquiry_id=first.hold.enquiry_id)
    full = refused(engine.request(venue.id, join, now=NOW), Code.TOO_MANY_CANDIDATES)
    assert ([h.id for h in full.holders], full.limit) == ([first.hold.id], 1)
    loaded = engine.venue(venue.id)
    assert loaded is not None and (loaded.policy.max_items, loaded.policy.max_candidates) == (1, 1)
