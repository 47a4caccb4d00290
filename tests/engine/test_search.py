"""Finding a slot: what a search answers, checked against the engine's own preview."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date, datetime, timedelta

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from core.engine import HoldEngine
from core.model import HoldRequest, ItemRequest, Kind, Policy, Room, Slot, Status, Venue
from core.operations import answering
from core.results import Availability, Chance, Code, Found, Preview, Refused, RequestAnswer
from core.rules import search as rules
from core.rules.rokuyo import Rokuyo, rokuyo
from core.rules.search import Search
from tests.support import factories
from tests.support.engines import EngineForTests
from tests.support.factories import MANAGER, NOW, SALES

SAT = date(2027, 3, 13)  # a Saturday: wedding-priority, banquets open 90 days before


def with_sizes(spec: Venue, slots: tuple[Slot, ...] = (), **capacity: int) -> Venue:
    rooms = {
        rid: replace(room, capacity=capacity.get(rid.replace("-", "_")))
        for rid, room in spec.rooms.items()
    }
    return replace(spec, rooms=rooms, slots=slots)


@pytest.fixture
def sized(engine: HoldEngine) -> Venue:
    """鳳凰 (120) sold whole or as halves (60 each), 桜 (40), a chapel without a capacity;
    slots 昼 11:00–15:00 and 夜 18:00–21:00."""
    slots = (Slot("昼", 660, 900), Slot("夜", 1080, 1260))
    spec = with_sizes(factories.venue(), slots, hoo=120, hoo_a=60, hoo_b=60, sakura=40)
    return engine.save_venue(spec, now=NOW)


def search(engine: HoldEngine, venue: Venue, query: Search, now: datetime = NOW) -> Availability:
    answer = engine.search(venue.id, query, now=now)
    assert isinstance(answer, Availability), answer
    return answer


def test_capacities_and_slots_are_stored_and_read_back(engine: HoldEngine) -> None:
    spec = factories.venue()
    rooms = dict(spec.rooms)
    rooms["hoo"] = replace(rooms["hoo"], capacity=120)
    slots = (Slot("昼", 660, 900), Slot("夜", 1080, 1500))
    saved = engine.save_venue(replace(spec, rooms=rooms, slots=slots), now=NOW)
    assert saved.slots == slots
    assert saved.rooms["hoo"].capacity == 120
    assert saved.rooms["sakura"].capacity is None
    # a later file without them takes them away
    again = engine.save_venue(replace(spec, rooms=dict(spec.rooms)), now=NOW)
    assert again.slots == () and again.rooms["hoo"] == Room(
        "hoo", "鳳凰の間", frozenset({"A1", "A2"}), 60, 0
    )


def test_each_slot_and_room_says_what_a_request_would_get_smallest_room_first(
    engine: HoldEngine, sized: Venue
) -> None:
    first = engine.request(sized.id, factories.request(room="hoo-a", day=SAT), now=NOW)
    assert isinstance(first, RequestAnswer)
    answer = search(engine, sized, Search(SAT, SAT, guests=50))
    rows = [(f.place.slot, f.place.room.id, f.outcome, f.ahead) for f in answer.found]
    assert rows == [
        ("昼", "hoo-a", Chance.SECOND, (first.hold.id,)),
        ("昼", "hoo-b", Chance.FIRST, ()),
        ("昼", "hoo", Chance.SECOND, (first.hold.id,)),
        ("昼", "chapel", Chance.FIRST, ()),  # capacity not set: kept, last
        ("夜", "hoo-a", Chance.FIRST, ()),
        ("夜", "hoo-b", Chance.FIRST, ()),
        ("夜", "hoo", Chance.FIRST, ()),
        ("夜", "chapel", Chance.FIRST, ()),
    ]  # 桜 seats 40: left out
    second = answer.found[0]
    assert second.rank == 2 and second.until == first.expires_at
    assert second.rokuyo is rokuyo(SAT)


def test_confirmed_and_full_are_taken_and_banquets_wait_for_their_window(
    engine: HoldEngine, sized: Venue
) -> None:
    booked = engine.request(sized.id, factories.request(room="sakura", day=SAT), now=NOW)
    assert isinstance(booked, RequestAnswer)
    engine.confirm(sized.id, booked.hold.id, actor=SALES, now=NOW)
    one = engine.request(sized.id, factories.request(room="hoo", day=SAT), now=NOW)
    two = engine.request(sized.id, factories.request(room="hoo", day=SAT), now=NOW)
    assert isinstance(one, RequestAnswer) and isinstance(two, RequestAnswer)
    query = Search(SAT, SAT, rooms=("sakura", "hoo"), slots=("昼",))
    found = {f.place.room.id: f for f in search(engine, sized, query).found}
    assert (found["sakura"].outcome, found["sakura"].ahead) == (Chance.TAKEN, (booked.hold.id,))
    assert found["sakura"].until is None
    assert (found["hoo"].outcome, found["hoo"].ahead) == (Chance.TAKEN, (one.hold.id,))
    assert found["hoo"].until == one.expires_at  # when the line may move
    july = date(2027, 7, 3)  # a Saturday 124 days ahead: banquets open 90 days before
    banquet = Search(july, july, rooms=("hoo-b",), slots=("昼",), kind=Kind.BANQUET)
    (closed,) = search(engine, sized, banquet).found
    assert closed.outcome is Chance.NOT_OPEN
    assert closed.until == datetime(2027, 4, 4, tzinfo=factories.JST)
    (wedding,) = search(engine, sized, replace(banquet, kind=Kind.WEDDING)).found
    assert wedding.outcome is Chance.FIRST


def test_without_slots_or_times_the_whole_day_and_with_times_those(engine: HoldEngine) -> None:
    plain = engine.save_venue(factories.venue(), now=NOW)
    held = engine.request(
        plain.id, factories.request(room="sakura", start="20:00", end="23:00"), now=NOW
    )
    assert isinstance(held, RequestAnswer)
    (day,) = search(engine, plain, Search(factories.DAY, factories.DAY, rooms=("sakura",))).found
    assert (day.place.slot, day.place.start_min, day.place.end_min) == (None, 0, 1440)
    assert day.outcome is Chance.SECOND
    morning = Search(factories.DAY, factories.DAY, rooms=("sakura",), times=(540, 720))
    (free,) = search(engine, plain, morning).found
    assert free.outcome is Chance.FIRST


def test_days_and_rokuyo_choose_the_dates_and_past_or_far_dates_are_left_out(
    engine: HoldEngine, sized: Venue
) -> None:
    october = Search(
        date(2027, 10, 1),
        date(2027, 10, 31),
        rooms=("sakura",),
        slots=("昼",),
        days=frozenset({"weekends"}),
        rokuyo=frozenset({Rokuyo.TAIAN}),
    )
    days = [f.place.day for f in search(engine, sized, october).found]
    assert days == [date(2027, 10, 2), date(2027, 10, 30)]
    assert all(rokuyo(d) is Rokuyo.TAIAN and d.weekday() >= 5 for d in days)
    holidays = replace(october, days=frozenset({"holidays"}), rokuyo=frozenset())
    assert [f.place.day for f in search(engine, sized, holidays).found] == [date(2027, 10, 11)]
    # today's 昼 has begun at 12:00; the horizon ends 730 days after today
    noon = NOW.replace(hour=12)
    today = Search(noon.date(), noon.date(), rooms=("sakura",))
    assert [f.place.slot for f in search(engine, sized, today, noon).found] == ["夜"]
    far = Search(date(2029, 2, 27), date(2029, 3, 3), rooms=("sakura",), slots=("昼",))
    assert [f.place.day for f in search(engine, sized, far).found] == [
        date(2029, 2, 27),
        date(2029, 2, 28),  # 2027-03-01 + 730 days: the last bookable day
    ]


@pytest.mark.parametrize(
    ("query", "code"),
    [
        (Search(SAT, SAT - timedelta(days=1)), Code.BAD_RANGE),
        (Search(SAT, SAT + timedelta(days=366)), Code.RANGE_TOO_LONG),
        (Search(SAT, SAT, rooms=("ballroom",)), Code.UNKNOWN_ROOM),
        (Search(SAT, SAT, slots=("朝",)), Code.UNKNOWN_SLOT),
        (Search(SAT, SAT, times=(900, 900)), Code.BAD_TIMES),
        (Search(SAT, SAT, guests=0), Code.BAD_GUESTS),
        (Search(SAT, SAT, days=frozenset({"someday"})), Code.BAD_DAYS),
    ],
)
def test_a_bad_search_is_refused_before_anything_is_read(
    engine: HoldEngine, sized: Venue, query: Search, code: Code
) -> None:
    answer = engine.search(sized.id, query, now=NOW)
    assert isinstance(answer, Refused) and answer.code is code
    whole_year = engine.search(sized.id, Search(SAT, SAT + timedelta(days=365)), now=NOW)
    assert isinstance(whole_year, Availability)


@pytest.fixture
def statements(sa_engine: sa.Engine) -> Iterator[list[str]]:
    said: list[str] = []

    def record(*args: object) -> None:
        said.append(str(args[2]))

    sa.event.listen(sa_engine, "before_cursor_execute", record)
    yield said
    sa.event.remove(sa_engine, "before_cursor_execute", record)


def test_a_search_is_one_statement_however_many_days_and_rooms(
    engine: HoldEngine, sized: Venue, statements: list[str]
) -> None:
    for n in range(6):
        day = SAT + timedelta(days=n)
        engine.request(sized.id, factories.request(room="hoo", day=day), now=NOW)
    engine.venue(sized.id)  # the venue is in this process's cache, as it is when serving
    statements.clear()
    answer = search(engine, sized, Search(SAT, SAT + timedelta(days=91)))
    assert answer.looked == 92 * 2 * 5
    assert len(statements) == 1, statements
    assert "hold_spans" in statements[0]


# -- the brute force: a search agrees with the preview of every place it looks at -------------
PARTS = ("P1", "P2", "P3")
ROOM_PARTS = st.lists(
    st.frozensets(st.sampled_from(PARTS), min_size=1), min_size=1, max_size=5, unique=True
)
CLOCKS = st.integers(min_value=8 * 4, max_value=23 * 4).map(lambda q: q * 15)


@st.composite
def venues(draw: st.DrawFn) -> Venue:
    rooms = {}
    for n, parts in enumerate(draw(ROOM_PARTS)):
        capacity = draw(st.none() | st.integers(min_value=10, max_value=200))
        turnover = draw(st.sampled_from([0, 30, 60, 90]))
        rooms[f"r{n}"] = Room(f"r{n}", f"Room {n}", parts, turnover, n, capacity=capacity)
    slots = []
    for n in range(draw(st.integers(min_value=0, max_value=3))):
        start = draw(CLOCKS)
        length = draw(st.integers(min_value=2, max_value=24)) * 15
        slots.append(Slot(f"s{n}", start, start + length))
    policy = Policy(max_rank=draw(st.integers(min_value=1, max_value=3)))
    return factories.venue(policy, rooms=rooms, slots=tuple(slots))


@st.composite
def holds(draw: st.DrawFn, venue: Venue, first: date) -> list[tuple[HoldRequest, bool]]:
    """Requests (a package now and then) and whether to confirm each if it comes 1st."""
    made = []
    for _ in range(draw(st.integers(min_value=0, max_value=14))):
        rooms = draw(st.lists(st.sampled_from(sorted(venue.rooms)), min_size=1, max_size=2))
        day = first + timedelta(days=draw(st.integers(min_value=-1, max_value=4)))
        items = []
        for room in rooms:
            start = draw(CLOCKS)
            items.append(ItemRequest(room, start, start + draw(st.integers(1, 20)) * 30))
        kind = draw(st.sampled_from(["wedding", "wedding", "banquet"]))
        req = HoldRequest(
            room_id=items[0].room_id,
            local_date=day,
            start_min=items[0].start_min,
            end_min=items[0].end_min,
            kind=kind,
            customer=f"客{len(made)}",
            salesperson=SALES,
            creator=SALES,
            also=tuple(items[1:]),
        )
        made.append((req, draw(st.booleans())))
    return made


def expected(engine: HoldEngine, venue: Venue, req: HoldRequest) -> tuple[object, ...]:
    """What the engine's preview says a request for the place would get, as a search says it."""
    answer = engine.preview(venue.id, req, now=NOW)
    if isinstance(answer, Preview):
        outcome = Chance.FIRST if answer.rank == 1 else Chance.SECOND
        ahead = tuple(h.id for h in answer.ahead)
        deadlines = [h.expires_at for h in answer.ahead]
        waits = answer.rank > 1 and deadlines and all(deadlines)
        return (outcome, answer.rank, ahead, max(d for d in deadlines if d) if waits else None)
    if answer.code in (Code.CONFIRMED_CONFLICT, Code.RANK_TOO_LOW):
        ahead = tuple(h.id for h in answer.holders)
        deadlines = [h.expires_at for h in answer.holders]
        full = answer.code is Code.RANK_TOO_LOW and deadlines and all(deadlines)
        return (Chance.TAKEN, None, ahead, max(d for d in deadlines if d) if full else None)
    if answer.code is Code.BANQUET_NOT_OPEN:
        return (Chance.NOT_OPEN, None, (), answer.opens_at)
    assert answer.code in (Code.IN_PAST, Code.BEYOND_HORIZON), answer
    return ("left out",)


