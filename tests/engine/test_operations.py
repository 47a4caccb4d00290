"""The engine's operations one at a time: answers, refusals, what gets written and what not."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa

from core.engine import HoldEngine
from core.errors import VenueConflict
from core.model import ItemRequest, Kind, Policy, Room, Status, Venue
from core.notices import QUEUED_RECIPIENT
from core.results import (
    CancelAnswer,
    Code,
    ConfirmAnswer,
    ConfirmPlan,
    ExtendAnswer,
    Preview,
    Refused,
    ReleaseAnswer,
    RequestAnswer,
)
from tests.support import factories
from tests.support.engines import EngineForTests
from tests.support.factories import MANAGER, NOW, SALES, decision_dms, later, request

OTHER = "U0SALES002"
STRANGER = "U0STRANGER"
LATER = date(2027, 4, 14)


def accepted(result: RequestAnswer | Refused) -> RequestAnswer:
    assert isinstance(result, RequestAnswer), result
    return result


def refused(result: object, code: Code) -> Refused:
    assert isinstance(result, Refused), result
    assert result.code is code, result
    return result


def footprint(db: sa.Engine, venue: Venue) -> dict[str, int]:
    """Rows (and ledger versions) the venue has: a refusal must leave all of them unchanged."""
    tables = ["holds", "hold_spans", "outbox", "audit_events", "idempotency_records"]
    with db.connect() as conn:
        counts = {
            t: conn.execute(
                sa.text(f"SELECT count(*) FROM {t} WHERE venue_id = :v"),  # noqa: S608
                {"v": venue.id},
            ).scalar_one()
            for t in tables
        }
        counts["ledger"] = conn.execute(
            sa.text("SELECT coalesce(sum(version), 0) FROM part_days WHERE venue_id = :v"),
            {"v": venue.id},
        ).scalar_one()
    return counts


BAD_INPUT = [
    (dict(room="nowhere"), Code.UNKNOWN_ROOM, "room"),
    (dict(kind="party"), Code.UNKNOWN_KIND, "kind"),
    (dict(customer="   "), Code.BAD_CUSTOMER, "customer"),
    (dict(customer="x" * 201), Code.BAD_CUSTOMER, "customer"),
    (dict(note="n" * 1001), Code.BAD_NOTE, "note"),
    (dict(salesperson=" "), Code.BAD_SALESPERSON, "salesperson"),
    (dict(day=date(2027, 2, 28)), Code.IN_PAST, "date"),
    (dict(day=NOW.date(), start="08:00", end="10:00"), Code.IN_PAST, "date"),
    (dict(day=date(2029, 3, 2)), Code.BEYOND_HORIZON, "date"),
]


@pytest.mark.parametrize(("change", "code", "field"), BAD_INPUT)
def test_bad_input_is_refused_on_its_field_and_writes_nothing(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue, change: dict, code: Code, field: str
) -> None:
    accepted(engine.request(venue.id, request(), now=NOW))
    before = footprint(sa_engine, venue)
    answer = refused(engine.request(venue.id, request(**change), now=NOW), code)
    assert answer.field == field
    assert footprint(sa_engine, venue) == before


@pytest.mark.parametrize(
    ("start_min", "end_min", "code"),
    [
        (600, 600, Code.BAD_TIMES),
        (600, 540, Code.BAD_TIMES),
        (600, 2041, Code.TOO_LONG),
        (-5, 600, Code.BAD_TIMES),
        (1440, 1500, Code.BAD_TIMES),
    ],
)
def test_bad_times_are_refused(
    engine: HoldEngine, venue: Venue, start_min: int, end_min: int, code: Code
) -> None:
    req = replace(request(), start_min=start_min, end_min=end_min)
    refused(engine.request(venue.id, req, now=NOW), code)


def test_past_midnight_is_taken_up_to_12_hours_and_a_full_day_is_not(
    engine: HoldEngine, venue: Venue
) -> None:
    # An end at or before the start is the next day's only for an event of at most 12 hours
    # (docs/rules.md): 20:00〜翌08:00 is a night; 10:00〜翌10:00 was rarely meant.
    night = replace(request(), start_min=1200, end_min=1200 + 720)
    assert accepted(engine.request(venue.id, night, now=NOW)).rank == 1
    whole_day = replace(request(room="sakura"), start_min=600, end_min=600 + 1440)
    refused(engine.request(venue.id, whole_day, now=NOW), Code.OVERNIGHT_TOO_LONG)


def test_refusals_of_the_ledger_write_nothing(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    accepted(engine.request(venue.id, request(), now=NOW))
    accepted(engine.request(venue.id, request(), now=NOW))
    before = footprint(sa_engine, venue)
    refused(engine.request(venue.id, request(), now=NOW), Code.RANK_TOO_LOW)
    assert footprint(sa_engine, venue) == before


def test_an_event_past_midnight_blocks_the_next_morning_through_its_turnover(
    engine: HoldEngine, venue: Venue
) -> None:
    late = accepted(engine.request(venue.id, request(start="20:00", end="01:30"), now=NOW))
    assert late.hold.end_at - late.hold.start_at == timedelta(hours=5, minutes=30)
    next_day = factories.DAY + timedelta(days=1)
    early = accepted(
        engine.request(venue.id, request(day=next_day, start="02:00", end="04:00"), now=NOW)
    )
    assert early.rank == 2
    assert [h.id for h in early.ahead] == [late.hold.id]
    engine.release(venue.id, early.hold.id, actor=SALES, now=NOW)
    touching = engine.request(venue.id, request(day=next_day, start="02:30", end="04:00"), now=NOW)
    assert accepted(touching).rank == 1  # 01:30 + 60 min of turnover ends exactly at 02:30


def test_unknown_venue_and_a_hold_of_another_venue(engine: HoldEngine, venue: Venue) -> None:
    refused(engine.request("no-such-venue", request(), now=NOW), Code.UNKNOWN_VENUE)
    other = engine.save_venue(factories.venue(), now=NOW)
    theirs = accepted(engine.request(other.id, request(), now=NOW))
    answer = refused(
        engine.confirm(venue.id, theirs.hold.id, actor=SALES, now=NOW), Code.HOLD_NOT_FOUND
    )
    assert answer.detail == str(theirs.hold.id)
    refused(engine.release(venue.id, 10**12, actor=SALES, now=NOW), Code.HOLD_NOT_FOUND)


def test_idempotency_key_returns_the_first_answer_and_makes_one_hold(
    engine: HoldEngine, venue: Venue
) -> None:
    req = request()
    first = accepted(engine.request(venue.id, req, now=NOW, idempotency_key="view-1"))
    again = accepted(engine.request(venue.id, req, now=later(minutes=1), idempotency_key="view-1"))
    assert (again.hold.id, again.rank, again.expires_at) == (
        first.hold.id,
        first.rank,
        first.expires_at,
    )
    assert again.replayed and not first.replayed
    holds = engine.holds(venue.id)
    assert not isinstance(holds, Refused) and len(holds) == 1
    other = replace(req, customer="別の様")
    refused(
        engine.request(venue.id, other, now=NOW, idempotency_key="view-1"),
        Code.IDEMPOTENCY_MISMATCH,
    )


def test_a_resubmitted_2nd_gets_its_answer_again_not_a_3rd_place_refusal(
    engine: HoldEngine, venue: Venue
) -> None:
    accepted(engine.request(venue.id, request(salesperson="U0AHEAD"), now=NOW))
    req = request()
    second = accepted(engine.request(venue.id, req, now=NOW, idempotency_key="view-2"))
    again = accepted(engine.request(venue.id, req, now=NOW, idempotency_key="view-2"))
    assert (again.hold.id, again.rank, again.replayed) == (second.hold.id, 2, True)
    for other in (request(customer="別の様"), request(room="ghost")):  # reused, whatever else
        refused(
            engine.request(venue.id, other, now=NOW, idempotency_key="view-2"),
            Code.IDEMPOTENCY_MISMATCH,
        )


def test_preview_answers_as_a_request_would_and_writes_nothing(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    first = accepted(engine.request(venue.id, request(), now=NOW))
    before = footprint(sa_engine, venue)
    seen = engine.preview(venue.id, request(), now=NOW)
    assert isinstance(seen, Preview)
    assert (seen.rank, seen.expires_at) == (2, None)
    assert [h.id for h in seen.ahead] == [first.hold.id]
    accepted(engine.request(venue.id, request(), now=NOW))
    full = refused(engine.preview(venue.id, request(), now=NOW), Code.RANK_TOO_LOW)
    assert full.rank == 3
    assert footprint(sa_engine, venue) != before  # the second request wrote; previews did not
    after = footprint(sa_engine, venue)
    engine.preview(venue.id, request(room="hoo-a"), now=NOW)
    assert footprint(sa_engine, venue) == after


def test_who_may_act(engine: HoldEngine, venue: Venue) -> None:
    mine = accepted(engine.request(venue.id, request(creator=OTHER), now=NOW))
    stranger = refused(
        engine.release(venue.id, mine.hold.id, actor=STRANGER, now=NOW), Code.NOT_AUTHORIZED
    )
    assert stranger.hold is not None and stranger.hold.salesperson == SALES
    refused(engine.extend(venue.id, mine.hold.id, actor=STRANGER, now=NOW), Code.NOT_AUTHORIZED)
    refused(engine.confirm(venue.id, mine.hold.id, actor=STRANGER, now=NOW), Code.NOT_AUTHORIZED)
    assert isinstance(engine.extend(venue.id, mine.hold.id, actor=OTHER, now=NOW), ExtendAnswer)
    confirmed = engine.confirm(venue.id, mine.hold.id, actor=MANAGER, now=NOW)
    assert isinstance(confirmed, ConfirmAnswer)
    refused(engine.cancel(venue.id, mine.hold.id, actor=SALES, now=NOW), Code.NOT_AUTHORIZED)


def test_a_second_click_says_what_already_happened(engine: HoldEngine, venue: Venue) -> None:
    hold = accepted(engine.request(venue.id, request(), now=NOW)).hold
    assert isinstance(engine.confirm(venue.id, hold.id, actor=SALES, now=NOW), ConfirmAnswer)
    again = refused(engine.confirm(venue.id, hold.id, actor=SALES, now=NOW), Code.ALREADY_DECIDED)
    assert again.hold is not None and again.hold.status is Status.CONFIRMED
    refused(engine.release(venue.id, hold.id, actor=SALES, now=NOW), Code.ALREADY_DECIDED)


def test_extend_moves_the_deadline_once_and_tells_the_next_in_line(
    engine: HoldEngine, venue: Venue
) -> None:
    first = accepted(engine.request(venue.id, request(day=LATER, kind=Kind.BANQUET), now=NOW))
    second = accepted(engine.request(venue.id, request(day=LATER, salesperson=OTHER), now=NOW))
    done = engine.extend(venue.id, first.hold.id, actor=SALES, now=later(days=1))
    assert isinstance(done, ExtendAnswer)
    assert done.hold.expires_at == NOW + timedelta(days=6)  # 3 days, then 3 more
    assert done.hold.extensions_used == 1
    assert [h.id for h in done.notified] == [second.hold.id]
    told = [n for n in engine.notices(venue.id) if n.kind == "extended"]
    assert [(n.recipient, n.hold_id) for n in told] == [(OTHER, second.hold.id)]
    assert told[0].payload["ahead"]["id"] == first.hold.id
    limit = refused(
        engine.extend(venue.id, first.hold.id, actor=SALES, now=later(days=2)),
        Code.EXTENSION_LIMIT,
    )
    assert limit.limit == 1
    refused(engine.extend(venue.id, second.hold.id, actor=OTHER, now=later(days=2)), Code.NOT_FIRST)


def test_an_extension_never_passes_the_event_start(engine: HoldEngine) -> None:
    venue = engine.save_venue(factories.venue(Policy(max_extensions=3)), now=NOW)
    soon = accepted(engine.request(venue.id, request(day=date(2027, 3, 12)), now=NOW))
    done = engine.extend(venue.id, soon.hold.id, actor=SALES, now=NOW)
    assert isinstance(done, ExtendAnswer)
    assert done.hold.expires_at == soon.hold.start_at
    refused(engine.extend(venue.id, soon.hold.id, actor=SALES, now=NOW), Code.EXTENSION_PAST_START)


def test_deadline_boundary_confirm_and_extend_refused_sweep_expires(
    engine: HoldEngine, venue: Venue
) -> None:
    hold = accepted(engine.request(venue.id, request(day=LATER), now=NOW))
    deadline = hold.expires_at
    assert deadline is not None
    refused(engine.confirm(venue.id, hold.hold.id, actor=SALES, now=deadline), Code.DEADLINE_PASSED)
    refused(engine.extend(venue.id, hold.hold.id, actor=SALES, now=deadline), Code.DEADLINE_PASSED)
    not_yet = engine.sweep(venue.id, now=deadline - timedelta(microseconds=1))
    assert not isinstance(not_yet, Refused) and not_yet.expired == ()
    swept = engine.sweep(venue.id, now=deadline)
    assert not isinstance(swept, Refused) and swept.expired == (hold.hold.id,)
    expired = [n for n in engine.notices(venue.id) if n.kind == "expired"]
    assert [(n.recipient, n.hold_id) for n in expired] == [(SALES, hold.hold.id)]


def test_cancel_is_for_managers_and_frees_the_slot(engine: HoldEngine, venue: Venue) -> None:
    hold = accepted(engine.request(venue.id, request(), now=NOW)).hold
    refused(engine.cancel(venue.id, hold.id, actor=MANAGER, now=NOW), Code.NOT_CONFIRMED)
    assert isinstance(engine.confirm(venue.id, hold.id, actor=SALES, now=NOW), ConfirmAnswer)
    refused(engine.request(venue.id, request(), now=NOW), Code.CONFIRMED_CONFLICT)
    done = engine.cancel(venue.id, hold.id, actor=MANAGER, now=later(hours=1))
    assert isinstance(done, CancelAnswer) and done.hold.status is Status.CANCELLED
    assert accepted(engine.request(venue.id, request(), now=later(hours=2))).rank == 1
    refused(engine.cancel(venue.id, hold.id, actor=MANAGER, now=NOW), Code.ALREADY_DECIDED)


def test_confirm_dry_run_names_who_loses_and_who_moves_up_without_writing(
    engine: HoldEngine, sa_engine: sa.Engine, venue: Venue
) -> None:
    a = accepted(
        engine.request(venue.id, request(room="hoo-a", start="10:00", end="12:00"), now=NOW)
    )
    whole = accepted(
        engine.request(venue.id, request(room="hoo", start="11:00", end="20:00"), now=NOW)
    )
    late_a = accepted(
        engine.request(venue.id, request(room="hoo-a", start="17:00", end="19:00"), now=NOW)
    )
    assert (a.rank, whole.rank, late_a.rank) == (1, 2, 2)
    before = footprint(sa_engine, venue)
    plan = engine.confirm_plan(venue.id, a.hold.id, actor=SALES, now=NOW)
    assert isinstance(plan, ConfirmPlan)
    assert [h.id for h in plan.would_release] == [whole.hold.id]
    assert [h.id for h in plan.would_promote] == [late_a.hold.id]
    assert footprint(sa_engine, venue) == before
    done = engine.confirm(venue.id, a.hold.id, actor=SALES, now=NOW)
    assert isinstance(done, ConfirmAnswer)
    assert [h.id for h in done.released] == [whole.hold.id]
    assert [h.id for h in done.promoted] == [late_a.hold.id]


def test_release_promotes_and_the_audit_trail_tells_the_story(
    engine: HoldEngine, venue: Venue
) -> None:
    first = accepted(engine.request(venue.id, request(day=LATER), now=NOW))
    second = accepted(engine.request(venue.id, request(day=LATER, salesperson=OTHER), now=NOW))
    done = engine.release(venue.id, first.hold.id, actor=SALES, now=later(hours=3))
    assert isinstance(done, ReleaseAnswer) and [h.id for h in done.promoted] == [second.hold.id]
    promoted = [n for n in engine.notices(venue.id) if n.kind == "promoted"]
    assert [(n.recipient, n.hold_id) for n in promoted] == [(OTHER, second.hold.id)]
    assert promoted[0].payload["hold"]["rank"] == 1
    assert [e.action for e in engine.trail(venue.id, first.hold.id)] == ["requested", "released"]
    trail = engine.trail(venue.id, second.hold.id)
    assert [(e.action, e.actor) for e in trail] == [("requested", OTHER), ("promoted", SALES)]


def test_overview_shows_my_firsts_my_waiting_with_who_is_ahead_and_recent(
    engine: HoldEngine, venue: Venue
) -> None:
    theirs = accepted(engine.request(venue.id, request(salesperson=OTHER), now=NOW))
    waiting = accepted(engine.request(venue.id, request(), now=NOW))
    mine = accepted(engine.request(venue.id, request(room="sakura"), now=NOW))
    gone = accepted(engine.request(venue.id, request(room="chapel"), now=NOW))
    engine.release(venue.id, gone.hold.id, actor=SALES, now=NOW)
    seen = engine.overview(venue.id, SALES, now=NOW)
    assert not isinstance(seen, Refused)
    assert [h.id for h in seen.firsts] == [mine.hold.id]
    assert [(w.hold.id, [a.id for a in w.ahead]) for w in seen.waiting] == [
        (waiting.hold.id, [theirs.hold.id])
    ]
    assert [h.id for h in seen.recent] == [gone.hold.id]


def test_overview_names_for_each_waiting_hold_only_the_holds_in_its_own_way(
    engine: HoldEngine, venue: Venue
) -> None:
    """One read serves every waiting hold: a half's hold is ahead of the whole room only,
    one room's holds never of another's, and a 2nd in the way is not ahead."""
    other_day = factories.DAY + timedelta(days=1)
    half = accepted(engine.request(venue.id, request(room="hoo-a", salesperson=OTHER), now=NOW))
    sakura = accepted(engine.request(venue.id, request(room="sakura", salesperson=OTHER), now=NOW))
    whole = accepted(
        engine.request(venue.id, request(room="hoo", day=other_day, salesperson=OTHER), now=NOW)
    )
    behind_half = accepted(engine.request(venue.id, request(room="hoo"), now=NOW))
    behind_sakura = accepted(engine.request(venue.id, request(room="sakura"), now=NOW))
    behind_whole = accepted(engine.request(venue.id, request(room="hoo-b", day=other_day), now=NOW))
    # a third for the whole room: both the half's 1st and my waiting whole-room 2nd are in
    # its way, but only the 1st is ahead of it
    third = engine.request(venue.id, request(room="hoo", salesperson=OTHER), now=NOW)
    assert isinstance(third, Refused)
    seen = engine.overview(venue.id, SALES, now=NOW)
    assert not isinstance(seen, Refused)
    assert [(w.hold.id, [a.id for a in w.ahead]) for w in seen.waiting] == [
        (behind_half.hold.id, [half.hold.id]),
        (behind_sakura.hold.id, [sakura.hold.id]),
        (behind_whole.hold.id, [whole.hold.id]),
    ]


def test_loading_a_venue_again_is_harmless_and_unsafe_changes_are_refused(
    engine: HoldEngine, venue: Venue
) -> None:
    again = engine.save_venue(venue, now=NOW)
    assert again.rooms == venue.rooms and again.revision == venue.revision + 1
    accepted(engine.request(venue.id, request(room="hoo-a"), now=NOW))
    moved = dict(venue.rooms)
    moved["hoo-a"] = replace(moved["hoo-a"], parts=frozenset({"A1", "A3"}))
    with pytest.raises(VenueConflict, match="hoo-a"):
        engine.save_venue(replace(venue, rooms=moved), now=NOW)
    fewer = {k: v for k, v in venue.rooms.items() if k != "chapel"}
    reloaded = engine.save_venue(replace(venue, rooms=fewer), now=NOW)
    assert not reloaded.rooms["chapel"].active
    refused(engine.request(venue.id, request(room="chapel"), now=NOW), Code.UNKNOWN_ROOM)


def test_a_time_zone_change_is_refused_while_holds_are_live(engine: HoldEngine) -> None:
    """Holds and ledger rows are kept by venue-local day; a new zone would move them."""
    spec = factories.venue()
    venue = engine.save_venue(spec, now=NOW)
    hold = accepted(engine.request(venue.id, request(room="hoo-a"), now=NOW)).hold
    with pytest.raises(VenueConflict, match="time zone"):
        engine.save_venue(replace(spec, timezone="America/New_York"), now=NOW)
    engine.release(venue.id, hold.id, actor=SALES, now=NOW)
    moved = engine.save_venue(replace(spec, timezone="America/New_York"), now=NOW)
    assert moved.timezone == "America/New_York"


def test_deadlines_are_days_of_venue_local_clock_time_whatever_zone_now_is_in(
    engine: HoldEngine,
) -> None:
    """New York moves its clocks on 14 March 2027: 7 days from 9:00 EST is 9:00 EDT."""
    venue = engine.save_venue(factories.venue(timezone="America/New_York"), now=NOW)
    new_york = ZoneInfo("America/New_York")
    now_local = datetime(2027, 3, 10, 9, 0, tzinfo=new_york)
    req = request(day=date(2027, 4, 14))
    as_local = engine.preview(venue.id, req, now=now_local)
    as_utc = engine.preview(venue.id, req, now=now_local.astimezone(UTC))
    assert isinstance(as_local, Preview) and isinstance(as_utc, Preview)
    assert as_local.expires_at == as_utc.expires_at
    assert as_local.expires_at is not None
    assert as_local.expires_at.astimezone(new_york) == datetime(2027, 3, 17, 9, 0, tzinfo=new_york)


def test_a_hold_promoted_after_its_event_began_gets_no_promoted_dm(
    engine: HoldEngine, venue: Venue
) -> None:
    """Its deadline would already be due, so no Confirm could work; the sweep expires it."""
    first = accepted(engine.request(venue.id, request(day=date(2027, 3, 3)), now=NOW))
    second = accepted(engine.request(venue.id, request(day=date(2027, 3, 3)), now=NOW))
    started = first.hold.start_at + timedelta(minutes=5)
    released = engine.release(venue.id, first.hold.id, actor=SALES, now=started)
    assert isinstance(released, ReleaseAnswer) and [h.id for h in released.promoted] == [
        second.hold.id
    ]
    assert [n.kind for n in decision_dms(engine.notices(venue.id))] == []
    swept = engine.sweep(venue.id, now=started)
    assert not isinstance(swept, Refused) and swept.expired == (second.hold.id,)
    told = decision_dms(engine.notices(venue.id))
    assert [(n.kind, n.hold_id) for n in told] == [("expired", second.hold.id)]


def test_a_venue_change_reaches_a_process_that_cached_the_venue(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """Another process saves the venue; this one's cache must not answer from the old copy."""
    spec = factories.venue()
    venue = engine.save_venue(spec, now=NOW)
    accepted(engine.request(venue.id, request(room="sakura"), now=NOW))  # caches the venue
    other_process = EngineForTests(sa_engine, queue=False)
    rooms = {**spec.rooms, "kiku": Room("kiku", "菊の間", frozenset({"K1"}), 30, 9)}
    other_process.save_venue(replace(spec, rooms=rooms), now=NOW)
    new_room = engine.request(venue.id, request(room="kiku"), now=NOW)
    assert accepted(new_room).hold.room_name == "菊の間"
    assert accepted(new_room).hold.span_end - accepted(new_room).hold.end_at == timedelta(
        minutes=30
    )
    assert isinstance(engine.preview(venue.id, request(room="kiku"), now=NOW), Preview)
    retired = {k: v for k, v in rooms.items() if k != "chapel"}
    other_process.save_venue(replace(spec, rooms=retired), now=NOW)
    refused(engine.request(venue.id, request(room="chapel"), now=NOW), Code.UNKNOWN_ROOM)
    refused(engine.preview(venue.id, request(room="chapel"), now=NOW), Code.UNKNOWN_ROOM)


