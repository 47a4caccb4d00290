"""The venue file's ``[[reasons]]`` (why a release may be) and ``[policy] max_event_hours``:
defaults when left out, checked as every table is, and exported back unchanged
(``parse_venue(document(v)) == v``, through TOML)."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
import tomli_w

from core.rules.reasons import DEFAULT_REASONS, Reason, losses, not_losses, reason_code
from core.venue_document import document
from core.venue_file import VenueFileError, parse_venue

OWN = [
    {"code": "budget", "name": "ご予算"},  # a default renamed: still a loss
    {"code": "entry_error", "name": "入力の誤り", "loss": True},  # a default made a loss
    {"code": "venue_closed", "name": "休館", "loss": False},
    {"code": "rival-hotel", "name": "近隣ホテル"},  # a new one: a loss unless it says
]


def venue(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "venue": {"id": "v1", "name": "Hotel"},
        "rooms": [{"id": "hoo", "name": "鳳凰の間", "parts": ["A1"]}],
    }
    return data | changes


def test_without_a_list_the_defaults_and_12_hours() -> None:
    policy = parse_venue(venue()).policy
    assert policy.reasons == DEFAULT_REASONS and policy.max_event_hours == 12
    assert [r.code for r in policy.reasons if not r.loss] == ["entry_error"]
    assert "reasons" not in document(parse_venue(venue()))  # older files stay as they were


def test_a_venues_reasons_rename_add_and_say_which_are_losses() -> None:
    policy = parse_venue(venue(reasons=OWN, policy={"max_event_hours": 20})).policy
    codes = [r.code for r in policy.reasons]
    assert codes[:7] == [r.code for r in DEFAULT_REASONS]  # the defaults first, in order
    assert codes[7:] == ["venue_closed", "rival-hotel"]
    assert policy.reasons[1] == Reason("budget", "ご予算", loss=True)
    assert not_losses(policy.reasons) == {"venue_closed"}
    assert policy.max_event_hours == 20
    assert reason_code("venue_closed", policy.reasons) == "venue_closed"
    assert reason_code("venue-closed", policy.reasons) is None
    assert reason_code("", policy.reasons) == "unspecified"
    # losses follow each reason's own: the entry error counts here, the closure does not
    by_reason = {"entry_error": 2, "venue_closed": 3, "budget": 1, "unspecified": 1}
    assert losses(0, 0, by_reason, not_losses(policy.reasons)) == 4
    assert losses(0, 0, by_reason) == 5  # the defaults: only the entry error is no loss


def test_the_reasons_and_max_event_hours_go_out_and_come_back_unchanged() -> None:
    loaded = parse_venue(venue(reasons=OWN, policy={"max_event_hours": 16}))
    doc = document(loaded)
    assert doc["policy"]["max_event_hours"] == 16
    assert doc["reasons"][-1] == {"code": "rival-hotel", "name": "近隣ホテル", "loss": True}
    assert parse_venue(tomllib.loads(tomli_w.dumps(doc))) == loaded


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (venue(reasons=[{"code": "budget", "nam": "x"}]), "unknown key 'nam'; did you mean 'name'"),
        (venue(reasons=[{"code": "Budget!", "name": "x"}]), "must be 1 to 32 of a-z"),
        (venue(reasons=[{"code": "unspecified", "name": "x"}]), "not 'unspecified'"),
        (venue(reasons=[{"code": "a", "name": "x\x1b"}]), "control character"),
        (venue(reasons=[{"code": "a", "name": "x", "loss": "no"}]), "true or false"),
        (venue(reasons=[{"code": "a", "name": "x"}, {"code": "a", "name": "y"}]), "twice"),
        (venue(reasons=[{"code": "a", "name": "予算"}]), "given to two reasons"),
        (venue(reasons={"code": "a"}), "[[reasons]] must be tables"),
        (venue(policy={"max_event_hours": 0}), "policy.max_event_hours"),
        (venue(policy={"max_event_hours": 25}), "from 1 to 24"),
        (venue(policy={"max_event_hour": 10}), "did you mean 'max_event_hours'"),
    ],
)  # fmt: skip
def test_a_bad_reason_or_max_event_hours_is_refused_saying_what_to_write(
    data: dict[str, Any], said: str
) -> None:
    with pytest.raises(VenueFileError) as refused:
        parse_venue(data)
    assert said in str(refused.value)
