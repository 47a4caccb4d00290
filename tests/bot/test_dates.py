"""bot/texts/dates.py: every date with weekday, year when not this year, 六曜; 〜 and 翌; deadlines
with their time and the time left. Pure functions, no database.

The 六曜 asserted here are read from the published table quoted in tests/rules/test_lunisolar.py
(arachne.jp 大安カレンダー): 2026-10-09 赤口, 2026-12-09 大安, 2026-05-16 友引; 2027-10-17 友引
(koyominote.com).
"""

from __future__ import annotations

from datetime import date, datetime

import pytest

from bot.texts import dates
from bot.texts.dates import DateStyle
from core.model import Policy
from tests.support.factories import JST, venue

THIS_YEAR = DateStyle(today=date(2026, 12, 2), rokuyo=True)
NO_ROKUYO = DateStyle(today=date(2026, 12, 2), rokuyo=False)


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=JST)  # type: ignore[misc]


def test_a_day_this_year_has_weekday_and_rokuyo_but_no_year() -> None:
    assert dates.day(date(2026, 10, 9), "ja", style=THIS_YEAR) == "10/9(金・赤口)"
    assert dates.day(date(2026, 12, 9), "ja-JP", style=THIS_YEAR) == "12/9(水・大安)"
    assert dates.day(date(2026, 12, 9), "en-US", style=THIS_YEAR) == "Wed 9 Dec (Taian)"


def test_a_day_of_another_year_carries_its_year() -> None:
    assert dates.day(date(2027, 10, 17), "ja", style=THIS_YEAR) == "2027/10/17(日・友引)"
    assert dates.day(date(2027, 10, 17), "en", style=THIS_YEAR) == "Sun 17 Oct 2027 (Tomobiki)"
    assert dates.day(date(2025, 12, 9), "ja", style=NO_ROKUYO).startswith("2025/12/9(")


def test_a_date_beyond_the_computed_calendar_is_shown_without_rokuyo() -> None:
    assert dates.day(date(9999, 12, 31), "ja", style=THIS_YEAR) == "9999/12/31(金)"
    assert dates.day(date(9999, 12, 31), "en", style=THIS_YEAR) == "Fri 31 Dec 9999"


def test_a_venue_that_hides_rokuyo_shows_only_the_weekday() -> None:
    assert dates.day(date(2026, 5, 16), "ja", style=NO_ROKUYO) == "5/16(土)"
    assert dates.day(date(2026, 5, 16), "en", style=NO_ROKUYO) == "Sat 16 May"


def test_without_a_style_dates_read_as_before() -> None:
    assert dates.day(date(2027, 5, 15), "ja") == "5/15(土)"
    assert dates.day(date(2027, 5, 15), "ja", year=True) == "2027/5/15(土)"
    assert dates.when(at(2026, 12, 8, 19, 20), JST, "ja") == "12/8(火) 19:20"
    assert dates.when(at(2026, 12, 8, 19, 20), JST, "en") == "Tue 8 Dec 19:20"


def test_the_year_follows_the_venue_day_of_now_not_utc() -> None:
    """1 January 00:30 in Tokyo is still 31 December in UTC: the reader's year is the new one."""
    venue_ = venue()
    style = dates.style_for(venue_, at(2027, 1, 1, 0, 30))
    assert style == DateStyle(today=date(2027, 1, 1), rokuyo=True)
    assert dates.day(date(2027, 1, 5), "ja", style=style).startswith("1/5(")
    assert dates.day(date(2026, 12, 28), "ja", style=style).startswith("2026/12/28(")
    hidden = venue(policy=Policy(show_rokuyo=False))
    assert dates.style_for(hidden, at(2027, 1, 1, 0, 30)).rokuyo is False


def test_a_moment_is_shown_on_its_venue_local_day() -> None:
    late = datetime.fromisoformat("2026-12-08T16:30:00+00:00")  # 9th 1:30 in Tokyo
    assert dates.when(late, JST, "ja", style=THIS_YEAR) == "12/9(水・大安) 1:30"
    assert dates.when(late, JST, "en", style=THIS_YEAR) == "Wed 9 Dec (Taian) 1:30"


@pytest.mark.parametrize(
    ("start", "end", "ja", "en"),
    [
        (at(2026, 12, 9, 11), at(2026, 12, 9, 15), "11:00〜15:00", "11:00–15:00"),
        (at(2026, 12, 9, 21), at(2026, 12, 10, 1), "21:00〜翌1:00", "21:00–1:00 (next day)"),
        (at(2026, 12, 9, 21), at(2026, 12, 11, 1), "21:00〜翌々1:00", "21:00–1:00 (+2 days)"),
        (at(2026, 12, 9, 9, 30), at(2026, 12, 9, 23, 59), "9:30〜23:59", "9:30–23:59"),
    ],
)
def test_time_ranges(start: datetime, end: datetime, ja: str, en: str) -> None:
    assert dates.time_range(start, end, JST, "ja") == ja
    assert dates.time_range(start, end, JST, "en-GB") == en


def test_a_deadline_has_weekday_and_time_and_reads_until() -> None:
    due = at(2026, 12, 9, 10, 30)
    assert dates.deadline(due, JST, "ja", style=THIS_YEAR) == "12/9(水・大安) 10:30まで"
    assert dates.deadline(due, JST, "en", style=THIS_YEAR) == "Wed 9 Dec (Taian) 10:30"
    shown = dates.deadline(due, JST, "ja", style=THIS_YEAR, now=at(2026, 12, 6, 9))
    assert shown == "12/9(水・大安) 10:30まで（あと3日）"
    shown = dates.deadline(due, JST, "ja", style=NO_ROKUYO, now=at(2026, 12, 9, 8))
    assert shown == "12/9(水) 10:30まで（本日）"
    shown = dates.deadline(due, JST, "en", style=NO_ROKUYO, now=at(2026, 12, 6, 9))
    assert shown == "Wed 9 Dec 10:30 (3 days left)"


@pytest.mark.parametrize(
    ("now", "ja", "en"),
    [
        (at(2026, 12, 6, 11), "あと3日", "3 days left"),  # counted in calendar days
        (at(2026, 12, 7, 23, 59), "あと2日", "2 days left"),
        (at(2026, 12, 8, 17), "あと17時間", "17 hours left"),  # tomorrow, under a day
        (at(2026, 12, 8, 10, 0), "あと1日", "1 day left"),
        (at(2026, 12, 9, 5), "本日まで", "due today"),
        (at(2026, 12, 9, 9, 59, 30), "あと31分", "31 minutes left"),
        (at(2026, 12, 9, 10, 29, 30), "あと1分", "1 minute left"),
        (at(2026, 12, 9, 10, 30), "期限切れ", "past due"),
    ],
)
def test_time_left(now: datetime, ja: str, en: str) -> None:
    due = at(2026, 12, 9, 10, 30)
    assert dates.time_left(due, now, JST, "ja") == ja
    assert dates.time_left(due, now, JST, "en") == en


def test_weekday_names() -> None:
    assert dates.weekday_name(date(2027, 5, 16).weekday(), "ja") == "日曜日"
    assert dates.weekday_name(5, "en") == "Saturday"