@settings(
    max_examples=25,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],  # each example writes: shrinking takes minutes
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_search_agrees_with_the_preview_of_each_place(
    engine: HoldEngine, data: st.DataObject
) -> None:
    spec = data.draw(venues())
    venue = engine.save_venue(spec, now=NOW)
    # Saturdays and weekdays, near (today, whose morning has passed) and far (banquets closed)
    first = data.draw(st.sampled_from([NOW.date(), SAT, date(2027, 7, 2)]))
    for req, confirm in data.draw(holds(venue, first)):
        made = engine.request(venue.id, req, now=NOW)
        if confirm and isinstance(made, RequestAnswer) and made.rank == 1:
            engine.confirm(venue.id, made.hold.id, actor=MANAGER, now=NOW)
    kind = data.draw(st.sampled_from(list(Kind)))
    guests = data.draw(st.none() | st.integers(min_value=10, max_value=150))
    times = data.draw(
        st.none() | st.tuples(CLOCKS, st.integers(1, 12)).map(lambda t: (t[0], t[0] + t[1] * 30))
    )
    query = Search(first, first + timedelta(days=3), guests=guests, times=times, kind=kind)
    answer = search(engine, venue, query)
    got = {
        (f.place.day, f.place.slot, f.place.start_min, f.place.room.id): (
            f.outcome,
            f.rank,
            f.ahead,
            f.until,
        )
        for f in answer.found
    }
    looked = rules.places(query, venue, NOW.astimezone(venue.tz).date())
    assert answer.looked == len(looked)
    for place in looked:
        req = factories.request(room=place.room.id, day=place.day, kind=kind)
        req = replace(req, start_min=place.start_min, end_min=place.end_min)
        key = (place.day, place.slot, place.start_min, place.room.id)
        want = expected(engine, venue, req)
        assert got.get(key, ("left out",)) == want, (place, got.get(key), want)
        event(str(want[0]))
    slot_at = {s.name: n for n, s in enumerate(venue.slots)}
    order = [
        (f.place.day, slot_at.get(f.place.slot or "", 0), rules.size_order(f.place.room))
        for f in answer.found
    ]
    assert order == sorted(order)


