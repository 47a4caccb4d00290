"""Strict readers at the edge: bodies by field (bot.payloads), numbers, ids, dates and times
(bot.strict), the modal's state (bot.form)."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from bot import ids, strict
from bot.form import read_form
from bot.metadata import Meta, Source
from bot.payloads import FORM, JSON, check, read_body
from bot.shapes import Malformed
from tests.bot.conftest import values
from tests.support import slack_requests as sr


def test_a_slash_command_containing_the_word_payload_is_read_as_a_slash_command() -> None:
    # slack_bolt's parse_body reads any form body containing "payload" as an interaction.
    for body in (
        sr.slash_command(text="鳳凰 9/28 11:00〜 披露宴 payload"),
        sr.slash_command(text="鳳凰", channel_name="payload-team"),
        sr.slash_command(text="payload=1&x"),
    ):
        read = read_body(body, FORM)
        assert read["command"] == "/hold" and read["user_id"] == sr.USER_ID
    assert read["text"] == "payload=1&x"


def test_an_interaction_is_its_payload_field_parsed() -> None:
    body = sr.block_actions(ids.RELEASE, "12")
    read = read_body(body, f"{FORM}; charset=utf-8")
    assert read["type"] == "block_actions" and read["actions"][0]["value"] == "12"


def test_an_event_is_its_json() -> None:
    read = read_body(sr.app_home_opened_event("U0SOMEONE1"), JSON)
    assert read["event"]["user"] == "U0SOMEONE1"


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        (b"payload=1&payload=2", "body"),
        (b"text=a&&b", "body"),
        (b"text=%FF", "body"),
        (b"a%ZZ=1", "type"),  # a form, but of nothing osae handles
        (b'{"type":"url_verification"}', "challenge"),
        (b'{"type":"block_actions","user":{"id":"U1"},"actions":[{}]}', "actions.0.action_id"),
    ],
)
def test_malformed_bodies_name_where(raw: bytes, where: str) -> None:
    content_type = JSON if raw.startswith(b"{") else FORM
    with pytest.raises(Malformed) as caught:
        read_body(raw, content_type)
    assert caught.value.where == where


def _payload(body: bytes) -> dict[str, Any]:
    return sr.payload_of(body)


@pytest.mark.parametrize(
    "change",
    [
        {"view": {"id": "V1", "callback_id": "x", "state": {"values": {"b": {"a": 5}}}}},
        {"view": {"id": "V1", "callback_id": "x", "state": {"values": []}}},
        {"view": {"id": "v1", "callback_id": "x", "state": {"values": {}}}},
        {"team": "T1"},
        {"user": {"id": 5}},
        {"response_url": "javascript:alert(1)"},
        {"response_urls": [{"response_url": 5}]},
    ],
)
def test_submissions_whose_fields_are_not_what_slack_sends_are_malformed(
    change: dict[str, Any],
) -> None:
    payload = {**_payload(sr.view_submission(values())), **change}
    with pytest.raises(Malformed):
        check(payload)


def test_events_other_than_home_are_checked_where_bolt_reads_them() -> None:
    event = json.loads(sr.event_callback({"type": "reaction_added", "user": "U1X", "item": {}}))
    check(event)
    event["event"]["item"] = {"channel": ["C1"]}
    with pytest.raises(Malformed):
        check(event)
    event["event"] = {"type": "message", "user": 42}
    with pytest.raises(Malformed):
        check(event)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("12", 12),
        ("１２", 12),
        (" 7 ", 7),
        (12, 12),
        ("²", None),
        ("¹²", None),
        ("١٢", None),
        ("1_000", None),
        ("+1", None),
        ("-1", None),
        (-1, None),
        (True, None),
        ("1e3", None),
        ("", None),
        (None, None),
        ("9" * 201, None),
    ],
)
def test_numbers_are_ascii_or_full_width_digits_only(raw: object, expected: int | None) -> None:
    assert strict.number(raw) == expected


def test_hold_ids_fit_the_bigint_column() -> None:
    assert strict.hold_id("#9223372036854775807") == 2**63 - 1
    assert strict.hold_id("9223372036854775808") is None
    assert strict.hold_id("0") is None
    assert strict.hold_id(5) == 5
    assert strict.hold_id("＃１２") == 12


@pytest.mark.parametrize(
    ("raw", "minutes"),
    [
        ("00:00", 0),
        ("11:59", 719),
        ("23:59", 1439),
        ("11:60", None),
        ("24:00", None),
        ("7:00", None),
        ("１１:００", None),
        ("11:00:00", None),
        (" 11:00", None),
        (660, None),
    ],
)
def test_a_time_is_hh_mm_with_mm_under_60(raw: object, minutes: int | None) -> None:
    assert strict.clock(raw) == minutes


@pytest.mark.parametrize(
    ("raw", "day"),
    [
        ("2027-03-10", date(2027, 3, 10)),
        ("2028-02-29", date(2028, 2, 29)),
        ("2027-02-29", None),
        ("0000-01-01", None),
        ("20270310", None),  # date.fromisoformat takes it since 3.11; a datepicker never sends it
        ("2027-W10-3", None),
        ("２０２７-０３-１０", None),
        (None, None),
    ],
)
def test_a_date_is_a_real_calendar_date_written_yyyy_mm_dd(raw: object, day: date | None) -> None:
    assert strict.iso_date(raw) == day


def test_the_form_names_inputs_set_to_something_no_picker_sends() -> None:
    form = read_form(values(start="11:60", end="15:00", day="2027-13-01", salesperson="me"))
    assert form.invalid == (ids.DATE, ids.START, ids.SALESPERSON)
    assert (form.day, form.start_min, form.end_min) == (None, None, 900)
    assert form.missing() == []  # invalid, not missing: each gets its own message
    assert not form.slot_chosen()


def test_private_metadata_that_is_not_ours_reads_as_nothing() -> None:
    for raw in ("", "not json", "[1]", '{"h": "²"}', '{"h": 9223372036854775808}', "[" * 5000):
        assert Meta.load(raw).hold_id is None
        assert Meta.load(raw).channel is None
    meta = Meta.load('{"c": "C1> <!channel", "l": "en", "r": "file:///etc/passwd"}')
    assert (meta.channel, meta.locale, meta.response_url) == (None, "en", None)
    kept = Meta(
        locale="en", hold_id=12, response_url="https://hooks.slack.com/x", source=Source("C1")
    )
    assert Meta.load(kept.dump()) == kept
    rows = Meta(rows=(1, 3), enquiry_id=7)
    assert Meta.load(rows.dump()) == rows


def test_room_rows_in_private_metadata_are_read_strictly() -> None:
    crafted = Meta.load('{"k": [1, 1, 0, -2, 1000, "2", true, 3.0, 4], "q": "x"}')
    assert (crafted.rows, crafted.enquiry_id) == ((1, 4), None)
    assert len(Meta.load(json.dumps({"k": list(range(1, 500))})).rows) == 15
