"""The lean search path (core/rules/chances.py) against the whole-rule reference: pure, no
database. The engine test (tests/engine/test_search.py) holds the lean path to the engine's
preview; this one tries many more shapes of items in the way, on one set of live items
per example."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from hypothesis import event, given, settings
from hypothesis import strategies as st

from core.model import Kind, Policy, Room, Venue
from core.results import Chance, Place
from core.rules import chances
from core.rules import search as rules
from core.rules.live_items import Live, LiveItems
from core.rules.spans import local_instant
from tests.support import factories
from tests.support.factories import JST, NOW

PARTS = ("P1", "P2", "P3")
# today (its morning has passed), a Saturday (banquets open 90 days before), a far Saturday
# whose banquet window is closed, the day before the horizon ends
DAYS = (NOW.date(), date(2027, 3, 13), date(2027, 7, 3), date(2029, 2, 28))
CLOCKS = st.integers(min_value=0, max_value=24 * 4).map(lambda q: q * 15)


@st.composite
def venues(draw: st.DrawFn) -> Venue:
    parts = st.frozensets(st.sampled_from(PARTS), min_size=1)
    rooms = {}
    for n, room_parts in enumerate(draw(st.lists(parts, min_size=1, max_size=5, unique=True))):
        turnover = draw(st.sampled_from([0, 30, 60, 90]))
        rooms[f"r{n}"] = Room(f"r{n}", f"Room {n}", room_parts, turnover, n)
    policy = Policy(max_rank=draw(st.integers(min_value=1, max_value=3)))
    # New York's clocks go forward on 14 March 2027: times in the gap lie
    timezone = draw(st.sampled_from(["Asia/Tokyo", "America/New_York"]))
    return factories.venue(policy, rooms=rooms, timezone=timezone)


@st.composite
def live_items(draw: st.DrawFn, day: date) -> tuple[LiveItems, dict[int, datetime | None]]:
    """Items on the parts around ``day`` (up to ten holds, some on several parts), with or
    without a deadline."""
    by_part: dict[str, list[Live]] = {}
    deadlines: dict[int, datetime | None] = {}
    midnight = chances.micros(local_instant(day, 0, JST))
    for hold_id in range(1, draw(st.integers(min_value=0, max_value=10)) + 1):
        start = midnight + draw(st.integers(min_value=-12 * 4, max_value=36 * 4)) * 900_000_000
        end = start + draw(st.integers(min_value=1, max_value=16 * 4)) * 900_000_000
        confirmed = draw(st.booleans())
        first = not confirmed and draw(st.booleans())
        for part in draw(st.frozensets(st.sampled_from(PARTS), min_size=1)):
            by_part.setdefault(part, []).append(Live(hold_id, 1, start, end, confirmed, first))
        if first:
            deadline = NOW + timedelta(days=draw(st.integers(min_value=1, max_value=30)))
            deadlines[hold_id] = draw(st.none() | st.just(deadline))
    return LiveItems(by_part), deadlines


def shown(asked: chances.Asked) -> tuple[object, ...]:
    """What a search reads of a check (a refusal's code and when it opens, not its fields
    for a form: the reference names the first room, the lean check no room)."""
    refused = asked.refused
    return (refused and (refused.code, refused.opens_at), *asked[1:])


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_the_lean_path_answers_as_the_whole_rule(data: st.DataObject) -> None:
    venue = data.draw(venues())
    day = data.draw(st.sampled_from(DAYS))
    live, deadlines = data.draw(live_items(day))
    kind = data.draw(st.sampled_from(list(Kind)))
    times = data.draw(
        st.lists(st.tuples(CLOCKS, st.integers(1, 32)), min_size=1, max_size=3, unique=True)
    )
    looked = [
        Place(on, None, start, start + length * 30, room)
        for on in (day, day + timedelta(days=1))
        for start, length in times
        for room in venue.rooms.values()
    ]
    asked = chances.check_all(looked, venue, kind, NOW)
    reference = chances.check_all_reference(looked, venue, kind, NOW)
    assert [shown(a) for a in asked] == [shown(a) for a in reference]
    got = chances.decide_all(looked, asked, live, deadlines, venue)
    assert got == chances.decide_all_reference(looked, asked, live, deadlines, venue)
    for outcome in {f.outcome for f in got}:
        event(str(outcome))


def test_a_place_next_to_an_item_is_free_and_one_touching_its_turnover_is_not() -> None:
    """Spans are half-open: an item ending as the place starts is not in its way, but the
    room's turnover after the place reaches an item that starts then."""
    room = Room("r", "Room", frozenset({"P1"}), 60, 0)
    venue = factories.venue(Policy(max_rank=2), rooms={"r": room})
    day = date(2027, 3, 10)

    def at(minute: int) -> int:
        return chances.micros(local_instant(day, minute, JST))

    before = Live(1, 1, at(600), at(720), False, True)  # 10:00–12:00
    after = Live(2, 1, at(960), at(1020), True, False)  # 16:00–17:00, confirmed
    live = LiveItems({"P1": [before, after]})
    looked = [Place(day, None, 720, 900, room), Place(day, None, 720, 960, room)]
    asked = chances.check_all(looked, venue, Kind.WEDDING, NOW)
    free, taken = chances.decide_all(looked, asked, live, {}, venue)
    # 12:00–15:00 and its hour of turnover end as the confirmed item starts
    assert (free.outcome, free.ahead) == (Chance.FIRST, ())
    # 12:00–16:00: its turnover runs into the confirmed item
    assert (taken.outcome, taken.ahead) == (Chance.TAKEN, (2,))
    assert [free, taken] == chances.decide_all_reference(looked, asked, live, {}, venue)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_looked_at_is_places_and_check_all_of_them(data: st.DataObject) -> None:
    """What a search runs (each date and times checked once, shared by the rooms) against
    ``places`` and ``check_all``: the same places, in order, with the same checks."""
    venue = data.draw(venues())
    first = data.draw(st.sampled_from(DAYS))
    last = first + timedelta(days=data.draw(st.integers(min_value=0, max_value=3)))
    times = data.draw(st.none() | st.tuples(CLOCKS, st.integers(1, 32)))
    query = rules.Search(
        first,
        last,
        times=None if times is None else (times[0], times[0] + times[1] * 30),
        kind=data.draw(st.sampled_from(list(Kind))),
    )
    today = NOW.astimezone(venue.tz).date()
    looked, asked = chances.looked_at(query, venue, today, NOW)
    assert looked == rules.places(query, venue, today)
    assert asked == chances.check_all(looked, venue, query.kind, NOW)