def test_a_first_is_told_once_when_a_second_queues_behind_it(
    engine: HoldEngine, venue: Venue
) -> None:
    first = accepted(engine.request(venue.id, request(salesperson="U0SATO0001"), now=NOW))
    second = accepted(engine.request(venue.id, request(salesperson="U0SUZUKI01"), now=NOW))
    assert [h.id for h in second.ahead] == [first.hold.id]  # read after the commit
    third = engine.request(venue.id, request(salesperson="U0TANAKA01"), now=NOW)
    assert isinstance(third, Refused)  # a 3rd is refused and tells nobody
    # Written with the hold: one row naming the holds ahead, resolved at delivery.
    (named,) = engine.notices(venue.id)
    assert (named.kind, named.recipient, named.hold_id) == (
        "queued",
        QUEUED_RECIPIENT,
        second.hold.id,
    )
    assert named.payload["ahead"] == [first.hold.id]
    resolved = engine.resolve_queued(venue.id, named.id, now=NOW)
    assert resolved is not None and [h.id for h in resolved.firsts] == [first.hold.id]
    queued = [n for n in engine.notices(venue.id) if n.recipient != QUEUED_RECIPIENT]
    assert [(n.kind, n.recipient, n.hold_id) for n in queued] == [
        ("queued", "U0SATO0001", first.hold.id)
    ]
    assert queued[0].payload["behind"]["id"] == second.hold.id
    (done,) = engine.notices(venue.id, status="sent")
    assert done.id == named.id and done.sent_ref == f"resolved: #{first.hold.id}"
    # Once: resolved again (a worker whose lease ran out), nothing more is written.
    assert engine.resolve_queued(venue.id, named.id, now=NOW) is None
    assert len(engine.notices(venue.id)) == 2
    elsewhere = accepted(engine.request(venue.id, request(room="sakura"), now=NOW))
    assert elsewhere.rank == 1 and len(engine.notices(venue.id)) == 2  # a 1st tells nobody


