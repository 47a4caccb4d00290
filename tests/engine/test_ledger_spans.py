"""The spans each part-day row carries (migration 0006's triggers) answer a request's bump with
exactly what a read of ``hold_spans`` finds in its way, through every change a hold goes
through, on PostgreSQL."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import date, timedelta

import sqlalchemy as sa

from core.engine import HoldEngine
from core.model import ItemRequest, Venue
from core.results import RequestAnswer
from core.rules.requests import Checked, check_request
from core.rules.spans import span_counts
from core.store import holds, part_days
from tests.support import factories, invariants
from tests.support.factories import NOW, request

DAY = date(2027, 3, 10)
BESIDE = {"hoo": "sakura", "hoo-a": "hoo-b", "hoo-b": "chapel", "sakura": "hoo", "chapel": "hoo-a"}
CLOCKS = (("09:00", "12:00"), ("13:00", "17:00"), ("21:00", "01:00"), ("23:30", "02:00"))


def probes(venue: Venue) -> list[Checked]:
    """A request for every room at every clock, the day before the holds to the day after:
    whole ballroom and halves, spans across midnight, turnover touching the next day."""
    found = []
    for room, day, (start, end) in itertools.product(
        venue.rooms, (DAY - timedelta(days=1), DAY, DAY + timedelta(days=1)), CLOCKS
    ):
        asked = request(room=room, day=day, start=start, end=end)
        # and a package of it with the room beside it six hours later: each item meets
        # only its own parts at its own times
        later = (asked.start_min + 360, asked.end_min + 360)
        beside = ItemRequest(BESIDE[room], *later)
        checked = check_request(asked, venue, NOW)
        assert isinstance(checked, Checked)
        package = check_request(replace(asked, also=(beside,)), venue, NOW)
        found += [checked, package] if isinstance(package, Checked) else [checked]
    singles = len(venue.rooms) * 3 * len(CLOCKS)
    assert len(found) - singles >= singles // 2, "packages (some end too late to be asked)"
    return found


def assert_bump_answers_the_span_rows(sa_engine: sa.Engine, venue: Venue) -> int:
    """For every probe: the bump's occupants == the index read's; the bump is rolled back."""
    seen = 0
    for checked in probes(venue):
        with sa_engine.connect() as raw:
            conn = raw.execution_options(isolation_level="SERIALIZABLE")
            with conn.begin() as tx:
                bumped = part_days.bump_counted(conn, venue, span_counts(checked.spans, venue.tz))
                read = holds.occupants(conn, venue, checked.spans)
                assert bumped.occupants(checked.spans) == read, checked.spans
                seen += len(read)
                tx.rollback()
    return seen


def test_the_bump_answers_what_is_in_the_way_through_every_change(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    venue = engine.save_venue(factories.venue(), now=NOW)
    made = []
    for room, (start, end) in [
        ("hoo", ("11:00", "15:00")),
        ("hoo-a", ("10:00", "12:00")),  # 2nd behind the whole ballroom
        ("hoo-b", ("21:00", "01:00")),  # across midnight, turnover on the next day
        ("sakura", ("23:30", "02:00")),
        ("chapel", ("09:00", "10:00")),
        ("sakura", ("09:00", "12:00")),
    ]:
        answer = engine.request(
            venue.id, request(room=room, day=DAY, start=start, end=end), now=NOW
        )
        assert isinstance(answer, RequestAnswer)
        made.append(answer.hold)
    assert assert_bump_answers_the_span_rows(sa_engine, venue) > 0
    invariants.check(sa_engine, venue)

    engine.confirm(venue.id, made[4].id, actor=factories.SALES, now=NOW)  # flags change
    engine.release(venue.id, made[0].id, actor=factories.SALES, now=NOW)  # 2nd promoted
    engine.release(venue.id, made[3].id, actor=factories.SALES, now=NOW)  # spans leave
    invariants.check(sa_engine, venue)
    assert assert_bump_answers_the_span_rows(sa_engine, venue) > 0


def test_a_request_in_the_way_of_nothing_carries_no_spans_back(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    venue = engine.save_venue(factories.venue(), now=NOW)
    assert assert_bump_answers_the_span_rows(sa_engine, venue) == 0
    with sa_engine.connect() as conn:
        carried = conn.execute(
            sa.text("SELECT count(*) FROM part_days WHERE venue_id = :v AND spans <> '{}'"),
            {"v": venue.id},
        ).scalar_one()
    assert carried == 0
