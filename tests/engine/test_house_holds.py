"""House holds (社内押さえ, docs/rules.md, House holds): a manager's, 1st or refused, no
deadline, never swept, blocking like a 1st, released by a manager only, counted apart."""

from __future__ import annotations

from dataclasses import replace

import pytest
import sqlalchemy as sa

from bot.texts.states import row_state
from cli import migrate
from core.db import create_engine
from core.diary import layout
from core.diary.model import DiaryRange, Style
from core.engine import HoldEngine
from core.model import Hold, HoldEdit, Kind, Status, Venue
from core.results import Code, EditAnswer, Refused, ReleaseAnswer, RequestAnswer
from tests.support import factories, invariants
from tests.support.engines import EngineForTests
from tests.support.factories import MANAGER, NOW, SALES, later, request

OTHER = "U0SALES002"


def house(engine: HoldEngine, venue: Venue, room: str = "hoo", **fields: object) -> Hold:
    asked = replace(
        request(room=room, customer="ブライダルフェア", salesperson=MANAGER), house=True
    )
    answer = engine.request(venue.id, replace(asked, **fields), now=NOW)
    assert isinstance(answer, RequestAnswer), answer
    return answer.hold


def refusal(result: object, code: Code) -> Refused:
    assert isinstance(result, Refused) and result.code is code, result
    return result


def test_a_house_hold_is_first_with_no_deadline_and_blocks_a_later_request(
    engine: HoldEngine, venue: Venue, sa_engine: sa.Engine
) -> None:
    fair = house(engine, venue)
    assert (fair.house, fair.rank, fair.expires_at, fair.status) == (
        True,
        1,
        None,
        Status.TENTATIVE,
    )
    later_one = engine.request(venue.id, request(room="hoo-a"), now=later(minutes=1))
    assert isinstance(later_one, RequestAnswer)
    assert (later_one.rank, later_one.expires_at) == (2, None)  # behind it, as behind a 1st
    assert [h.id for h in later_one.ahead] == [fair.id]
    third = engine.request(venue.id, request(room="hoo-a"), now=later(minutes=2))
    refusal(third, Code.RANK_TOO_LOW)  # max rank 2: the house hold and the 2nd fill it
    with sa_engine.connect() as conn:  # its spans are blocking: the EXCLUDE gate counts them
        blocking = conn.execute(
            sa.text(
                "SELECT bool_and(blocking) FROM hold_spans WHERE venue_id = :v AND hold_id = :h"
            ),
            {"v": venue.id, "h": fair.id},
        ).scalar_one()
    assert blocking is True
    invariants.check(sa_engine, venue)


def test_never_swept_and_confirm_extend_nudge_do_not_apply(
    engine: HoldEngine, venue: Venue, sa_engine: sa.Engine
) -> None:
    fair = house(engine, venue)
    waiting = engine.request(venue.id, request(salesperson=OTHER), now=NOW)
    assert isinstance(waiting, RequestAnswer) and waiting.rank == 2
    swept = engine.sweep(venue.id, now=later(days=400))  # past its own start too
    assert not isinstance(swept, Refused) and fair.id not in swept.expired
    assert engine.hold(venue.id, fair.id).status is Status.TENTATIVE  # type: ignore[union-attr]
    for act in (engine.confirm, engine.extend):
        refusal(act(venue.id, fair.id, actor=MANAGER, now=NOW), Code.HOUSE_HOLD)
    refusal(engine.nudge(venue.id, fair.id, actor=OTHER, now=NOW), Code.HOUSE_HOLD)
    refusal(engine.nudge_ahead(venue.id, waiting.hold.id, actor=OTHER, now=NOW), Code.HOUSE_HOLD)
    invariants.check(sa_engine, venue)