def test_a_first_gone_by_delivery_is_not_told_and_the_row_is_settled(
    engine: HoldEngine, venue: Venue
) -> None:
    first = accepted(engine.request(venue.id, request(salesperson="U0SATO0001"), now=NOW))
    second = accepted(engine.request(venue.id, request(salesperson="U0SUZUKI01"), now=NOW))
    (named,) = engine.notices(venue.id)
    assert engine.release(venue.id, first.hold.id, actor="U0SATO0001", now=NOW).ok
    resolved = engine.resolve_queued(venue.id, named.id, now=NOW)
    assert resolved is not None and resolved.firsts == ()
    assert [n.kind for n in engine.notices(venue.id) if n.kind == "queued"] == ["queued"]
    (settled,) = [n for n in engine.notices(venue.id, status="sent") if n.id == named.id]
    assert settled.sent_ref == "resolved: no 1st left"
    assert engine.hold(venue.id, second.hold.id).is_first  # type: ignore[union-attr]


def test_a_package_queued_behind_two_firsts_tells_each_once_and_a_waiting_hold_nobody(
    engine: HoldEngine, venue: Venue
) -> None:
    """Of the holds ahead, only those 1st when the row is resolved are told: a package that
    waits itself (its 鳳凰の間 item 1st, so it blocks; its hold 2nd) is no 1st to tell."""
    sato, kato, suzuki = "U0SATO0001", "U0KATO0001", "U0SUZUKI01"
    hoo = accepted(engine.request(venue.id, request(salesperson=sato), now=NOW))
    sakura = accepted(engine.request(venue.id, request(room="sakura", salesperson=kato), now=NOW))
    both = replace(request(salesperson=suzuki), also=(ItemRequest("sakura", 660, 900),))
    assert accepted(engine.request(venue.id, both, now=NOW)).rank == 2
    (named,) = engine.notices(venue.id)
    assert named.payload["ahead"] == sorted([hoo.hold.id, sakura.hold.id])
    resolved = engine.resolve_queued(venue.id, named.id, now=NOW)
    assert resolved is not None
    assert [h.id for h in resolved.firsts] == sorted([hoo.hold.id, sakura.hold.id])
    told = sorted((n.recipient, n.hold_id) for n in engine.notices(venue.id, status="pending"))
    assert told == sorted([(sato, hoo.hold.id), (kato, sakura.hold.id)])

    day = factories.DAY + timedelta(days=1)
    accepted(engine.request(venue.id, request(room="sakura", day=day, salesperson=kato), now=NOW))
    package = replace(request(day=day, salesperson=sato), also=(ItemRequest("sakura", 660, 900),))
    waiting = accepted(engine.request(venue.id, package, now=NOW))
    assert (waiting.rank, waiting.item_ranks) == (2, (1, 2))
    behind = accepted(engine.request(venue.id, request(day=day, salesperson=suzuki), now=NOW))
    assert [h.id for h in behind.ahead] == [waiting.hold.id]
    rows = [n for n in engine.notices(venue.id, status="pending") if n.hold_id == behind.hold.id]
    (named,) = rows
    resolved = engine.resolve_queued(venue.id, named.id, now=NOW)
    assert resolved is not None and resolved.firsts == ()
    told = [n for n in engine.notices(venue.id) if n.recipient != QUEUED_RECIPIENT]
    assert waiting.hold.id not in {n.hold_id for n in told}


