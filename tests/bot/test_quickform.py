"""The quick form `/hold 鳳凰 5/15 11:00-15:00 婚礼 山田様` and the room menu's groups."""

from __future__ import annotations

from datetime import date

import pytest

from bot.quickform import QuickForm, QuickItem, parse
from bot.rooms import group_rooms
from core.model import Kind, Room
from tests.support.factories import rooms

TODAY = date(2027, 3, 1)


def hotel() -> list[Room]:
    """The example venue's ballroom: whole, halves (one of them spaced), thirds; and others."""
    spec = [
        ("hoo", "鳳凰の間", {"p1", "p2", "p3"}),
        ("hoo-east", "鳳凰 東", {"p1", "p2"}),
        ("hoo-a", "鳳凰A", {"p1"}),
        ("hoo-b", "鳳凰B", {"p2"}),
        ("hoo-c", "鳳凰C", {"p3"}),
        ("sakura", "桜の間", {"s1"}),
        ("sakuragi", "桜木", {"s2"}),
        ("chapel", "チャペル", {"c1"}),
    ]
    return [Room(rid, name, frozenset(parts), 60, i) for i, (rid, name, parts) in enumerate(spec)]


def read(text: str) -> QuickForm:
    return parse(text, hotel(), TODAY)


def test_the_issue_example_is_read_completely() -> None:
    q = read("鳳凰 5/15 11:00-15:00 婚礼 山田様")
    assert q == QuickForm(
        room_id="hoo",
        day=date(2027, 5, 15),
        start_min=11 * 60,
        end_min=15 * 60,
        kind=Kind.WEDDING,
        customer="山田様",
    )


def test_full_width_digits_wave_dashes_and_full_width_space() -> None:
    q = read("鳳凰の間\u3000５／１５\u3000１１：００〜１５：３０\u3000結婚式\u3000山田様")
    assert (q.room_id, q.day, q.start_min, q.end_min) == ("hoo", date(2027, 5, 15), 660, 930)
    assert q.kind == Kind.WEDDING
    assert read("桜の間 5/15 18:00～21:00 宴会").end_min == 21 * 60


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("11時-15時", 660, 900),
        ("11時半〜15時", 690, 900),
        ("11時30分から15時まで", 690, 900),
        ("18-22", 1080, 1320),
        ("22:00-26:00", 1320, 120),  # 26:00 is 2:00 the next morning
        ("18:00 〜 21:00", 1080, 1260),
        ("11時 15時", 660, 900),
    ],
)
def test_times_in_the_ways_people_write_them(text: str, start: int, end: int) -> None:
    q = read(f"鳳凰 5/15 {text} 婚礼")
    assert (q.start_min, q.end_min) == (start, end)
    assert q.unparsed == ()


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("5/15", date(2027, 5, 15)),
        ("2/10", date(2028, 2, 10)),  # already past this year: next year's
        ("3/1", date(2027, 3, 1)),  # today still counts
        ("5月15日", date(2027, 5, 15)),
        ("5/15(土)", date(2027, 5, 15)),
        ("2028/1/9", date(2028, 1, 9)),
        ("2028-01-09", date(2028, 1, 9)),
        ("2/29", date(2028, 2, 29)),  # the next 29 February
        ("明日", date(2027, 3, 2)),
    ],
)
def test_dates_without_a_year_mean_the_next_such_date(text: str, day: date) -> None:
    assert read(f"鳳凰 {text} 11:00-15:00").day == day


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("婚礼", Kind.WEDDING),
        ("結婚式", Kind.WEDDING),
        ("Wedding", Kind.WEDDING),
        ("宴会", Kind.BANQUET),
        ("一般宴会", Kind.BANQUET),
        ("banquet", Kind.BANQUET),
    ],
)
def test_kind_words(word: str, kind: Kind) -> None:
    assert read(f"桜 5/15 {word}").kind == kind


def test_rooms_by_prefix_and_a_prefix_of_a_whole_room_means_the_whole_room() -> None:
    assert read("チャ 5/15").room_id == "chapel"
    assert read("鳳凰A 5/15").room_id == "hoo-a"
    assert read("鳳凰 5/15").room_id == "hoo"  # contains every room it is a prefix of
    assert read("HOO-EAST 5/15").room_id == "hoo-east"  # ids too, any case
    assert read("鳳凰 東 5/15").room_id == "hoo-east"  # a name with a space in it
    assert read("桜 5/15").room_id == "sakura"  # 桜の間 is exactly 桜 + の間


def test_an_ambiguous_prefix_is_reported_not_guessed() -> None:
    hotel_rooms = [*hotel(), Room("sakuraba", "桜庭", frozenset({"s3"}), 60, 9)]
    q = parse("桜 5/15", [r for r in hotel_rooms if r.id != "sakura"], TODAY)
    assert q.room_id is None
    assert q.ambiguous == (("桜", ("桜木", "桜庭")),)


