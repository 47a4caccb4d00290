"""An end at or before the start is past midnight only for an event of at most 12 hours
(docs/rules.md, Requests): 14:00〜翌11:00 is refused, saying how it was read."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.texts.refusals import describe
from core.results import Code, Refused
from core.rules.requests import check_times
from core.rules.spans import end_minute


def test_a_21_hour_overnight_is_refused_saying_how_it_was_read() -> None:
    refused = check_times(14 * 60, end_minute(14 * 60, 11 * 60))
    assert isinstance(refused, Refused) and refused.code is Code.OVERNIGHT_TOO_LONG
    assert (refused.field, refused.rank, refused.limit) == ("end", 21, 12)
    tokyo = ZoneInfo("Asia/Tokyo")
    said = describe(refused, tokyo, "ja")
    assert said.startswith("14:00〜翌11:00 は21時間です。") and "12時間まで" in said
    assert "14:00 to 11:00 the next day would last 21 hours" in describe(refused, tokyo, "en")


def test_a_night_reception_past_midnight_is_fine() -> None:
    assert check_times(22 * 60, end_minute(22 * 60, 5 * 60)) is None  # 7 hours
    assert check_times(20 * 60, end_minute(20 * 60, 8 * 60)) is None  # exactly 12
    assert check_times(9 * 60, 20 * 60) is None  # the same day, 11 hours


def test_the_venue_sets_how_long_an_event_past_midnight_may_last() -> None:
    fourteen_to_eleven = (14 * 60, end_minute(14 * 60, 11 * 60))  # 21 hours
    assert check_times(*fourteen_to_eleven, 21) is None  # max_event_hours = 21
    refused = check_times(22 * 60, end_minute(22 * 60, 7 * 60), 8)  # 9 hours, 8 allowed
    assert isinstance(refused, Refused) and (refused.rank, refused.limit) == (9, 8)
    said = describe(refused, ZoneInfo("Asia/Tokyo"), "ja")
    assert said.startswith("22:00〜翌07:00 は9時間です。") and "8時間まで" in said
