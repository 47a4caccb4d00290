"""The modal, the dialogs, App Home and the channel card: content and Block Kit's limits, checked
by slack_sdk's models and by the stand-in (which checks as Slack does)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from slack_sdk import WebClient

from bot import cards, ids
from bot.blocks import dump
from bot.form import Form
from bot.metadata import Meta
from bot.preview import preview_line
from bot.texts.dates import DateStyle
from bot.views.dialogs import confirm_modal
from bot.views.hold_modal import hold_modal, loading_modal
from bot.views.home import home_view
from bot.views.messages import listing, splice
from core.model import Kind, Room, Status
from core.results import Code, ConfirmPlan, Overview, Preview, Refused, Waiting
from tests.bot import samples
from tests.support.factories import JST, NOW, venue
from tests.support.slack_standin import SlackStandin


@pytest.fixture(scope="module")
def slack() -> Iterator[tuple[SlackStandin, WebClient]]:
    with SlackStandin() as standin:
        yield standin, WebClient(token="xoxb-test", base_url=standin.base_url, retry_handlers=[])


def text_of(view: dict[str, Any]) -> str:
    return json.dumps(view, ensure_ascii=False)


def test_the_form_has_every_field_with_dispatch_on_the_slot_fields() -> None:
    meta = Meta(channel="C1", locale="ja")
    view = hold_modal(venue(), Form(salesperson="U1"), meta, preview="…").to_dict()
    inputs = {b["block_id"]: b for b in view["blocks"] if b["type"] == "input"}
    assert list(inputs) == [
        ids.DATE,  # first: every room of a hold is on that one date
        ids.ROOM,
        ids.START,
        ids.END,
        ids.KIND,
        ids.CUSTOMER,
        ids.GUESTS,
        ids.SALESPERSON,
        ids.CONTACT,
        ids.NOTE,
        ids.ESTIMATE,  # the booking's details (issue 25), all optional, last
        ids.PLAN,
        ids.SOURCE,
        ids.NEXT_ACTION,
        ids.NEXT_ACTION_NOTE,
    ]
    assert {b for b, i in inputs.items() if i.get("dispatch_action")} == set(ids.PREVIEW_INPUTS)
    assert all(inputs[b]["optional"] is True for b in (ids.NOTE, ids.GUESTS, ids.CONTACT))
    assert inputs[ids.GUESTS]["element"]["type"] == "number_input"
    assert "チャンネルには出ません" in inputs[ids.CONTACT]["hint"]["text"]
    assert [inputs[b]["element"]["type"] for b in (ids.DATE, ids.START, ids.KIND)] == [
        "datepicker",
        "timepicker",
        "radio_buttons",
    ]
    assert "翌日" in inputs[ids.END]["hint"]["text"]
    assert json.loads(view["private_metadata"])["c"] == "C1"


def test_many_rooms_and_long_notes_still_make_a_modal_slack_accepts(slack: Any) -> None:
    standin, client = slack
    rooms = {
        f"r{i}": Room(f"r{i}", f"宴会場{i}" * 10, frozenset({f"p{i}"}), 60, i) for i in range(250)
    }
    big = venue(rooms=rooms)
    meta = Meta(channel="C1", locale="ja", notes=("読めない" * 500,), response_url="https://x")
    form = Form(room_id="r3", customer="山" * 200, note="メ" * 1000, salesperson="U1")
    view = hold_modal(big, form, meta, preview="p", refusal="r" * 5000).to_dict()
    assert len(view["private_metadata"]) <= 3000
    opened = client.views_open(trigger_id=standin.issue_trigger(), view=view)
    assert opened["ok"]
    assert client.views_open(trigger_id=standin.issue_trigger(), view=loading_modal().to_dict())[
        "ok"
    ]


def test_the_preview_line_for_each_outcome() -> None:
    first = Preview(rank=1, expires_at=NOW + timedelta(days=7, hours=10, minutes=20), ahead=())
    assert preview_line(first, JST, "ja") == "1番手として受付 · 期限 3/8(月) 19:20まで"
    ahead = samples.hold(customer="佐藤様")
    assert (
        preview_line(Preview(2, None, (ahead,)), JST, "ja")
        == "2番手 · 1番手は 佐藤様（婚礼）期限 3/8(月) 9:00まで"
    )
    assert (
        preview_line(Refused(Code.CONFIRMED_CONFLICT), JST, "ja") == "本予約あり — 受付できません"
    )
    assert (
        preview_line(Refused(Code.RANK_TOO_LOW, rank=3, limit=2), JST, "ja")
        == "3番手になるため受付できません"
    )
    opens = Refused(Code.BANQUET_NOT_OPEN, opens_at=NOW.replace(hour=0))
    assert (
        preview_line(opens, JST, "ja") == "土日祝は婚礼優先 — 一般宴会は 2027/3/1(月) 0:00 から受付"
    )
    assert preview_line(None, JST, "en").startswith("Choose a room")
    assert "already passed" in preview_line(Refused(Code.IN_PAST, detail="2027-02-01"), JST, "en")


def test_the_preview_and_the_card_show_one_deadline_with_year_weekday_rokuyo_and_time() -> None:
    """Read in December 2026, a hold in March 2027 carries its year; the preview does not stop at
    the date: it shows the deadline to the minute, as the card will."""
    seen = DateStyle(today=NOW.replace(year=2026, month=12).date(), rokuyo=True)
    due = NOW + timedelta(days=7, hours=10, minutes=20)
    line = preview_line(Preview(rank=1, expires_at=due, ahead=()), JST, "ja", style=seen)
    assert line == "1番手として受付 · 期限 2027/3/8(月・友引) 19:20まで"
    ahead = samples.hold(customer="佐藤様", expires_at=due)
    line = preview_line(Preview(2, None, (ahead,)), JST, "ja", style=seen)
    assert line == "2番手 · 1番手は 佐藤様（婚礼）期限 2027/3/8(月・友引) 19:20まで"
    card = text_of({"blocks": dump(cards.card(ahead, JST, "ja", style=seen))})
    assert "2027/3/10(水・仏滅) 11:00〜15:00" in card
    assert "期限 *2027/3/8(月・友引) 19:20まで*" in card
    english = preview_line(Preview(rank=1, expires_at=due, ahead=()), JST, "en", style=seen)
    assert english == "Held as 1st · reply by Mon 8 Mar 2027 (Tomobiki) 19:20"


def test_the_confirm_dialog_lists_the_holds_it_releases_and_promotes(slack: Any) -> None:
    standin, client = slack
    mine = samples.hold(customer="本命様")
    losers = tuple(
        samples.waiting(customer=f"負け{i}様", salesperson="U0OTHER001") for i in range(40)
    )
    plan = ConfirmPlan(mine, losers, (samples.waiting(customer="繰上様"),))
    view = confirm_modal(plan, JST, Meta(locale="ja", hold_id=1)).to_dict()
    shown = text_of(view)
    assert (
        "本命様" in shown and "負け0様" in shown and "<@U0OTHER001>" in shown and "繰上様" in shown
    )
    assert "ほか 25 件" in shown
    assert view["submit"]["text"] == "本予約にする"
    assert client.views_open(trigger_id=standin.issue_trigger(), view=view)["ok"]

    alone = confirm_modal(ConfirmPlan(mine, (), ()), JST, Meta(locale="en")).to_dict()
    assert "No other hold will be released" in text_of(alone)


def test_home_fits_in_a_hundred_blocks_however_many_holds(slack: Any) -> None:
    _, client = slack
    firsts = tuple(samples.hold() for _ in range(60))
    waiting = tuple(Waiting(samples.waiting(), (samples.hold(),)) for _ in range(60))
    recent = tuple(
        samples.hold(status=Status.EXPIRED, rank=None, expires_at=None) for _ in range(60)
    )
    view = home_view(Overview(firsts, waiting, recent), JST, "ja", NOW).to_dict()
    assert len(view["blocks"]) <= 100
    assert "ほか 40 件" in text_of(view) and "ほか 45 件" in text_of(view)
    assert client.views_publish(user_id="U0HOME0001", view=view)["ok"]


def test_a_card_s_buttons_are_the_same_json_built_once_or_again_and_follow_the_hold() -> None:
    """App Home reuses each hold's validated buttons: the same JSON as building them anew,
    and a hold that changed (promoted to 1st here) gets its own."""
    second = samples.waiting()
    overview = Overview((samples.hold(),), (Waiting(second, (samples.hold(),)),), ())
    cards.card_buttons.cache_clear()
    built = home_view(overview, JST, "ja", NOW).to_dict()
    again = home_view(overview, JST, "ja", NOW).to_dict()
    assert cards.card_buttons.cache_info().hits >= 2
    assert json.dumps(built) == json.dumps(again)
    for hold in (second, overview.firsts[0]):
        fresh = cards.decision_buttons(hold, JST, "ja", another=True)
        assert fresh is not None
        assert cards.card_buttons(hold, JST, "ja", another=True).to_dict() == fresh.to_dict()  # type: ignore[union-attr]
    promoted = replace(second, rank=1, expires_at=NOW + timedelta(days=7))
    actions = cards.card_buttons(promoted, JST, "ja", another=True)
    assert actions is not None
    assert ids.CONFIRM in text_of(actions.to_dict())
    assert ids.CONFIRM not in text_of(cards.card_buttons(second, JST, "ja").to_dict())  # type: ignore[union-attr]


def test_an_empty_home_says_so_in_each_section() -> None:
    view = home_view(Overview((), (), ()), JST, "en", NOW).to_dict()
    shown = text_of(view)
    for empty in ("You have no 1st holds", "You have no waiting holds", "No recent outcomes"):
        assert empty in shown


def test_splicing_a_digest_changes_only_the_clicked_hold() -> None:
    rows = [
        {"type": "header", "text": {"type": "plain_text", "text": "h"}},
        {"type": "section", "text": {"type": "mrkdwn", "text": "one"}},
        {"type": "actions", "block_id": ids.card_actions(1), "elements": []},
        {"type": "section", "text": {"type": "mrkdwn", "text": "two"}},
        {"type": "actions", "block_id": ids.card_actions(2), "elements": []},
        {"type": "context", "elements": []},
    ]
    new = [{"type": "section", "text": {"type": "mrkdwn", "text": "two: done"}}]
    spliced = splice(rows, 2, new, ids.card_actions(2))
    assert [b.get("text", {}).get("text") for b in spliced][:3] == ["h", "one", None]
    assert spliced[3:] == [new[0], rows[5]]
    assert splice(rows, 9, new, ids.card_actions(9)) == new  # not found: the whole message


def test_the_list_is_chunked_within_limits() -> None:
    many = [replace(samples.hold(), customer="長" * 150, kind=Kind.BANQUET) for _ in range(80)]
    message = listing(many, JST, "ja")
    assert len(message.blocks) <= 50
    assert all(len(b["text"]["text"]) <= 3000 for b in message.blocks if b["type"] == "section")
    assert "ほか 40 件" in text_of({"b": message.blocks})
