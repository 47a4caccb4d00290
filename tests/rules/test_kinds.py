"""The venue's event kinds: defaults always there, [[kinds]] with a class, clear errors."""

from __future__ import annotations

from typing import Any

import pytest

from core.model import EventKind, Kind
from core.venue_file import VenueFileError, parse_venue


def venue(*kinds: dict[str, Any]) -> dict[str, Any]:
    return {
        "venue": {"id": "v1", "name": "Hotel"},
        "rooms": [{"id": "hoo", "name": "鳳凰の間", "parts": ["A1"]}],
        "kinds": list(kinds),
    }


def test_without_kinds_a_venue_has_the_two_defaults() -> None:
    kinds = parse_venue(venue()).policy.kinds
    assert kinds == (
        EventKind("wedding", "婚礼", Kind.WEDDING),
        EventKind("banquet", "一般宴会", Kind.BANQUET),
    )


def test_a_venues_kinds_follow_the_defaults_each_with_its_class() -> None:
    policy = parse_venue(
        venue(
            {"id": "nijikai", "name": "二次会", "class": "banquet"},
            {"id": "bonenkai", "name": "忘年会", "class": "banquet"},
            {"id": "banquet", "name": "宴会", "class": "banquet"},  # a default renamed
        )
    ).policy
    assert [(k.id, k.name, k.cls) for k in policy.kinds] == [
        ("wedding", "婚礼", Kind.WEDDING),
        ("banquet", "宴会", Kind.BANQUET),
        ("nijikai", "二次会", Kind.BANQUET),
        ("bonenkai", "忘年会", Kind.BANQUET),
    ]
    found = policy.kind("nijikai")
    assert found is not None and found.cls is Kind.BANQUET
    assert policy.kind("party") is None


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ({"id": "nijikai", "name": "二次会"}, 'class must be "wedding" or "banquet"'),
        ({"id": "nijikai", "name": "二次会", "class": "party"}, "not 'party'"),
        ({"id": "二次会", "name": "二次会", "class": "banquet"}, "a-z, 0-9"),
        ({"id": "nijikai", "class": "banquet"}, "name must be a non-empty string"),
        ({"id": "wedding", "name": "挙式", "class": "banquet"}, "may be renamed, not change class"),
        ({"id": "x", "name": "婚礼", "class": "wedding"}, "given to two kinds"),
        ({"id": "x", "name": "x", "class": "banquet", "days": 3}, "unknown key .days."),
    ],
)
def test_bad_kinds_say_what_is_wrong(kind: dict[str, Any], message: str) -> None:
    with pytest.raises(VenueFileError, match=message):
        parse_venue(venue(kind))


def test_a_kind_id_listed_twice_is_refused() -> None:
    twice = {"id": "nijikai", "name": "二次会", "class": "banquet"}
    with pytest.raises(VenueFileError, match="appears twice"):
        parse_venue(venue(twice, {**twice, "name": "2次会"}))