# -- alternatives -------------------------------------------------------------------------------
def each_succeeds(
    engine: HoldEngine, venue: Venue, req: HoldRequest, offered: tuple[Found, ...]
) -> None:
    """Every alternative, requested on its own, is accepted at the rank it was offered at."""
    for found in offered:
        alt = replace(
            req,
            room_id=found.place.room.id,
            local_date=found.place.day,
            start_min=found.place.start_min,
            end_min=found.place.end_min,
        )
        made = engine.request(venue.id, alt, now=NOW)
        assert isinstance(made, RequestAnswer), (found, made)
        assert made.rank == found.rank
        # released at once: the state the next alternative was offered in
        assert engine.release(venue.id, made.hold.id, actor=SALES, now=NOW).ok


def test_a_taken_place_offers_larger_rooms_then_nearby_days_of_its_kind(
    engine: HoldEngine, sized: Venue
) -> None:
    wanted = factories.request(room="hoo-a", day=SAT)
    booked = engine.request(sized.id, wanted, now=NOW)
    assert isinstance(booked, RequestAnswer)
    engine.confirm(sized.id, booked.hold.id, actor=SALES, now=NOW)
    # hoo-b is as large (60) and free; hoo (120) shares A1 with the booking
    refused = engine.request(sized.id, wanted, now=NOW)
    assert isinstance(refused, Refused) and refused.code is Code.CONFIRMED_CONFLICT
    offered = [(f.place.room.id, f.place.day, f.rank) for f in refused.alternatives]
    week = [SAT + timedelta(days=n) for n in (1, -6, -7, 7)]
    assert [d.weekday() for d in week] == [6, 6, 5, 5]
    # the other room as large first, then weekend days nearest first (earlier on a tie)
    assert offered == [("hoo-b", SAT, 1)] + [("hoo-a", d, 1) for d in week]
    each_succeeds(engine, sized, wanted, refused.alternatives)
    preview = engine.preview(sized.id, wanted, now=NOW)
    assert isinstance(preview, Refused) and preview.alternatives == refused.alternatives