def test_refused_behind_anything_live_naming_who_is_in_the_way(
    engine: HoldEngine, venue: Venue, sa_engine: sa.Engine
) -> None:
    first = engine.request(venue.id, request(room="hoo-a"), now=NOW)
    assert isinstance(first, RequestAnswer)
    refused = refusal(
        engine.request(
            venue.id,
            replace(request(room="hoo", salesperson=MANAGER), house=True),
            now=NOW,
        ),
        Code.HOUSE_NOT_FIRST,
    )
    assert [f.hold.id for f in refused.in_way] == [first.hold.id]
    # a waiting hold alone in the way refuses it too (its 1st is on the other half)
    engine.release(venue.id, first.hold.id, actor=SALES, now=NOW)
    b = engine.request(venue.id, request(room="hoo-b"), now=NOW)
    whole = engine.request(venue.id, request(room="hoo", salesperson=OTHER), now=NOW)
    assert isinstance(b, RequestAnswer) and isinstance(whole, RequestAnswer) and whole.rank == 2
    on_a = replace(request(room="hoo-a", salesperson=MANAGER), house=True)
    refused = refusal(engine.request(venue.id, on_a, now=NOW), Code.HOUSE_NOT_FIRST)
    assert [f.hold.id for f in refused.in_way] == [whole.hold.id]
    confirmed = engine.confirm(venue.id, b.hold.id, actor=SALES, now=NOW)
    assert not isinstance(confirmed, Refused)
    on_b = replace(on_a, room_id="hoo-b")
    refusal(engine.request(venue.id, on_b, now=NOW), Code.CONFIRMED_CONFLICT)
    invariants.check(sa_engine, venue)


def test_only_a_manager_asks_for_one(engine: HoldEngine, venue: Venue) -> None:
    asked = replace(request(salesperson=SALES), house=True)
    refused = refusal(engine.request(venue.id, asked, now=NOW), Code.NOT_A_MANAGER)
    assert refused.field == "house"
    assert engine.holds(venue.id) == []
    by_manager = replace(asked, creator=MANAGER)  # a manager may hold it in another's name
    answer = engine.request(venue.id, by_manager, now=NOW)
    assert isinstance(answer, RequestAnswer) and answer.hold.house
    assert answer.hold.salesperson == SALES


def test_released_by_a_manager_only_and_those_behind_are_promoted(
    engine: HoldEngine, venue: Venue, sa_engine: sa.Engine
) -> None:
    fair = house(engine, venue, salesperson=SALES, creator=MANAGER)
    waiting = engine.request(venue.id, request(salesperson=OTHER), now=NOW)
    assert isinstance(waiting, RequestAnswer) and waiting.rank == 2
    for actor in (SALES, OTHER):  # its salesperson is no manager: refused as anyone else
        refusal(engine.release(venue.id, fair.id, actor=actor, now=NOW), Code.NOT_A_MANAGER)
    edit = HoldEdit(fair.id, fair.version, SALES, customer="撮影")
    refusal(engine.edit(venue.id, edit, now=NOW), Code.NOT_A_MANAGER)
    done = engine.release(venue.id, fair.id, actor=MANAGER, now=later(hours=1))
    assert isinstance(done, ReleaseAnswer) and done.hold.status is Status.RELEASED
    assert [h.id for h in done.promoted] == [waiting.hold.id]
    promoted = done.promoted[0]
    assert promoted.rank == 1 and promoted.expires_at is not None  # a deadline from now
    invariants.check(sa_engine, venue)


def test_an_edit_keeps_it_a_house_hold(
    engine: HoldEngine, venue: Venue, sa_engine: sa.Engine
) -> None:
    fair = house(engine, venue)
    moved = engine.edit(
        venue.id, HoldEdit(fair.id, fair.version, MANAGER, room_id="sakura"), now=NOW
    )
    assert isinstance(moved, EditAnswer), moved
    assert (moved.hold.house, moved.hold.rank, moved.hold.expires_at) == (True, 1, None)
    other = engine.request(venue.id, request(room="hoo"), now=NOW)
    assert isinstance(other, RequestAnswer)
    back = HoldEdit(moved.hold.id, moved.hold.version, MANAGER, room_id="hoo")
    refusal(engine.edit(venue.id, back, now=NOW), Code.HOUSE_NOT_FIRST)
    invariants.check(sa_engine, venue)