def test_a_venue_may_turn_the_note_to_the_first_off(engine: HoldEngine) -> None:
    venue = engine.save_venue(factories.venue(Policy(notify_first_of_second=False)), now=NOW)
    accepted(engine.request(venue.id, request(), now=NOW))
    assert accepted(engine.request(venue.id, request(), now=NOW)).rank == 2
    assert engine.notices(venue.id) == []


def test_a_cancel_keeps_its_reason_and_tells_the_salesperson_who_and_why(
    engine: HoldEngine, venue: Venue
) -> None:
    booked = accepted(engine.request(venue.id, request(), now=NOW)).hold
    assert engine.confirm(venue.id, booked.id, actor=SALES, now=NOW).ok
    done = engine.cancel(venue.id, booked.id, actor=MANAGER, now=NOW, reason="  先方都合  ")
    assert not isinstance(done, Refused) and done.hold.status is Status.CANCELLED
    told = [n for n in engine.notices(venue.id) if n.kind == "cancelled"]
    assert [(n.recipient, n.payload["actor"], n.payload["reason"]) for n in told] == [
        (SALES, MANAGER, "先方都合")
    ]
    card = max((n for n in engine.notices(venue.id) if n.kind == "card"), key=lambda n: n.id)
    assert (card.payload["event"], card.payload["reason"]) == ("cancelled", "先方都合")
