"""The rank rule (docs/rules.md, Rank) on its own: pure, fast, no database."""

from __future__ import annotations

from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.rank import rank_of
from core.rules.spans import Span
from tests.support.factories import JST
from tests.support.model import rank_among

WHOLE = frozenset({"A1", "A2"})
A1 = frozenset({"A1"})
A2 = frozenset({"A2"})
TURNOVER = timedelta(minutes=60)


def span(parts: frozenset[str], start: str, end: str) -> Span:
    """A hold on 10 March 2027 from ``start`` to ``end`` local time, turnover included."""

    def at(clock: str) -> datetime:
        hours, minutes = (int(x) for x in clock.split(":"))
        return datetime(2027, 3, 10, tzinfo=JST) + timedelta(hours=hours, minutes=minutes)

    return Span(parts, at(start), at(end) + TURNOVER)


def test_same_room_and_time_is_first_then_second_and_a_third_would_be_third() -> None:
    first = span(WHOLE, "11:00", "15:00")
    second = span(WHOLE, "11:00", "15:00")
    third = span(WHOLE, "11:00", "15:00")
    assert rank_of(first, []) == 1
    assert rank_of(second, [first]) == 2
    assert rank_of(third, [first, second]) == 3  # above max rank 2: the request is refused


def test_the_two_halves_are_each_first_at_the_same_time() -> None:
    a1 = span(A1, "11:00", "15:00")
    a2 = span(A2, "11:00", "15:00")
    assert rank_of(a1, []) == 1
    assert rank_of(a2, [a1]) == 1


def test_the_whole_room_after_both_halves_is_second_not_third() -> None:
    a1 = span(A1, "11:00", "15:00")
    a2 = span(A2, "11:00", "15:00")
    assert rank_of(span(WHOLE, "11:00", "15:00"), [a1, a2]) == 2


def test_the_whole_room_after_two_a1_holds_at_different_times_is_still_second() -> None:
    morning = span(A1, "09:00", "11:00")  # span ends 12:00
    evening = span(A1, "17:00", "20:00")
    assert not morning.conflicts(evening)
    assert rank_of(span(WHOLE, "10:00", "19:00"), [morning, evening]) == 2


def test_two_a1_holds_that_overlap_each_other_make_the_whole_room_third() -> None:
    early = span(A1, "09:00", "13:00")
    late = span(A1, "12:00", "16:00")
    assert rank_of(span(WHOLE, "10:00", "19:00"), [early, late]) == 3


def test_touching_spans_do_not_conflict() -> None:
    before = span(WHOLE, "10:00", "11:00")  # span [10:00, 12:00)
    after = span(WHOLE, "12:00", "15:00")
    assert not before.conflicts(after)
    assert not after.conflicts(before)
    assert rank_of(after, [before]) == 1
    assert rank_of(span(WHOLE, "11:59", "15:00"), [before]) == 2


def test_a_chain_of_touching_holds_does_not_add_up() -> None:
    """Holds that follow one another cover no instant together: the count stays 1."""
    chain = [span(A1, "08:00", "09:00"), span(A1, "10:00", "11:00"), span(A1, "12:00", "13:00")]
    assert rank_of(span(WHOLE, "08:00", "13:00"), chain) == 2


def test_an_event_past_midnight_conflicts_with_the_next_morning() -> None:
    late = span(WHOLE, "22:00", "27:00")  # 22:00 to 03:00 next day, span to 04:00
    assert rank_of(span(A2, "27:30", "29:00"), [late]) == 2
    assert rank_of(span(A2, "28:00", "29:00"), [late]) == 1


def test_holds_on_other_parts_do_not_count() -> None:
    whole = span(WHOLE, "11:00", "15:00")
    sakura = Span(frozenset({"S1"}), whole.start, whole.end)
    assert rank_of(whole, [sakura]) == 1


# -- rank_of against brute force ----------------------------------------------------------
PARTS = st.sampled_from([WHOLE, A1, A2, frozenset({"S1"})])
Minutes = tuple[frozenset[str], int, int]  # (parts, start, end) in minutes from 10 March
# Half-hour grid over two days, so that spans touch, nest and run past midnight often.
SPANS = st.builds(
    lambda parts, start, length: (parts, start * 30, (start + length) * 30),
    PARTS,
    st.integers(0, 95),
    st.integers(1, 50),
)


def brute_rank(target: Minutes, earlier: list[Minutes]) -> int:
    """Count, at every minute of every part of ``target``, the earlier spans covering it."""
    parts, start, end = target
    return 1 + max(
        sum(1 for p, s, e in earlier if part in p and s <= minute < e)
        for part in parts
        for minute in range(start, end)
    )


@settings(max_examples=300, deadline=None, database=None)
@given(target=SPANS, earlier=st.lists(SPANS, max_size=6))
def test_rank_of_matches_brute_force(target: Minutes, earlier: list[Minutes]) -> None:
    base = datetime(2027, 3, 10, tzinfo=JST)

    def at(minute: int) -> datetime:
        return base + timedelta(minutes=minute)

    expected = brute_rank(target, earlier)
    spans = [Span(p, at(s), at(e)) for p, s, e in earlier]
    assert rank_of(Span(target[0], at(target[1]), at(target[2])), spans) == expected
    # The model-based test's oracle (tests/support/model.py) counts its own way: check it too.
    model_target = (target[0], at(target[1]), at(target[2]))
    assert rank_among(model_target, [(p, at(s), at(e)) for p, s, e in earlier]) == expected
