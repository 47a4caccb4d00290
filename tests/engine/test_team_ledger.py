"""What managers read of the whole ledger, on PostgreSQL: a day's rooms, the team's deadlines
and 2nd queues, a month's outcomes, and how many statements each read takes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from core.engine import HoldEngine
from core.model import Kind, Status, Venue
from core.results import ConfirmAnswer, Refused, ReleaseAnswer, RequestAnswer
from tests.support import factories
from tests.support.factories import DAY, JST, MANAGER, NOW, SALES, decision_dms, later, request

OTHER = "U0SALES002"


def held(result: RequestAnswer | Refused) -> RequestAnswer:
    assert isinstance(result, RequestAnswer), result
    return result


@contextmanager
def statements(db: sa.Engine) -> Iterator[list[str]]:
    """The SQL statements run on ``db`` meanwhile (every connection of its pool)."""
    seen: list[str] = []

    def note(*args: Any) -> None:
        seen.append(args[2])

    sa.event.listen(db, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        sa.event.remove(db, "before_cursor_execute", note)


def test_a_day_shows_each_room_in_time_order_with_rank_salesperson_deadline_and_turnover(
    engine: HoldEngine, venue: Venue
) -> None:
    evening = held(engine.request(venue.id, request("hoo", start="17:00", end="20:00"), now=NOW))
    noon = held(
        engine.request(
            venue.id, request("hoo", start="11:00", end="15:00", salesperson=OTHER), now=NOW
        )
    )
    second = held(engine.request(venue.id, request("hoo-a", start="12:00", end="13:00"), now=NOW))
    elsewhere = held(
        engine.request(venue.id, request("sakura", day=DAY + timedelta(days=1)), now=NOW)
    )
    released = held(engine.request(venue.id, request("chapel"), now=NOW))
    assert isinstance(
        engine.release(venue.id, released.hold.id, actor=SALES, now=NOW), ReleaseAnswer
    )

    ledger = engine.day(venue.id, DAY)

    assert ledger.day == DAY
    assert [r.room.id for r in ledger.rooms] == ["hoo", "hoo-a", "hoo-b", "sakura", "chapel"]
    hoo = ledger.rooms[0]
    assert [b.hold.id for b in hoo.bookings] == [noon.hold.id, second.hold.id, evening.hold.id]
    first, behind, late = hoo.bookings
    assert (first.hold.rank, first.hold.salesperson, first.shared) == (1, OTHER, False)
    assert first.hold.expires_at == noon.expires_at is not None
    assert first.turnover_min == 60
    assert (behind.hold.rank, behind.hold.expires_at, behind.shared) == (2, None, True)
    assert late.hold.rank == 1 and late.item.start_at == datetime(2027, 3, 10, 17, tzinfo=JST)
    # 鳳凰A shares A1 with 鳳凰の間: both of 鳳凰の間's holds and its own take it; 鳳凰B only the
    # whole-room ones; the released chapel hold and the next day's hold are not there.
    assert [b.hold.id for b in ledger.rooms[1].bookings] == [
        noon.hold.id,
        second.hold.id,
        evening.hold.id,
    ]
    assert [b.hold.id for b in ledger.rooms[2].bookings] == [noon.hold.id, evening.hold.id]
    assert ledger.rooms[3].bookings == () and ledger.rooms[4].bookings == ()
    assert [b.hold.id for b in engine.day(venue.id, DAY + timedelta(days=1)).rooms[3].bookings] == [
        elsewhere.hold.id
    ]


def test_a_day_of_some_rooms_and_a_hold_from_the_night_before(
    engine: HoldEngine, venue: Venue
) -> None:
    night = held(engine.request(venue.id, request("sakura", start="21:00", end="01:00"), now=NOW))
    ledger = engine.day(venue.id, DAY + timedelta(days=1), rooms={"sakura"})
    assert [r.room.id for r in ledger.rooms] == ["sakura"]
    assert [b.hold.id for b in ledger.rooms[0].bookings] == [night.hold.id]
    assert engine.day(venue.id, DAY + timedelta(days=2), rooms={"sakura"}).rooms[0].bookings == ()


def test_the_team_home_has_every_salespersons_deadlines_today_and_this_week(
    engine: HoldEngine, venue: Venue
) -> None:
    # A banquet's 3 days from 09:00 on 2/26 end at 09:00 today; from 2/27 12:00 at 12:00 on 3/2.
    asked_today = held(
        engine.request(
            venue.id,
            request("hoo", kind=Kind.BANQUET, salesperson=OTHER),
            now=NOW - timedelta(days=2, hours=22),
        )
    )
    this_week = held(engine.request(venue.id, request("sakura", kind=Kind.BANQUET), now=NOW))
    next_month = held(
        engine.request(venue.id, request("chapel", day=date(2027, 4, 20)), now=later(days=1))
    )
    waiting = held(engine.request(venue.id, request("hoo-b", salesperson=OTHER), now=NOW))

    home = engine.team_home(venue.id, now=NOW)

    assert [h.id for h in home.today] == [asked_today.hold.id]
    assert [h.id for h in home.week] == [this_week.hold.id]
    assert next_month.hold.id not in {h.id for h in (*home.today, *home.week)}  # 3/9: beyond
    assert [(q.hold.id, [a.id for a in q.ahead]) for q in home.queues] == [
        (waiting.hold.id, [asked_today.hold.id])
    ]
    assert (home.month.month, home.month.confirmed, home.month.expired) == ("2027-03", 0, 0)


def test_the_queues_name_every_hold_ahead_of_a_whole_room_hold(
    engine: HoldEngine, venue: Venue
) -> None:
    a = held(engine.request(venue.id, request("hoo-a"), now=NOW))
    b = held(engine.request(venue.id, request("hoo-b", salesperson=OTHER), now=NOW))
    whole = held(engine.request(venue.id, request("hoo"), now=NOW))
    past = held(engine.request(venue.id, request("sakura", day=date(2027, 3, 2)), now=NOW))
    held(engine.request(venue.id, request("sakura", day=date(2027, 3, 2)), now=NOW))  # 2nd
    queues = engine.team_home(venue.id, now=NOW + timedelta(days=2)).queues
    # From 3/3 on, the 3/2 queue is history; the whole room waits behind both halves.
    assert [(q.hold.id, sorted(x.id for x in q.ahead)) for q in queues] == [
        (whole.hold.id, sorted([a.hold.id, b.hold.id]))
    ]
    assert past.hold.id not in {q.hold.id for q in queues}


def test_a_months_counts_are_the_outcomes_that_happened_in_it_venue_local(
    engine: HoldEngine, venue: Venue
) -> None:
    winner = held(engine.request(venue.id, request("hoo"), now=NOW))
    loser = held(engine.request(venue.id, request("hoo", salesperson=OTHER), now=NOW))
    gone = held(engine.request(venue.id, request("sakura"), now=NOW))
    lapsing = held(engine.request(venue.id, request("chapel", kind=Kind.BANQUET), now=NOW))
    assert isinstance(engine.confirm(venue.id, winner.hold.id, actor=SALES, now=NOW), ConfirmAnswer)
    assert isinstance(engine.release(venue.id, gone.hold.id, actor=SALES, now=NOW), ReleaseAnswer)
    swept = engine.sweep(venue.id, now=later(days=3))
    assert not isinstance(swept, Refused) and swept.expired == (lapsing.hold.id,)
    # Midnight JST on 4/1 is still March in UTC: a cancel then counts for April.
    april = datetime(2027, 4, 1, 0, 30, tzinfo=JST)
    assert not isinstance(
        engine.cancel(venue.id, winner.hold.id, actor=MANAGER, now=april), Refused
    )

    march = engine.month_counts(venue.id, 2027, 3)
    assert (march.confirmed, march.released, march.lost, march.expired, march.cancelled) == (
        1,
        1,
        1,
        1,
        0,
    )
    assert march.start == datetime(2027, 3, 1, tzinfo=JST)
    assert march.until == datetime(2027, 4, 1, tzinfo=JST)
    assert engine.month_counts(venue.id, 2027, 4).cancelled == 1
    assert engine.month_counts(venue.id, 2027, 2).confirmed == 0
    assert engine.hold(venue.id, loser.hold.id).status is Status.RELEASED  # type: ignore[union-attr]
    dec = engine.month_counts(venue.id, 2026, 12)
    assert dec.until == datetime(2027, 1, 1, tzinfo=JST)


def test_reads_take_a_fixed_number_of_statements_however_many_holds(
    engine: HoldEngine, venue: Venue, sa_engine: sa.Engine
) -> None:
    def counted() -> tuple[int, int]:
        engine.venue(venue.id)  # the venue cached: what is counted is the reads themselves
        with statements(sa_engine) as day:
            engine.day(venue.id, DAY)
        with statements(sa_engine) as home:
            engine.team_home(venue.id, now=NOW)
        return len(day), len(home)

    held(engine.request(venue.id, request("hoo-a"), now=NOW))
    held(engine.request(venue.id, request("hoo"), now=NOW))
    few = counted()
    for n in range(12):
        day = DAY + timedelta(days=n)
        held(engine.request(venue.id, request("sakura", day=day, kind=Kind.BANQUET), now=NOW))
        held(engine.request(venue.id, request("sakura", day=day, salesperson=OTHER), now=NOW))
    many = counted()
    assert few == many, (few, many)
    print("statements (day, home):", many)
    assert 1 <= many[0] <= 4 and 3 <= many[1] <= 9, many  # revision check and the reads


def test_the_monday_digest_gives_each_manager_the_whole_venues_week_once(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:

    boss = "U0MANAGER2"
    venue = engine.save_venue(
        factories.venue(managers=frozenset({MANAGER, boss})), now=NOW - timedelta(days=1)
    )
    mine = held(engine.request(venue.id, request("sakura", kind=Kind.BANQUET), now=NOW))
    theirs = held(
        engine.request(venue.id, request("hoo", kind=Kind.BANQUET, salesperson=OTHER), now=NOW)
    )
    behind = held(engine.request(venue.id, request("hoo-a"), now=NOW))

    assert engine.queue_digests(venue.id, now=NOW) == 4  # two salespeople, two managers
    assert engine.queue_digests(venue.id, now=later(hours=1)) == 0  # once a week

    # (Beside the note OTHER got when ``behind`` queued: test_operations checks those.)
    sent = {(n.kind, n.recipient): n.payload for n in decision_dms(engine.notices(venue.id))}
    assert set(sent) == {
        ("digest", SALES),
        ("digest", OTHER),
        ("manager_digest", MANAGER),
        ("manager_digest", boss),
    }
    whole = sent[("manager_digest", MANAGER)]
    assert [h["id"] for h in whole["holds"]] == [mine.hold.id, theirs.hold.id]
    assert [(w["hold"]["id"], [a["id"] for a in w["ahead"]]) for w in whole["waiting"]] == [
        (behind.hold.id, [theirs.hold.id])
    ]
    assert whole["week"] == "2027-W09"


def test_no_manager_digest_for_an_empty_week(engine: HoldEngine, venue: Venue) -> None:
    gone = held(engine.request(venue.id, request("chapel", day=date(2027, 5, 20)), now=NOW))
    assert isinstance(engine.release(venue.id, gone.hold.id, actor=SALES, now=NOW), ReleaseAnswer)
    assert engine.queue_digests(venue.id, now=NOW) == 0


def test_a_list_from_a_date_on_leaves_past_holds_out_of_its_cap(
    engine: HoldEngine, venue: Venue
) -> None:
    past = held(engine.request(venue.id, request("sakura", day=date(2027, 3, 2)), now=NOW))
    assert isinstance(engine.confirm(venue.id, past.hold.id, actor=SALES, now=NOW), ConfirmAnswer)
    ahead = held(engine.request(venue.id, request("sakura"), now=NOW))
    assert [h.id for h in engine.holds(venue.id, limit=1)] == [past.hold.id]
    assert [h.id for h in engine.holds(venue.id, limit=1, since=date(2027, 3, 3))] == [
        ahead.hold.id
    ]
