"""What a hold carries, over signed HTTP: the venue's kinds in the modal and the quick form,
guests and contact, the missing field named, refusal and preview words, and a contact that
never reaches the channel or a log line."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from bot import ids
from bot.notices import render_notice
from core.engine import HoldEngine
from core.model import EventKind, Kind, Policy, Venue
from core.notices import NoticeKind
from core.results import RequestAnswer
from tests.bot import samples
from tests.bot.conftest import Harness, values
from tests.support import factories
from tests.support import slack_requests as sr
from tests.support.factories import NOW, request

KINDS = (
    EventKind("wedding", "婚礼", Kind.WEDDING),
    EventKind("banquet", "一般宴会", Kind.BANQUET),
    EventKind("nijikai", "二次会", Kind.BANQUET),
)
CONTACT = "幹事 090-1234-5678"


@pytest.fixture
def venue(engine: HoldEngine) -> Venue:
    """A venue with 二次会 as a kind and a 90-minute turnover in 鳳凰の間."""
    made = factories.venue(Policy(kinds=KINDS), rooms=factories.rooms(hoo=90))
    return engine.save_venue(made, now=NOW)


def block(view: dict[str, Any], block_id: str) -> dict[str, Any]:
    return next(b for b in view["blocks"] if b.get("block_id") == block_id)


def carried(guests: str | None = None, contact: str | None = None, **fields: Any) -> Any:
    state = values(**fields)
    state[ids.GUESTS] = {ids.GUESTS: sr.text_value(guests, "number_input")}
    state[ids.CONTACT] = {ids.CONTACT: sr.text_value(contact)}
    return state


def test_the_quick_form_reads_guests_and_never_folds_an_unknown_kind_into_the_customer(
    bot: Harness,
) -> None:
    view_id = bot.command("鳳凰 3/10 18:00-21:00 忘年会 40名 〇〇商事様")
    view = bot.slack.view(view_id)
    assert block(view, ids.CUSTOMER)["element"]["initial_value"] == "〇〇商事様"
    assert block(view, ids.GUESTS)["element"]["initial_value"] == "40"
    kind = block(view, ids.KIND)["element"]
    assert "initial_option" not in kind  # not silently banquet, nor dropped unsaid
    assert [o["value"] for o in kind["options"]] == ["wedding", "banquet", "nijikai"]
    notice = block(view, ids.NOTICE)["text"]["text"]
    assert "「忘年会」はこの会場の種別にない" in notice and "二次会 (nijikai)" in notice

    # submitted as it is, the kind is asked for by name, and nothing is written
    state = carried(guests="40", kind=None, customer="〇〇商事様", start="18:00", end="21:00")
    status, answer = bot.submit(view_id, state)
    assert (status, answer["response_action"]) == (200, "errors")
    assert answer["errors"] == {ids.KIND: "種別を選んでください。"}
    assert bot.engine.holds(bot.venue.id) == []


def test_a_venue_kind_typed_in_the_quick_form_is_chosen(bot: Harness) -> None:
    view_id = bot.command("鳳凰 3/10 18:00-21:00 二次会 30人 佐藤様")
    kind = block(bot.slack.view(view_id), ids.KIND)["element"]
    assert kind["initial_option"]["value"] == "nijikai"
    assert kind["initial_option"]["text"]["text"] == "二次会"


def test_guests_contact_and_note_are_kept_and_the_contact_stays_out_of_the_channel_and_logs(
    bot: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    view_id = bot.command()
    state = carried(guests="40", contact=CONTACT, kind="nijikai", note="乾杯酒は持ち込み")
    status, answer = bot.submit(view_id, state)
    assert status == 200 and answer == {}
    post = bot.slack.wait_for("chat.postMessage")[0]
    bot.slack.wait_for("views.publish", 1)
    bot.settle()
    (hold,) = bot.engine.holds(bot.venue.id)
    assert (hold.kind_id, hold.guests, hold.contact, hold.note) == (
        "nijikai",
        40,
        CONTACT,
        "乾杯酒は持ち込み",
    )
    channel = json.dumps(post.body, ensure_ascii=False)
    assert "二次会・40名" in channel and "メモ: 乾杯酒は持ち込み" in channel
    home = json.dumps(bot.slack.last("views.publish").body, ensure_ascii=False)
    assert CONTACT in home  # its salesperson's own App Home shows it

    # nothing posted to a channel (nor answered to a response_url) carries the contact
    for call in bot.slack.calls:
        said = json.dumps(call.body, ensure_ascii=False)
        if call.method in ("chat.postMessage", "chat.update", "response_url"):
            assert "090-1234-5678" not in said, call.method
    # and no log line, message or field
    for record in caplog.records:
        line = json.dumps(record.__dict__, ensure_ascii=False, default=str)
        assert "090-1234-5678" not in line, record.getMessage()
    assert caplog.records  # the flow did log (so the check above could fail)


def test_a_dm_to_the_salesperson_carries_the_contact_and_the_note() -> None:
    hold = samples.hold(note="乾杯酒は持ち込み", contact=CONTACT, guests=40)
    out = render_notice(samples.about(NoticeKind.PROMOTED, hold), tz=factories.JST, locale="ja")
    said = json.dumps(out.blocks, ensure_ascii=False)
    assert CONTACT in said and "メモ: 乾杯酒は持ち込み" in said and "・40名" in said
    assert CONTACT not in out.text  # the push notification's preview shows no contact


def test_unreadable_guests_are_refused_on_their_field(bot: Harness) -> None:
    view_id = bot.command()
    status, answer = bot.submit(view_id, carried(guests="forty"))
    assert (status, answer["response_action"]) == (200, "errors")
    assert answer["errors"] == {ids.GUESTS: "人数は1〜100000の数字で入力してください。"}


def test_the_preview_says_a_hold_waits_because_of_turnover(bot: Harness) -> None:
    for start, end, who in (("11:00", "15:00", "U0SALES001"), ("12:00", "15:30", "U0SALES002")):
        made = bot.engine.request(
            bot.venue.id, request(start=start, end=end, salesperson=who), now=NOW
        )
        assert isinstance(made, RequestAnswer)
    view_id = bot.command()
    bot.choose(view_id, values(start="16:30", end="20:00"), ids.ROOM)
    bot.slack.wait_for("views.update", 2)
    line = bot.preview_text(view_id)
    assert line.startswith("2番手で受付 · 前に 2番手 #")
    assert "担当 <@U0SALES002>（＋転換90分で重なり）" in line
    assert "転換90分を含めると重なるため順番待ち" in line


def test_a_banquet_class_kind_is_told_why_and_when_it_opens(bot: Harness) -> None:
    view_id = bot.command()
    status, answer = bot.submit(view_id, values(day="2027-09-04", kind="nijikai"))
    # said in the form, beside 「開放日に知らせる」 (issue 28: the window ping)
    assert (status, answer["response_action"]) == (200, "update")
    said = json.dumps(answer["view"]["blocks"], ensure_ascii=False)
    assert "土日祝は婚礼を優先するため、この日の二次会は 2027/6/6(日・赤口) 0:00 から受付" in said
    assert ids.PING_ASK in said
    assert "婚礼なら" not in said
