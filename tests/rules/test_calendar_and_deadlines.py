"""Wedding-priority days, banquet opening, deadlines, and checking a request (pure)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from core.model import Kind, Policy
from core.results import Code, Refused
from core.rules.calendar import CalendarError, check_priority_days, is_priority_day
from core.rules.deadlines import banquet_opens_at, deadline_from
from core.rules.requests import Checked, check_request
from tests.support import factories

TOKYO = ZoneInfo("Asia/Tokyo")
NOW = datetime(2027, 3, 1, 9, 0, tzinfo=TOKYO)


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (date(2027, 3, 6), True),  # Saturday
        (date(2027, 3, 7), True),  # Sunday
        (date(2027, 3, 10), False),  # Wednesday
        (date(2027, 3, 22), True),  # 春分の日 (observed Monday) per the holidays calendar
        (date(2027, 5, 3), True),  # 憲法記念日 (Monday)
        (date(2027, 11, 3), True),  # 文化の日 (Wednesday)
        (date(2027, 11, 4), False),
    ],
)
def test_weekends_and_japanese_holidays_are_priority_days(day: date, expected: bool) -> None:
    assert is_priority_day(day, ("weekends", "jp_holidays")) is expected


def test_extra_dates_and_other_countries() -> None:
    assert is_priority_day(date(2027, 11, 4), ("2027-11-04",))
    assert is_priority_day(date(2027, 7, 5), ("us_holidays",))  # Independence Day observed
    assert not is_priority_day(date(2027, 3, 6), ("sundays",))
    with pytest.raises(CalendarError, match="weekend"):
        check_priority_days(("weekend",))
    with pytest.raises(CalendarError, match="no holiday calendar"):
        check_priority_days(("zz_holidays",))


def test_banquets_open_at_local_midnight_ninety_days_before() -> None:
    saturday = date(2027, 6, 5)
    assert banquet_opens_at(saturday, Policy(), TOKYO) == datetime(2027, 3, 7, tzinfo=TOKYO)
    assert banquet_opens_at(date(2027, 6, 9), Policy(), TOKYO) is None


def test_deadlines_never_pass_the_event_start() -> None:
    start = NOW + timedelta(days=2)
    assert deadline_from(NOW, Kind.WEDDING, start, Policy(), TOKYO) == start
    month = NOW + timedelta(days=30)
    assert deadline_from(NOW, Kind.BANQUET, month, Policy(), TOKYO) == NOW + timedelta(days=3)
    policy = Policy(hold_days={Kind.WEDDING: 10, Kind.BANQUET: 1})
    soon = NOW + timedelta(days=5)
    assert deadline_from(NOW, Kind.WEDDING, soon, policy, TOKYO) == soon


def test_check_request_turns_local_times_into_a_span_with_turnover() -> None:
    venue = factories.venue()
    checked = check_request(factories.request(start="18:00", end="01:00"), venue, NOW)
    assert isinstance(checked, Checked)
    assert checked.start == datetime(2027, 3, 10, 18, tzinfo=TOKYO)
    assert checked.end == datetime(2027, 3, 11, 1, tzinfo=TOKYO)
    assert checked.span.end == datetime(2027, 3, 11, 2, tzinfo=TOKYO)
    assert checked.span.parts == frozenset({"A1", "A2"})


def test_check_request_trims_names_and_refuses_a_retired_room() -> None:
    venue = factories.venue()
    checked = check_request(factories.request(customer="  山田様 "), venue, NOW)
    assert isinstance(checked, Checked) and checked.customer == "山田様"
    rooms = dict(venue.rooms)
    rooms["hoo"] = replace(rooms["hoo"], active=False)
    retired = check_request(factories.request(), replace(venue, rooms=rooms), NOW)
    assert isinstance(retired, Refused) and retired.code is Code.UNKNOWN_ROOM


@pytest.mark.parametrize(
    ("day", "code"),
    [
        (date(9999, 12, 31), Code.BEYOND_HORIZON),  # + a night past midnight: year 10000
        (date(1, 1, 1), Code.IN_PAST),  # in UTC, before year 1
    ],
)
def test_dates_at_the_ends_of_the_calendar_are_refused_before_any_arithmetic(
    day: date, code: Code
) -> None:
    late = factories.request(day=day, start="22:00", end="02:00")
    refused = check_request(late, factories.venue(), NOW)
    assert isinstance(refused, Refused) and refused.code is code and refused.field == "date"
