"""Spans, local instants across midnight and DST, and the part-day rows a span touches."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from core.rules.spans import (
    Span,
    end_minute,
    hold_span,
    local_days,
    local_instant,
    part_day_keys,
    skipped,
)

TOKYO = ZoneInfo("Asia/Tokyo")
NEW_YORK = ZoneInfo("America/New_York")


def at(hour: int, minute: int = 0, day: int = 10) -> datetime:
    return datetime(2027, 3, day, hour, minute, tzinfo=TOKYO)


def test_conflict_needs_a_shared_part_and_an_overlap() -> None:
    a = Span(frozenset({"A1"}), at(11), at(15))
    assert a.conflicts(Span(frozenset({"A1", "A2"}), at(14, 59), at(16)))
    assert not a.conflicts(Span(frozenset({"A2"}), at(12), at(13)))
    assert not a.conflicts(Span(frozenset({"A1"}), at(15), at(16)))  # half-open: touching
    assert not Span(frozenset({"A1"}), at(15), at(16)).conflicts(a)


def test_turnover_extends_the_span_past_the_end() -> None:
    span = hold_span(frozenset({"A1"}), at(11), at(15), 60)
    assert span.end == at(16)


def test_end_at_or_before_start_means_past_midnight() -> None:
    assert end_minute(18 * 60, 22 * 60) == 22 * 60
    assert end_minute(18 * 60, 1 * 60) == 25 * 60
    assert end_minute(18 * 60, 18 * 60) == 42 * 60  # a full 24 hours


def test_local_instants_past_midnight_and_across_a_dst_change() -> None:
    assert local_instant(date(2027, 3, 10), 25 * 60 + 30, TOKYO) == at(1, 30, day=11)
    # New York springs forward on 2027-03-14: 00:00 to 04:00 local is three real hours.
    start = local_instant(date(2027, 3, 14), 0, NEW_YORK)
    end = local_instant(date(2027, 3, 14), 4 * 60, NEW_YORK)
    assert end.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=3)


def test_local_days_a_span_touches() -> None:
    assert local_days(at(11), at(16), TOKYO) == [date(2027, 3, 10)]
    assert local_days(at(22), at(0, day=11), TOKYO) == [date(2027, 3, 10)]  # ends at midnight
    assert local_days(at(22), at(2, day=11), TOKYO) == [date(2027, 3, 10), date(2027, 3, 11)]


def test_part_days_are_sorted_and_shared_by_conflicting_spans() -> None:
    whole = Span(frozenset({"A2", "A1"}), at(22), at(2, day=11))
    half = Span(frozenset({"A2"}), at(1, day=11), at(3, day=11))
    keys = part_day_keys([whole], TOKYO)
    assert keys == sorted(keys)
    assert keys == [
        ("A1", date(2027, 3, 10)),
        ("A1", date(2027, 3, 11)),
        ("A2", date(2027, 3, 10)),
        ("A2", date(2027, 3, 11)),
    ]
    assert whole.conflicts(half)
    assert set(part_day_keys([half], TOKYO)) & set(keys)


@settings(max_examples=300, deadline=None)
@given(
    day=st.dates(min_value=date(2020, 1, 1), max_value=date(2040, 12, 31)),
    minute=st.integers(min_value=0, max_value=2 * 1440),
    zone=st.sampled_from(
        ["Asia/Tokyo", "America/New_York", "Europe/London", "Australia/Lord_Howe"]
    ),
)
def test_a_local_instant_is_the_first_instant_the_wall_clock_shows_its_minute(
    day: date, minute: int, zone: str
) -> None:
    """In UTC (absolute arithmetic); the zone's clocks show the minute then, and a minute
    shown twice (fall back) is its first showing. A minute no clock shows (spring forward)
    is one ``skipped`` names, with the whole skipped stretch around it."""
    tz = ZoneInfo(zone)
    wall = datetime(day.year, day.month, day.day) + timedelta(minutes=minute)
    found = local_instant(day, minute, tz)
    assert found.tzinfo is UTC
    gap = skipped(day, minute, tz)
    if gap is None:
        assert found.astimezone(tz).replace(tzinfo=None) == wall
        for back in (30, 60):  # no earlier instant shows it: a time shown twice is the first
            assert (found - timedelta(minutes=back)).astimezone(tz).replace(tzinfo=None) != wall
    else:
        first, after = gap
        assert first <= wall < after <= first + timedelta(hours=1)
        shown = local_instant(first.date(), first.hour * 60 + first.minute, tz)
        before = (shown - timedelta(minutes=1)).astimezone(tz).replace(tzinfo=None)
        assert before == first - timedelta(minutes=1)  # the minute before the gap exists
        assert shown.astimezone(tz).replace(tzinfo=None) == after  # and then clocks jump
