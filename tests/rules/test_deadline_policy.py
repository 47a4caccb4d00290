"""Deadlines as staff read them: a deadline time of day and closed weekdays (pure)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from core.model import Kind, Policy
from core.rules.deadlines import deadline_from, staff_deadline
from core.venue_file import VenueFileError, parse_venue

TOKYO = ZoneInfo("Asia/Tokyo")
MONDAY = datetime(2027, 3, 1, 10, 30, tzinfo=TOKYO)  # 2027-03-01 is a Monday
FAR = datetime(2027, 6, 1, 11, 0, tzinfo=TOKYO)  # an event start far enough not to cap
CLOSED_WED = Policy(closed_weekdays=frozenset({2}))
NINETEEN = Policy(deadline_time=19 * 60)
BOTH = Policy(deadline_time=19 * 60, closed_weekdays=frozenset({2}))


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2027, 3, day, hour, minute, tzinfo=TOKYO)


def test_without_a_policy_a_deadline_runs_to_the_minute() -> None:
    assert deadline_from(MONDAY, Kind.BANQUET, FAR, Policy(), TOKYO) == at(4, 10, 30)


def test_a_deadline_time_lands_on_the_last_day_at_that_time() -> None:
    assert deadline_from(MONDAY, Kind.BANQUET, FAR, NINETEEN, TOKYO) == at(4, 19)
    # late in the evening too: the last day is still three days on, not the day after
    assert deadline_from(at(1, 22, 15), Kind.BANQUET, FAR, NINETEEN, TOKYO) == at(4, 19)


def test_a_deadline_on_a_closed_day_moves_to_the_next_open_day() -> None:
    # Sunday + 3 days = Wednesday (closed): Thursday, same minute
    sunday = datetime(2027, 2, 28, 10, 30, tzinfo=TOKYO)
    assert deadline_from(sunday, Kind.BANQUET, FAR, CLOSED_WED, TOKYO) == at(4, 10, 30)
    assert deadline_from(sunday, Kind.BANQUET, FAR, BOTH, TOKYO) == at(4, 19)
    # Monday + 3 = Thursday: open, unchanged
    assert deadline_from(MONDAY, Kind.BANQUET, FAR, CLOSED_WED, TOKYO) == at(4, 10, 30)


def test_several_closed_days_in_a_row_are_all_skipped() -> None:
    policy = Policy(closed_weekdays=frozenset({1, 2}), deadline_time=18 * 60)
    assert staff_deadline(at(2, 9), policy, TOKYO) == at(4, 18)  # Tue, Wed closed


def test_an_extension_counts_from_the_deadline_and_keeps_the_rules() -> None:
    first = deadline_from(datetime(2027, 2, 28, 9, 0, tzinfo=TOKYO), Kind.BANQUET, FAR, BOTH, TOKYO)
    assert first == at(4, 19)  # Wed closed → Thu 19:00
    assert deadline_from(first, Kind.BANQUET, FAR, BOTH, TOKYO) == at(7, 19)  # Sun
    wedding = deadline_from(first, Kind.WEDDING, FAR, BOTH, TOKYO)
    assert wedding == at(11, 19)  # Thu + 7 = Thu 3/11


def test_the_event_start_still_caps_the_deadline() -> None:
    start = at(3, 12)  # the Wednesday itself
    assert deadline_from(MONDAY, Kind.WEDDING, start, BOTH, TOKYO) == start


def _venue(**policy: Any) -> dict[str, Any]:
    return {
        "venue": {"id": "v1", "name": "Hotel"},
        "rooms": [{"id": "hoo", "name": "鳳凰の間", "parts": ["A1"]}],
        "policy": policy,
    }


def test_the_venue_file_sets_both() -> None:
    policy = parse_venue(_venue(deadline_time="19:00", closed_weekdays=["wed", "Thu"])).policy
    assert (policy.deadline_time, policy.closed_weekdays) == (19 * 60, frozenset({2, 3}))
    unset = parse_venue(_venue()).policy
    assert (unset.deadline_time, unset.closed_weekdays) == (None, frozenset())


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ({"deadline_time": "7pm"}, 'like "19:00"'),
        ({"deadline_time": "24:00"}, "00:00 to 23:59"),
        ({"deadline_time": 1900}, 'like "19:00"'),
        ({"deadline_time": "１９:００"}, 'like "19:00"'),
        ({"closed_weekdays": "wed"}, "must be a list"),
        ({"closed_weekdays": ["wednesday"]}, "'wednesday' is not one of"),
        (
            {"closed_weekdays": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]},
            "leave one day open",
        ),
    ],
)
def test_bad_policy_values_say_what_would_work(policy: dict[str, Any], message: str) -> None:
    with pytest.raises(VenueFileError, match=message):
        parse_venue(_venue(**policy))
