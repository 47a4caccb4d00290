"""Reading /hold free's text into a search: what each kind of word becomes."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from bot.quickfree import parse
from core.model import Kind, Slot
from core.rules.rokuyo import Rokuyo
from tests.support import factories

TODAY = date(2026, 12, 2)
VENUE = replace(factories.venue(), slots=(Slot("昼", 660, 900), Slot("夜", 1080, 1260)))


def test_the_issues_example() -> None:
    quick = parse("10月 土日 大安 80名", VENUE, TODAY)
    search = quick.search
    assert (search.first, search.last) == (date(2027, 10, 1), date(2027, 10, 31))
    assert search.days == frozenset({"weekends"})
    assert search.rokuyo == frozenset({Rokuyo.TAIAN})
    assert search.guests == 80
    assert (search.rooms, search.slots, search.kind) == ((), (), Kind.WEDDING)
    assert quick.unparsed == ()


@pytest.mark.parametrize(
    ("typed", "first", "last"),
    [
        ("12月", TODAY, date(2026, 12, 31)),  # this month: from today
        ("11月", date(2027, 11, 1), date(2027, 11, 30)),  # gone this year: next year's
        ("2028年2月", date(2028, 2, 1), date(2028, 2, 29)),
        ("10/1-11/30", date(2027, 10, 1), date(2027, 11, 30)),
        (
            "１２／２０〜１／１０",
            date(2026, 12, 20),
            date(2027, 1, 10),
        ),  # full width, over new year
        ("3/10", date(2027, 3, 10), date(2027, 3, 10)),
        ("", TODAY, date(2026, 12, 31)),  # nothing said: 30 days from today
    ],
)
def test_months_ranges_and_dates(typed: str, first: date, last: date) -> None:
    search = parse(f"{typed} 土日", VENUE, TODAY).search
    assert (search.first, search.last) == (first, last)


@pytest.mark.parametrize(
    ("typed", "days"),
    [
        ("土日", {"weekends"}),
        ("祝", {"holidays"}),
        ("土日祝", {"weekends", "holidays"}),
        ("平日", {"weekdays"}),
        ("土 日曜", {"sat", "sun"}),
        ("weekends holidays", {"weekends", "holidays"}),
    ],
)
def test_kinds_of_day(typed: str, days: set[str]) -> None:
    assert parse(typed, VENUE, TODAY).search.days == frozenset(days)


def test_rokuyo_slots_rooms_kind_and_what_is_not_understood() -> None:
    quick = parse("大安/友引 昼/夜 鳳凰 宴会 40人 なにか", VENUE, TODAY)
    search = quick.search
    assert search.rokuyo == frozenset({Rokuyo.TAIAN, Rokuyo.TOMOBIKI})
    assert search.slots == ("昼", "夜")
    assert set(search.rooms) == {"hoo", "hoo-a", "hoo-b"}  # every 鳳凰 room
    assert (search.kind, search.guests) == (Kind.BANQUET, 40)
    assert quick.unparsed == ("なにか",)
    assert parse("桜の間 chapel", VENUE, TODAY).search.rooms == ("sakura", "chapel")
