"""Packages and candidate dates under real concurrency: separate processes and connections.

A package's items get one arrival order (its hold id) in one transaction, and every item's
part-days are bumped in one sorted statement, so packages asking for the same rooms in
opposite orders rank exactly by arrival and never deadlock (docs/concurrency.md).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from datetime import date, timedelta

import pytest
import sqlalchemy as sa

from core.db import create_engine
from core.engine import HoldEngine
from core.model import HoldRequest, Policy, Status
from core.results import Code, ConfirmAnswer, Refused, RequestAnswer, Swept
from tests.engine.test_concurrency import race
from tests.support import factories, invariants
from tests.support.engines import EngineForTests
from tests.support.factories import NOW, SALES, decision_dms, request
from tests.support.racers import Package, race_packages

pytestmark = pytest.mark.slow

TRIALS = 50
RACERS = 8
DAY = date(2027, 4, 14)
# The chapel, then the ballroom; and the same two rooms the other way round.
FORWARD = Package((("chapel", 660, 720), ("hoo", 750, 930)))
BACKWARD = Package((("hoo", 750, 930), ("chapel", 660, 720)))
OTHER = "U0SALES002"
THIRD = "U0SALES003"


def deadlocks(db: sa.Engine) -> int:
    """Deadlocks the server detected in this database so far. A session's counts reach the
    statistics when it ends, so first wait (briefly) for every other session to be gone."""
    with db.connect() as conn:
        for _ in range(100):
            others = conn.execute(
                sa.text(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            ).scalar_one()
            if not others:
                break
            time.sleep(0.1)
        conn.execute(sa.text("SELECT pg_stat_clear_snapshot()"))
        found: int = conn.execute(
            sa.text("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        ).scalar_one()
    return found


@pytest.fixture
def empty(fresh_db: str) -> Iterator[tuple[HoldEngine, sa.Engine, str]]:
    db = create_engine(fresh_db, pool_size=4)
    yield EngineForTests(db, queue=False), db, fresh_db
    db.dispose()


def test_eight_processes_request_packages_in_opposite_orders(
    empty: tuple[HoldEngine, sa.Engine, str],
) -> None:
    """Half of the trials take eight in line (max rank 8), half the usual 1st and 2nd."""
    engine, db, url = empty
    venues = [
        engine.save_venue(factories.venue(Policy(max_rank=8 if t % 2 else 2)), now=NOW)
        for t in range(TRIALS)
    ]
    before = deadlocks(db)
    answers = race_packages(url, [v.id for v in venues], [FORWARD, BACKWARD] * (RACERS // 2), DAY)
    by_trial: dict[int, list[tuple[object, ...]]] = {}
    for trial, _, outcome in answers:
        by_trial.setdefault(trial, []).append(outcome)
    assert sorted(by_trial) == list(range(TRIALS))
    for trial, outcomes in by_trial.items():
        venue = venues[trial]
        taken = sorted((o for o in outcomes if o[0] == "ok"), key=lambda o: o[1])
        refused = Counter((o[1], o[2]) for o in outcomes if o[0] == "refused")
        limit = venue.policy.max_rank
        # Arrival order is the hold id: the n-th to arrive is n-th in line, every item too.
        assert [o[2] for o in taken] == list(range(1, limit + 1)), (trial, outcomes)
        assert [o[3] for o in taken] == [(n, n) for n in range(1, limit + 1)], outcomes
        assert sum(refused.values()) == RACERS - limit, outcomes
        assert set(refused) <= {("rank_too_low", "chapel"), ("rank_too_low", "hoo")}, refused
        live = invariants.check(db, venue)
        assert [h.id for h in live] == [o[1] for o in taken]
    db.dispose()  # the racers' sessions are gone; their counters are flushed at exit
    assert deadlocks(db) == before, "a deadlock was detected (and retried) during the race"


def _accepted(answer: RequestAnswer | Refused) -> RequestAnswer:
    assert isinstance(answer, RequestAnswer), answer
    return answer


def test_a_package_confirm_racing_a_single_confirm_on_one_of_its_rooms(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """Whichever is 1st wins; the other ends released whole, never half a package."""
    seen: Counter[str] = Counter()
    for trial in range(20):
        venue = engine.save_venue(factories.venue(), now=NOW)
        single_first = trial % 2 == 1
        if single_first:
            single = _accepted(engine.request(venue.id, _chapel(OTHER), now=NOW))
            pack = _accepted(engine.request(venue.id, FORWARD.request(DAY, SALES), now=NOW))
            behind = _accepted(engine.request(venue.id, _hall(THIRD), now=NOW))
            assert (pack.rank, pack.item_ranks, behind.rank) == (2, (2, 1), 2)
        else:
            pack = _accepted(engine.request(venue.id, FORWARD.request(DAY, SALES), now=NOW))
            single = _accepted(engine.request(venue.id, _chapel(OTHER), now=NOW))
            assert (pack.rank, single.rank) == (1, 2)
        confirm_pack, confirm_single = race(
            [
                lambda v=venue, h=pack.hold.id: engine.confirm(v.id, h, actor=SALES, now=NOW),
                lambda v=venue, h=single.hold.id: engine.confirm(v.id, h, actor=OTHER, now=NOW),
            ]
        )
        if single_first:
            winner, loser, lost = confirm_single, confirm_pack, pack
        else:
            winner, loser, lost = confirm_pack, confirm_single, single
        assert isinstance(winner, ConfirmAnswer), winner
        assert isinstance(loser, Refused), loser
        assert loser.code in (Code.NOT_FIRST, Code.ALREADY_DECIDED)
        assert [h.id for h in winner.released] == [lost.hold.id]
        after = engine.hold(venue.id, lost.hold.id)
        assert not isinstance(after, Refused) and after.status is Status.RELEASED
        assert all(item.rank is None for item in after.items)
        if single_first:
            assert [h.id for h in winner.promoted] == [behind.hold.id]
        notices = Counter((n.kind, n.hold_id) for n in engine.notices(venue.id))
        assert notices[("lost", lost.hold.id)] == 1
        seen["single" if single_first else "package"] += 1
        invariants.check(sa_engine, venue)
    assert seen == {"single": 10, "package": 10}


def test_a_package_confirm_racing_the_sweep_at_its_deadline(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    outcomes: Counter[str] = Counter()
    for _ in range(30):
        venue = engine.save_venue(factories.venue(), now=NOW)
        pack = _accepted(engine.request(venue.id, FORWARD.request(DAY, SALES), now=NOW))
        on_chapel = _accepted(engine.request(venue.id, _chapel(OTHER), now=NOW))
        on_hall = _accepted(engine.request(venue.id, _hall(THIRD), now=NOW))
        deadline = pack.expires_at
        assert deadline is not None and (on_chapel.rank, on_hall.rank) == (2, 2)
        waiting = {on_chapel.hold.id, on_hall.hold.id}
        just_before = deadline - timedelta(milliseconds=1)
        confirmed, swept = race(
            [
                lambda v=venue, h=pack.hold.id, t=just_before: engine.confirm(
                    v.id, h, actor=SALES, now=t
                ),
                lambda v=venue, t=deadline: engine.sweep(v.id, now=t),
            ]
        )
        assert isinstance(swept, Swept)
        if isinstance(confirmed, ConfirmAnswer):
            outcomes["confirmed"] += 1
            assert swept.expired == () and swept.promoted == ()
            assert {h.id for h in confirmed.released} == waiting
        else:
            outcomes["expired"] += 1
            assert confirmed.code is Code.ALREADY_DECIDED
            assert swept.expired == (pack.hold.id,)
            assert set(swept.promoted) == waiting
        invariants.check(sa_engine, venue)
    assert sum(outcomes.values()) == 30


def test_candidates_joining_at_once_never_pass_the_limit(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """Four more dates for an enquiry with one: the enquiry row lets exactly one in."""
    for trial in range(15):
        venue = engine.save_venue(factories.venue(), now=NOW)
        first = _accepted(engine.request(venue.id, request(room="sakura"), now=NOW))
        joins = [
            HoldRequest(
                room_id="sakura",
                local_date=DAY + timedelta(days=n),
                start_min=660,
                end_min=900,
                kind="",
                customer="",
                salesperson="",
                creator=SALES,
                enquiry_id=first.hold.enquiry_id,
            )
            for n in range(4)
        ]
        answers = race([lambda r=r, v=venue: engine.request(v.id, r, now=NOW) for r in joins])
        taken = [a for a in answers if isinstance(a, RequestAnswer)]
        codes = Counter(a.code for a in answers if isinstance(a, Refused))
        assert len(taken) == 1 and codes == {Code.TOO_MANY_CANDIDATES: 3}, (trial, answers)
        assert taken[0].hold.enquiry_id == first.hold.enquiry_id
        invariants.check(sa_engine, venue)


def test_a_candidate_joining_while_the_other_date_is_confirmed(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """Either the new date is refused (the customer chose) or it is released with the rest."""
    seen: Counter[str] = Counter()
    for _ in range(20):
        venue = engine.save_venue(factories.venue(Policy(max_candidates=3)), now=NOW)
        first = _accepted(engine.request(venue.id, request(room="sakura"), now=NOW))
        enquiry = first.hold.enquiry_id
        join = HoldRequest("sakura", DAY, 660, 900, "", "", "", SALES, enquiry_id=enquiry)
        confirmed, joined = race(
            [
                lambda v=venue, h=first.hold.id: engine.confirm(v.id, h, actor=SALES, now=NOW),
                lambda v=venue, r=join: engine.request(v.id, r, now=NOW),
            ]
        )
        assert isinstance(confirmed, ConfirmAnswer), confirmed
        if isinstance(joined, Refused):
            assert joined.code is Code.ENQUIRY_CONFIRMED
            seen["refused"] += 1
        else:
            assert [h.id for h in confirmed.candidates] == [joined.hold.id]
            seen["released"] += 1
        live = invariants.check(sa_engine, venue)
        assert [h.id for h in live] == [first.hold.id]
    assert sum(seen.values()) == 20


def _chapel(salesperson: str) -> HoldRequest:
    return request(room="chapel", day=DAY, start="11:00", end="12:00", salesperson=salesperson)


def _hall(salesperson: str) -> HoldRequest:
    return request(room="hoo-a", day=DAY, start="13:00", end="15:00", salesperson=salesperson)


def test_both_candidate_dates_confirmed_at_once_keeps_exactly_one(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """Two clicks, one per date: the enquiry row lets one through; the other date is
    released as the customer's choice and its own confirm finds it decided."""
    winners: Counter[int] = Counter()
    for _ in range(20):
        venue = engine.save_venue(factories.venue(), now=NOW)
        first = _accepted(engine.request(venue.id, FORWARD.request(DAY, SALES), now=NOW))
        later_day = FORWARD.request(DAY + timedelta(days=7), SALES)
        join = HoldRequest(
            **{**later_day.__dict__, "customer": "", "enquiry_id": first.hold.enquiry_id}
        )
        second = _accepted(engine.request(venue.id, join, now=NOW))
        assert (first.rank, second.rank) == (1, 1)
        answers = race(
            [
                lambda v=venue, h=h: engine.confirm(v.id, h, actor=SALES, now=NOW)
                for h in (first.hold.id, second.hold.id)
            ]
        )
        done = [a for a in answers if isinstance(a, ConfirmAnswer)]
        assert len(done) == 1, answers
        loser = next(a for a in answers if isinstance(a, Refused))
        assert loser.code is Code.ALREADY_DECIDED and loser.hold is not None
        assert loser.hold.status is Status.RELEASED
        assert [h.id for h in done[0].candidates] == [loser.hold.id]
        kinds = [(n.kind, n.hold_id) for n in decision_dms(engine.notices(venue.id))]
        assert kinds == [("other_date_chosen", loser.hold.id)]
        carded = sorted(n.hold_id or 0 for n in engine.notices(venue.id) if n.kind == "card")
        assert carded == sorted([done[0].hold.id, loser.hold.id])  # each card redrawn once
        winners[done[0].hold.id == first.hold.id] += 1
        invariants.check(sa_engine, venue)
    assert sum(winners.values()) == 20
