"""Reading venue TOML: the contract other tools rely on, and clear errors for bad files."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from core.model import Kind
from core.venue_file import VenueFileError, parse_venue, read_venue_file

EXAMPLE = Path(__file__).parents[2] / "examples" / "venue.toml"


def minimal(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "venue": {"id": "v1", "name": "Hotel"},
        "rooms": [{"id": "hoo", "name": "鳳凰の間", "parts": ["A1", "A2"]}],
    }
    data.update(changes)
    return data


def test_the_example_venue_has_a_ballroom_sold_whole_as_halves_and_thirds() -> None:
    venue = read_venue_file(EXAMPLE)
    parts = {room.id: room.parts for room in venue.rooms.values()}
    whole = parts["hoo"]
    assert len(whole) == 3
    assert parts["hoo-east"] | parts["hoo-west"] == whole
    assert parts["hoo-a"] | parts["hoo-b"] | parts["hoo-c"] == whole
    assert {"sakura", "kiku", "chapel"} <= set(parts)
    assert venue.policy.hold_days[Kind.WEDDING] == 7


def test_defaults_fill_what_a_file_leaves_out() -> None:
    venue = parse_venue(minimal())
    assert venue.timezone == "Asia/Tokyo"
    assert venue.managers == frozenset()
    assert venue.rooms["hoo"].turnover_min == 60
    assert venue.policy.max_rank == 2
    assert venue.policy.priority_days == ("weekends", "jp_holidays")
    assert dict(venue.policy.hold_days) == {Kind.WEDDING: 7, Kind.BANQUET: 3}
    assert (venue.policy.max_items, venue.policy.max_candidates) == (4, 2)


def test_rooms_per_hold_and_candidate_dates_per_enquiry_are_the_venues_to_set() -> None:
    venue = parse_venue(minimal(policy={"max_items": 3, "max_candidates": 1}))
    assert (venue.policy.max_items, venue.policy.max_candidates) == (3, 1)


def test_partial_hold_days_keep_the_other_default() -> None:
    venue = parse_venue(minimal(policy={"hold_days": {"banquet": 5}}))
    assert dict(venue.policy.hold_days) == {Kind.WEDDING: 7, Kind.BANQUET: 5}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rooms": []}, r"\[venue\] table"),
        (minimal(venue={"name": "x"}), "venue.id"),
        (minimal(venue={"id": "v", "name": "x", "timezone": "Mars/Base"}), "IANA"),
        (minimal(rooms=[]), "at least one"),
        (minimal(rooms=[{"id": "a", "name": "A", "parts": []}]), "parts"),
        (minimal(rooms=[{"id": "a", "name": "A", "parts": ["x"], "turnover_min": -1}]), "turnover"),
        (
            minimal(rooms=[{"id": "a", "name": "A", "parts": ["x"]}] * 2),
            "appears twice",
        ),
        (minimal(policy={"max_rank": 0}), "max_rank"),
        (minimal(policy={"hold_days": {"party": 2}}), "wedding"),
        (minimal(policy={"priority_days": ["weekend"]}), "priority_days"),
        (minimal(policy={"surprise": 1}), "unknown key .surprise."),
        (minimal(policy={"max_items": 0}), "policy.max_items must be a whole number from 1 to 10"),
        (minimal(policy={"max_items": 11}), "max_items .* not 11"),
        (minimal(policy={"max_candidates": "2"}), "max_candidates .* not '2'"),
        (minimal(policy={"max_candidates": True}), "max_candidates"),
    ],
)
def test_bad_files_say_what_is_wrong(data: dict[str, Any], message: str) -> None:
    with pytest.raises(VenueFileError, match=message):
        parse_venue(data)


def test_unreadable_and_invalid_toml(tmp_path: Path) -> None:
    with pytest.raises(VenueFileError, match="cannot read"):
        read_venue_file(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[venue\nid=", encoding="utf-8")
    with pytest.raises(VenueFileError, match="not valid TOML"):
        read_venue_file(broken)
    assert tomllib  # the standard library parser is the one used


def test_show_rokuyo_defaults_to_true_and_can_be_turned_off() -> None:
    assert parse_venue(minimal()).policy.show_rokuyo is True
    assert read_venue_file(EXAMPLE).policy.show_rokuyo is True
    assert parse_venue(minimal(policy={"show_rokuyo": False})).policy.show_rokuyo is False


@pytest.mark.parametrize("value", ["false", "yes", 0, 1])
def test_show_rokuyo_must_be_a_boolean(value: Any) -> None:
    with pytest.raises(VenueFileError, match=r"policy.show_rokuyo must be true or false"):
        parse_venue(minimal(policy={"show_rokuyo": value}))


def test_rooms_may_say_how_many_guests_they_seat() -> None:
    rooms = [
        {"id": "hoo", "name": "鳳凰の間", "parts": ["A1"], "capacity": 120},
        {"id": "kiku", "name": "菊の間", "parts": ["K"]},
    ]
    venue = parse_venue(minimal(rooms=rooms))
    assert venue.rooms["hoo"].capacity == 120
    assert venue.rooms["kiku"].capacity is None


@pytest.mark.parametrize("capacity", [0, -5, 1.5, "80", True, 100_001])
def test_a_capacity_that_is_not_a_number_of_guests_is_refused(capacity: object) -> None:
    rooms = [{"id": "hoo", "name": "鳳凰の間", "parts": ["A1"], "capacity": capacity}]
    with pytest.raises(VenueFileError, match="room 'hoo': capacity must be a whole number"):
        parse_venue(minimal(rooms=rooms))


def test_slots_have_a_name_a_start_and_an_end_past_midnight_or_none() -> None:
    slots = [
        {"name": "昼", "start": "11:00", "end": "15:00"},
        {"name": "夜", "start": "18:00"},
        {"name": "深夜", "start": "22:00", "end": "01:00"},
    ]
    venue = parse_venue(minimal(slots=slots))
    assert [(s.name, s.start_min, s.end_min) for s in venue.slots] == [
        ("昼", 660, 900),
        ("夜", 1080, 1440),
        ("深夜", 1320, 1500),
    ]
    assert parse_venue(minimal()).slots == ()


@pytest.mark.parametrize(
    ("slots", "message"),
    [
        ({"name": "昼"}, "slots must be"),
        ([{"name": "昼", "start": "11:00"}, {"name": "昼", "start": "12:00"}], "appears twice"),
        ([{"name": "昼", "start": "11"}], "slot '昼': start must be a time"),
        ([{"name": "昼", "start": "11:00", "end": "25:00"}], "slot '昼': end must be a time"),
        ([{"start": "11:00"}], r"slots\[0\].name must be"),
        ([{"name": "昼", "start": "11:00", "until": "12:00"}], "unknown key .until."),
    ],
)
def test_a_bad_slot_is_refused_with_what_to_write(slots: object, message: str) -> None:
    with pytest.raises(VenueFileError, match=message):
        parse_venue(minimal(slots=slots))


def test_the_example_venue_has_slots_and_capacities() -> None:
    venue = read_venue_file(EXAMPLE)
    assert [s.name for s in venue.slots] == ["昼", "午後", "夜"]
    assert all(room.capacity for room in venue.rooms.values())


def test_notify_first_of_second_defaults_to_on_and_can_be_turned_off() -> None:
    assert parse_venue(minimal()).policy.notify_first_of_second is True
    assert read_venue_file(EXAMPLE).policy.notify_first_of_second is True
    off = parse_venue(minimal(policy={"notify_first_of_second": False}))
    assert off.policy.notify_first_of_second is False
    with pytest.raises(VenueFileError, match=r"policy.notify_first_of_second must be true or"):
        parse_venue(minimal(policy={"notify_first_of_second": "no"}))
