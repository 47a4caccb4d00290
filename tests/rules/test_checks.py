"""The checks every way in shares (core.checks), and the venue file refusing with them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import checks
from core.venue_file import VenueFileError, parse_venue


@pytest.mark.parametrize(
    ("typed", "code", "detail"),
    [
        ("山田様\x1b[31m赤", "control", "U+001B"),
        ("a\x00b", "control", "U+0000"),
        ("a\x7fb", "control", "U+007F"),
        ("a\x9bb", "control", "U+009B"),  # C1 CSI: a terminal reads it as ESC [
        ("Hanako\u202eokanaH", "bidi", "U+202E"),
        ("\u2066x\u2069", "bidi", "U+2066"),
        ("line\nbreak", "control", "U+000A"),
    ],
)
def test_control_characters_and_bidi_overrides_are_named_by_code_point(
    typed: str, code: str, detail: str
) -> None:
    assert checks.text(typed) == checks.Problem(code, detail)


def test_line_breaks_and_tabs_pass_only_where_lines_are_allowed_and_joiners_always() -> None:
    assert checks.text("一行目\n二行目\tタブ", lines=True) is None
    assert checks.text("👨\u200d👩\u200d👧 家族\u200f") is None  # ZWJ, a direction mark
    assert checks.text("  ", required=True) == checks.Problem("empty")
    assert checks.text("x" * 201, longest=200) == checks.Problem("too_long", "201", high=200)


@given(st.text())
def test_text_passes_exactly_what_has_no_control_and_no_override(typed: str) -> None:
    bad = [
        c
        for c in typed
        if c < " "
        or "\x7f" <= c < "\xa0"
        or c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    ]
    assert (checks.text(typed) is None) == (not bad)


def test_slack_user_ids_and_venue_ids_have_their_form() -> None:
    assert checks.user_id("U0SALES001") is None and checks.user_id("W0ENTERPR") is None
    for bad in ("<!channel>", "<@U0SALES001>", "bob", "u0sales001", "U0\x1b"):
        assert checks.user_id(bad) is not None, bad
    assert checks.user_id("U0\x1b") == checks.Problem("user_id", "U0U+001B")
    assert checks.venue_id("grand-tokyo") is None and checks.venue_id("v_2") is None
    for bad in ("v test/../<!channel>", "-x", "", "Grand", "x" * 65, "会場"):
        assert checks.venue_id(bad) is not None, bad


def test_numbers_are_whole_and_in_range() -> None:
    assert checks.whole(730, 1, 3650) is None
    assert checks.whole(100_000_000, 1, 3650) == checks.Problem(
        "out_of_range", "100000000", low=1, high=3650
    )
    assert checks.whole(True, 1, 3).code == "not_whole"  # type: ignore[union-attr]
    assert checks.whole("7", 1, 3).code == "not_whole"  # type: ignore[union-attr]


def test_an_unknown_key_names_the_closest_known_one() -> None:
    known = {"id", "name", "parts", "turnover_min", "capacity"}
    assert checks.unknown_key(["turnover", "id"], known) == checks.Problem(
        "unknown_key", "turnover", close="turnover_min"
    )
    assert checks.unknown_key(["capcity"], known).close == "capacity"  # type: ignore[union-attr]
    assert checks.unknown_key(["zzz"], known).close == ""  # type: ignore[union-attr]
    assert checks.unknown_key(["id", "name"], known) is None


def _venue(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "venue": {"id": "v1", "name": "Hotel", "managers": ["U0MANAGER1"]},
        "rooms": [{"id": "hoo", "name": "鳳凰の間", "parts": ["A1", "A2"]}],
    }
    data.update(changes)
    return data


ROOM = {"id": "hoo", "name": "鳳凰の間", "parts": ["A1"]}


@pytest.mark.parametrize(
    ("data", "where", "code", "close"),
    [
        (_venue(rooms=[{**ROOM, "turnover": 30}]), "rooms[0]", "unknown_key", "turnover_min"),
        (_venue(rooms=[{**ROOM, "capcity": 50}]), "rooms[0]", "unknown_key", "capacity"),
        (
            _venue(venue={"id": "v1", "name": "H", "timezon": "UTC"}),
            "[venue]",
            "unknown_key",
            "timezone",
        ),
        (_venue(policy={"horizon": 30}), "[policy]", "unknown_key", "horizon_days"),
        (_venue(slot=[{"name": "昼", "start": "11:00"}]), "the venue file", "unknown_key", "slots"),
        (
            _venue(slots=[{"name": "昼", "start": "11:00", "ends": "12:00"}]),
            "slots[0]",
            "unknown_key",
            "end",
        ),
        (
            _venue(kinds=[{"id": "x", "name": "X", "class": "banquet", "klass": 1}]),
            "kinds[0]",
            "unknown_key",
            "class",
        ),
        (_venue(policy={"horizon_days": 100_000_000}), "policy.horizon_days", "out_of_range", ""),
        (_venue(policy={"max_rank": 10_000}), "policy.max_rank", "out_of_range", ""),
        (
            _venue(policy={"hold_days": {"wedding": 10**9}}),
            "policy.hold_days.wedding",
            "out_of_range",
            "",
        ),
        (_venue(venue={"id": "v test/../<!channel>", "name": "H"}), "venue.id", "venue_id", ""),
        (
            _venue(venue={"id": "v1", "name": "H", "managers": ["<!channel>", "bob"]}),
            "venue.managers[0]",
            "user_id",
            "",
        ),
        (_venue(rooms=[{**ROOM, "name": "鳳凰\x00"}]), "rooms[0].name", "control", ""),
        (_venue(rooms=[{**ROOM, "name": "\u202e間の凰鳳"}]), "rooms[0].name", "bidi", ""),
        (_venue(rooms=[{**ROOM, "parts": ["A\x1b"]}]), "rooms[0].parts[0]", "control", ""),
        (_venue(venue={"id": "v1", "name": "H\x1b[2J"}), "venue.name", "control", ""),
        (_venue(slots=[{"name": "昼\x07", "start": "11:00"}]), "slots[0].name", "control", ""),
    ],
)
def test_a_venue_file_is_refused_by_the_shared_checks(
    data: dict[str, Any], where: str, code: str, close: str
) -> None:
    with pytest.raises(VenueFileError) as raised:
        parse_venue(data)
    err = raised.value
    assert err.problem is not None and (err.where, err.problem.code) == (where, code), str(err)
    assert err.problem.close == close
    assert "\n" not in str(err) and "\x00" not in str(err) and "\x1b" not in str(err)
    if close:
        assert f"did you mean {close!r}" in str(err)