def test_a_full_line_offers_seconds_too_and_other_refusals_offer_nothing(
    engine: HoldEngine,
) -> None:
    venue = engine.save_venue(factories.venue(Policy(max_rank=2)), now=NOW)
    wanted = factories.request(room="sakura")
    for _ in range(2):
        assert isinstance(engine.request(venue.id, wanted, now=NOW), RequestAnswer)
    blocker = engine.request(venue.id, factories.request(room="hoo"), now=NOW)
    assert isinstance(blocker, RequestAnswer)
    refused = engine.request(venue.id, wanted, now=NOW)
    assert isinstance(refused, Refused) and refused.code is Code.RANK_TOO_LOW
    ranks = {f.place.room.id: f.rank for f in refused.alternatives if f.place.day == factories.DAY}
    # no capacities: every other room, and 鳳凰 halves wait behind the whole-room hold
    assert ranks == {"hoo-a": 2, "hoo-b": 2, "hoo": 2, "chapel": 1}
    assert len(refused.alternatives) == 5
    each_succeeds(engine, venue, wanted, refused.alternatives)
    past = engine.request(venue.id, factories.request(day=NOW.date() - timedelta(days=1)), now=NOW)
    assert isinstance(past, Refused) and past.alternatives == ()


def test_a_refusal_read_on_a_venue_changed_since_its_rollback_offers_the_new_venues_places(
    engine: HoldEngine, sa_engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alternatives are read on the refused request's own connection after its rollback;
    when another process has changed the venue in between, on the new venue instead."""
    spec = factories.venue(Policy(max_rank=1))
    venue = engine.save_venue(spec, now=NOW)
    wanted = factories.request(room="sakura")
    assert isinstance(engine.request(venue.id, wanted, now=NOW), RequestAnswer)
    worded = answering.worded

    def a_room_added_meanwhile(*args: object) -> object:
        rooms = {**spec.rooms, "kiku": Room("kiku", "菊の間", frozenset({"K1"}), 30, 9)}
        EngineForTests(sa_engine, queue=False).save_venue(replace(spec, rooms=rooms), now=NOW)
        return worded(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(answering, "worded", a_room_added_meanwhile)
    refused = engine.request(venue.id, wanted, now=NOW)
    assert isinstance(refused, Refused) and refused.code is Code.RANK_TOO_LOW
    rooms = {f.place.room.id for f in refused.alternatives if f.place.day == factories.DAY}
    assert "kiku" in rooms, refused.alternatives


@settings(
    max_examples=20,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_every_alternative_offered_succeeds(engine: HoldEngine, data: st.DataObject) -> None:
    venue = engine.save_venue(data.draw(venues()), now=NOW)
    first = data.draw(st.sampled_from([SAT, date(2027, 7, 2)]))
    for req, confirm in data.draw(holds(venue, first)):
        made = engine.request(venue.id, req, now=NOW)
        if confirm and isinstance(made, RequestAnswer) and made.rank == 1:
            engine.confirm(venue.id, made.hold.id, actor=MANAGER, now=NOW)
    live = engine.holds(venue.id, statuses=[Status.TENTATIVE, Status.CONFIRMED])
    if not live:
        return
    target = data.draw(st.sampled_from(live))
    kind = data.draw(st.sampled_from(["wedding", "banquet"]))
    wanted = factories.request(room=target.room_id, day=target.local_date, kind=kind)
    start = target.start_at.astimezone(venue.tz)
    minutes = start.hour * 60 + start.minute
    wanted = replace(wanted, start_min=minutes, end_min=minutes + 120)
    refused = engine.request(venue.id, wanted, now=NOW)
    if isinstance(refused, Refused):
        event(f"refused {refused.code} with {len(refused.alternatives)}")
        assert len(refused.alternatives) <= 5
        each_succeeds(engine, venue, wanted, refused.alternatives)