def test_no_banquet_window_and_no_candidate_dates(engine: HoldEngine, venue: Venue) -> None:
    far_saturday = factories.DAY.replace(year=2028, month=1, day=8)  # a priority day, far off
    asked = replace(request(day=far_saturday, kind=Kind.BANQUET, salesperson=MANAGER), house=True)
    fair = engine.request(venue.id, asked, now=NOW)
    assert isinstance(fair, RequestAnswer) and fair.hold.house
    plain = replace(asked, house=False, customer="忘年会様")
    refusal(engine.request(venue.id, plain, now=NOW), Code.BANQUET_NOT_OPEN)
    another = replace(
        request(day=factories.DAY, salesperson=MANAGER),
        customer="",
        kind="",
        enquiry_id=fair.hold.enquiry_id,
    )
    refused = refusal(engine.request(venue.id, another, now=NOW), Code.ENQUIRY_MISMATCH)
    assert refused.field == "house"
    both = replace(another, house=True)
    refusal(engine.request(venue.id, both, now=NOW), Code.ENQUIRY_MISMATCH)


@pytest.mark.parametrize("released", [False, True])
def test_counted_apart_from_sales(engine: HoldEngine, venue: Venue, released: bool) -> None:
    fair = house(engine, venue)
    sale = engine.request(venue.id, request(room="sakura"), now=NOW)
    assert isinstance(sale, RequestAnswer)
    engine.release(venue.id, sale.hold.id, actor=SALES, reason="budget", now=NOW)
    if released:
        engine.release(venue.id, fair.id, actor=MANAGER, reason="other", now=NOW)
    counts = engine.month_counts(venue.id, NOW.year, NOW.month)
    assert (counts.released, dict(counts.by_reason)) == (1, {"budget": 1})
    assert (counts.house_held, counts.house_released) == (1, int(released))
    home = engine.team_home(venue.id, now=NOW)
    assert home.month == counts
    assert fair.id not in [h.id for h in (*home.today, *home.week)]


def test_downgrading_0014_leaves_a_house_hold_a_first_due_at_its_start(fresh_db: str) -> None:
    db = create_engine(fresh_db, pool_size=2)
    engine = EngineForTests(db)
    venue = engine.save_venue(factories.venue(), now=NOW)
    fair = house(engine, venue)
    migrate.downgrade(fresh_db, "0016_window_pings")
    with db.connect() as conn:
        row = conn.execute(
            sa.text("SELECT status, rank, expires_at FROM holds WHERE venue_id = :v AND id = :h"),
            {"v": venue.id, "h": fair.id},
        ).one()
    assert tuple(row) == ("tentative", 1, fair.start_at)
    migrate.upgrade(fresh_db)
    db.dispose()
    again = EngineForTests(db).hold(venue.id, fair.id)
    assert isinstance(again, Hold) and not again.house and again.expires_at == fair.start_at
    invariants.check(db, venue)
    db.dispose()


def test_the_diary_draws_it_cross_hatched_and_the_ledger_says_shanai(
    engine: HoldEngine, venue: Venue
) -> None:
    fair = house(engine, venue)
    behind = engine.request(venue.id, request(room="hoo-a"), now=NOW)
    assert isinstance(behind, RequestAnswer)
    placed = layout.build(engine.diary(venue.id, DiaryRange.day(factories.DAY)), NOW)
    styles = {(b.hold.id, b.style) for b in placed.blocks if not b.shared}
    assert styles == {(fair.id, Style.HOUSE), (behind.hold.id, Style.SECOND)}
    assert row_state(fair) == "社内押さえ"
    done = engine.release(venue.id, fair.id, actor=MANAGER, now=NOW)
    assert isinstance(done, ReleaseAnswer)
    assert row_state(done.hold) == "取り下げ（社内）"
    assert row_state(behind.hold) == "2番手"
