"""The keep-vs-swap rule of an edit (docs/rules.md, Changing a hold), as a pure function."""

from __future__ import annotations

from datetime import UTC, datetime

from core.rules.edit_place import Why, placement
from core.rules.requests import Occupant
from core.rules.spans import Span


def span(parts: str, start: int, end: int) -> Span:
    """Parts and hours of one day."""
    day = datetime(2027, 3, 10, tzinfo=UTC)
    return Span(frozenset(parts.split()), day.replace(hour=start), day.replace(hour=end))


def live(hold_id: int, s: Span, *, first: bool = True, item: int = 1) -> Occupant:
    return Occupant(hold_id, item, s, confirmed=False, first=first)


def test_a_longer_reception_over_its_own_2nd_keeps_the_place() -> None:
    behind = live(2, span("A", 11, 15), first=False)
    found = placement(1, [1], [span("A", 11, 16)], {2}, [behind], {(2, 1): 2})
    assert found.keep and found.item_ranks == (1,)


def test_meeting_a_hold_it_did_not_meet_is_a_swap() -> None:
    there = live(2, span("B", 11, 15))
    found = placement(1, [1], [span("A B", 11, 15)], set(), [there], {(2, 1): 1})
    assert (found.keep, found.why) == (False, Why.MEETS_NEW)


def test_a_later_hold_that_would_rank_worse_makes_it_a_swap() -> None:
    # Hold 1 (A, 12 to 15) already meets holds 2 (A, 10 to 13, 1st: it came later but
    # 1 left room for it before 12) and 3 (2nd behind 2). Grown back to 10, hold 2 would
    # wait behind it: it meets nobody new, yet costs 2 its 1st place.
    two, three = live(2, span("A", 10, 12)), live(3, span("A", 10, 12), first=False)
    found = placement(1, [1], [span("A", 10, 15)], {2, 3}, [two, three], {(2, 1): 1, (3, 1): 2})
    assert (found.keep, found.why) == (False, Why.COSTS_RANK)


def test_its_own_rank_may_get_better_never_worse() -> None:
    ahead = live(1, span("A", 11, 15))
    clear = placement(2, [2], [span("B", 11, 15)], {1}, [], {})
    assert clear.keep and clear.item_ranks == (1,)
    stays = placement(2, [2], [span("A", 12, 15)], {1}, [ahead], {})
    assert stays.keep and stays.item_ranks == (2,)


def test_rooms_added_or_removed_have_no_old_place() -> None:
    found = placement(1, [1], [span("A", 11, 15), span("B", 11, 12)], set(), [], {})
    assert found.why is Why.ROOMS