def test_unknown_words_are_handed_back_and_trailing_words_are_the_customer() -> None:
    q = read("鳳王 5/15 11:00-15:00 婚礼")
    assert q.room_id is None and q.unparsed == ("鳳王",)
    assert q.day == date(2027, 5, 15) and q.kind == Kind.WEDDING

    english = read("sakura 5/15 18-21 banquet ABC Trading")
    assert english.room_id == "sakura" and english.customer == "ABC Trading"


def test_bad_values_are_left_for_the_modal() -> None:
    q = read("鳳凰 13/40 25:00-26:00 婚礼")
    assert q.day is None and q.start_min is None
    assert set(q.unparsed) >= {"13/40"}


def test_empty_text_understands_nothing() -> None:
    assert read("") == QuickForm()


def test_room_groups_whole_partitions_others() -> None:
    groups = group_rooms(hotel())
    assert [r.id for r in groups.whole] == ["hoo"]
    assert [r.id for r in groups.partitions] == ["hoo-east", "hoo-a", "hoo-b", "hoo-c"]
    assert [r.id for r in groups.others] == ["sakura", "sakuragi", "chapel"]


def test_room_groups_leave_out_inactive_rooms_and_keep_venue_order() -> None:
    venue_rooms = rooms()
    venue_rooms["hoo"] = Room("hoo", "鳳凰の間", frozenset({"A1", "A2"}), 60, 0, active=False)
    groups = group_rooms(venue_rooms.values())
    # without the whole room its halves are ordinary rooms
    assert groups.whole == () and groups.partitions == ()
    assert [r.id for r in groups.others] == ["hoo-a", "hoo-b", "sakura", "chapel"]


@pytest.mark.parametrize(
    ("text", "weekday"),
    [
        ("5/15(土)", 5),
        ("5/15（土曜日）", 5),
        ("5/15 (Sat)", 5),
        ("5/15(sat.)", 5),
        ("5/15(Saturday)", 5),
        ("5/15(土・大安)", 5),  # as osae writes it
        ("2027/5/16(日)", 6),
        ("5月16日(月)", 0),
        ("5/15(祝)", None),  # not a weekday: nothing to check
        ("5/15", None),
    ],
)
def test_the_weekday_written_beside_a_date_is_read(text: str, weekday: int | None) -> None:
    q = read(f"鳳凰 {text} 11:00-15:00")
    assert q.weekday == weekday
    assert q.unparsed == ()


def test_a_weekday_that_is_not_the_dates_is_a_mismatch_with_the_dates_real_year() -> None:
    assert read("鳳凰 5/15(土)").weekday_mismatch is False  # 2027-05-15 is a Saturday
    assert read("鳳凰 5/16(土)").weekday_mismatch is True  # 2027-05-16 is a Sunday
    assert read("鳳凰 2026/5/16(土)").weekday_mismatch is False  # 2026-05-16 was a Saturday
    assert parse("鳳凰 5/16(土)", hotel(), date(2026, 3, 1)).weekday_mismatch is False
    assert read("鳳凰 5/16").weekday_mismatch is False


def test_rooms_joined_by_plus_are_one_hold_and_their_words_count_for_the_whole() -> None:
    q = read("5/15 チャペル 11:00-12:00 + 鳳凰 12:30-15:30 婚礼 山田様")
    assert (q.room_id, q.start_min, q.end_min) == ("chapel", 11 * 60, 12 * 60)
    assert q.also == (QuickItem("hoo", 12 * 60 + 30, 15 * 60 + 30),)
    assert (q.day, q.kind, q.customer) == (date(2027, 5, 15), Kind.WEDDING, "山田様")
    assert (q.unparsed, q.bad_items) == ((), ())


def test_full_width_plus_spaced_room_names_and_a_room_past_midnight() -> None:
    q = read("5/15 桜 18:00-20:00＋鳳凰 東 21:00-1:00 宴会 ABC商事")
    assert q.also == (QuickItem("hoo-east", 21 * 60, 60),)
    assert (q.room_id, q.customer) == ("sakura", "ABC商事")


def test_a_piece_after_plus_without_a_room_or_both_times_is_handed_back() -> None:
    q = read("5/15 チャペル 11:00-12:00 + 鳳凰 12:30 + どこか 13:00-14:00 + 桜 16:00-17:00")
    assert q.bad_items == ("鳳凰 12:30", "どこか 13:00-14:00")
    assert q.also == (QuickItem("sakura", 16 * 60, 17 * 60),)
    assert read("5/15 チャペル 11:00-12:00 +").bad_items == ()  # a trailing + is no piece


def test_a_weekday_beside_the_date_of_rooms_joined_by_plus_is_checked_for_the_whole() -> None:
    q = read("5/15(土・大安) チャペル 11:00-12:00 + 鳳凰 12:30-15:30 婚礼 山田様")
    assert (q.day, q.weekday, q.weekday_mismatch) == (date(2027, 5, 15), 5, False)
    assert q.also == (QuickItem("hoo", 12 * 60 + 30, 15 * 60 + 30),)
    assert (q.unparsed, q.bad_items) == ((), ())
    assert read("5/16(土) チャペル 11:00-12:00 + 鳳凰 12:30-15:30").weekday_mismatch is True
