"""Edits racing on real concurrent connections, trial after trial: two edits of one hold
(one wins, the other is told the form is stale), and an edit racing a request for the span
it frees or takes. The invariants of docs/rules.md hold after every trial."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from core.db import create_engine
from core.engine import HoldEngine
from core.model import HoldEdit, Venue
from core.results import Code, EditAnswer, Refused, RequestAnswer
from tests.engine.test_concurrency import race
from tests.engine.test_package_concurrency import deadlocks
from tests.support import factories, invariants
from tests.support.engines import EngineForTests
from tests.support.factories import NOW, SALES, minutes, request

pytestmark = pytest.mark.slow

TRIALS = 30
OTHER = "U0SALES002"


@pytest.fixture
def empty(fresh_db: str) -> Iterator[tuple[HoldEngine, sa.Engine]]:
    db = create_engine(fresh_db, pool_size=6)
    yield EngineForTests(db, queue=False), db
    db.dispose()


def venue_with_first(engine: HoldEngine) -> tuple[Venue, RequestAnswer]:
    venue = engine.save_venue(factories.venue(), now=NOW)
    first = engine.request(venue.id, request(room="hoo", start="11:00", end="15:00"), now=NOW)
    assert isinstance(first, RequestAnswer)
    return venue, first


def edit_of(first: RequestAnswer, **fields: int | str) -> HoldEdit:
    return HoldEdit(hold_id=first.hold.id, version=first.hold.version, actor=SALES, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "edits",
    [
        ({"end_min": minutes("16:00")}, {"room_id": "sakura"}),  # two swaps
        ({"end_min": minutes("14:00")}, {"end_min": minutes("17:00")}),  # a shrink and a swap
        ({"customer": "佐藤様"}, {"start_min": minutes("12:00")}),  # people and a shrink
    ],
    ids=["swap-swap", "shrink-swap", "people-shrink"],
)
def test_two_edits_of_one_hold_at_once_one_wins_the_other_is_stale(
    empty: tuple[HoldEngine, sa.Engine], edits: tuple[dict[str, int | str], ...]
) -> None:
    engine, db = empty
    before = deadlocks(db)
    for _ in range(TRIALS):
        one_wins(engine, db, edits)
    assert deadlocks(db) == before


def one_wins(engine: HoldEngine, db: sa.Engine, edits: tuple[dict[str, int | str], ...]) -> None:
    venue, first = venue_with_first(engine)
    calls = [lambda e=e: engine.edit(venue.id, edit_of(first, **e), now=NOW) for e in edits]
    answers = race(calls)
    won = [a for a in answers if isinstance(a, EditAnswer)]
    lost = [a for a in answers if isinstance(a, Refused)]
    assert len(won) == 1, answers
    assert [a.code for a in lost] == [Code.STALE_VERSION], answers
    live = invariants.check(db, venue)
    assert [h.id for h in live] == [won[0].hold.id]
    assert live[0].version == won[0].hold.version


def test_a_shrink_racing_a_request_for_the_span_it_frees_leaves_the_request_1st(
    empty: tuple[HoldEngine, sa.Engine],
) -> None:
    """鳳凰の間 11:00-15:00 shrinks to 11:00-13:00 while 鳳凰A 14:00-16:00 is asked for: in
    either order the request ends 1st (at once, or promoted by the shrink)."""
    engine, db = empty
    seen = Counter(shrink_and_request(engine, db) for _ in range(TRIALS))
    assert sum(seen.values()) == TRIALS


def shrink_and_request(engine: HoldEngine, db: sa.Engine) -> int:
    """One trial; the rank the request was first answered with."""
    venue, first = venue_with_first(engine)
    shrink = edit_of(first, end_min=minutes("13:00"))
    asked = request(room="hoo-a", start="14:00", end="16:00", salesperson=OTHER)
    edited, requested = race(
        [
            lambda: engine.edit(venue.id, shrink, now=NOW),
            lambda: engine.request(venue.id, asked, now=NOW),
        ]
    )
    assert isinstance(edited, EditAnswer) and edited.kept_place, edited
    assert isinstance(requested, RequestAnswer), requested
    live = {h.id: h for h in invariants.check(db, venue)}
    assert live[requested.hold.id].rank == 1 and live[requested.hold.id].expires_at
    assert live[first.hold.id].rank == 1
    if requested.rank == 2:  # it came first, behind the old span: the shrink promoted it
        assert [h.id for h in edited.promoted] == [requested.hold.id]
    return requested.rank


def test_a_swap_racing_a_request_for_the_span_it_takes_and_the_one_it_frees(
    empty: tuple[HoldEngine, sa.Engine],
) -> None:
    """鳳凰の間 moves to 桜の間 while someone asks for 桜の間 and someone for 鳳凰の間: whoever
    commits first is ahead in 桜の間, and the one asking for 鳳凰の間 always ends 1st."""
    engine, db = empty
    for _ in range(TRIALS):
        swap_and_requests(engine, db)


def swap_and_requests(engine: HoldEngine, db: sa.Engine) -> None:
    venue, first = venue_with_first(engine)
    move = edit_of(first, room_id="sakura")
    sakura = request(room="sakura", salesperson=OTHER)
    hoo = request(room="hoo", salesperson=OTHER)
    edited, took, freed = race(
        [
            lambda: engine.edit(venue.id, move, now=NOW),
            lambda: engine.request(venue.id, sakura, now=NOW),
            lambda: engine.request(venue.id, hoo, now=NOW),
        ]
    )
    assert isinstance(edited, EditAnswer), edited
    assert isinstance(took, RequestAnswer) and isinstance(freed, RequestAnswer)
    live = {h.id: h for h in invariants.check(db, venue)}
    if edited.kept_place:  # it moved first, into an empty 桜の間: it took nobody's place
        assert edited.hold.id == first.hold.id
    else:
        assert first.hold.id not in live
    assert live[freed.hold.id].rank == 1
    in_sakura = sorted([edited.hold.id, took.hold.id])
    assert [live[i].rank for i in in_sakura] == [1, 2]


def test_an_edit_that_keeps_its_place_racing_a_request_that_would_change_that(
    empty: tuple[HoldEngine, sa.Engine],
) -> None:
    """鳳凰の間 11:00-14:00 is 1st, a 2nd waits 11:00-15:00; the 1st grows to 14:30 (meeting
    only its own 2nd: in place) while 15:00-18:00 is asked for. Whichever commits first
    wins: the edit in place (and the request would be 3rd), or the request (and the edit,
    meeting it anew, would be a swap to 3rd): exactly one goes through, every trial."""
    engine, db = empty
    # Every other trial the request starts a little later, so both orders are raced.
    seen = Counter(edit_and_request(engine, db, 0.03 * (n % 2)) for n in range(TRIALS))
    assert sum(seen.values()) == TRIALS and set(seen) <= {"edit", "request"}
    print(f"\nedit in place vs request, who went through: {dict(seen)}")


def edit_and_request(engine: HoldEngine, db: sa.Engine, delay: float) -> str:
    venue = engine.save_venue(factories.venue(), now=NOW)
    first = engine.request(venue.id, request(room="hoo", start="11:00", end="14:00"), now=NOW)
    second = engine.request(venue.id, request(room="hoo", salesperson=OTHER), now=NOW)
    assert isinstance(first, RequestAnswer) and isinstance(second, RequestAnswer)
    assert second.rank == 2
    grow = edit_of(first, end_min=minutes("14:30"))
    asked = request(room="hoo", start="15:00", end="18:00", salesperson=OTHER)
    edited, requested = race(
        [
            lambda: engine.edit(venue.id, grow, now=NOW),
            lambda: time.sleep(delay) or engine.request(venue.id, asked, now=NOW),  # type: ignore[func-returns-value]
        ]
    )
    live = {h.id: h for h in invariants.check(db, venue)}
    if isinstance(edited, EditAnswer):
        assert edited.kept_place and edited.hold.id == first.hold.id, edited
        assert isinstance(requested, Refused) and requested.code is Code.RANK_TOO_LOW
        assert (live[first.hold.id].rank, live[second.hold.id].rank) == (1, 2)
        return "edit"
    assert isinstance(edited, Refused) and edited.code is Code.RANK_TOO_LOW, edited
    assert isinstance(requested, RequestAnswer) and requested.rank == 2, requested
    assert live[first.hold.id] == first.hold  # nothing of the edit was written
    return "request"
