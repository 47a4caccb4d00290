"""Finding a slot in Slack, over signed HTTP: ``/hold free``, its pages, the hold form a
result opens, alternatives on a refused submission, and the search form from App Home."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, datetime
from typing import Any

import pytest

from bot import ids
from bot.blocks import MAX_MESSAGE_BLOCKS
from core.engine import HoldEngine
from core.model import Slot, Venue
from core.results import RequestAnswer
from core.rules.rokuyo import rokuyo
from tests.bot.conftest import ENGLISH_USER, Harness, values
from tests.bot.test_home import open_home
from tests.support import factories
from tests.support import slack_requests as sr
from tests.support.factories import JST, MANAGER, NOW


@pytest.fixture
def venue(engine: HoldEngine) -> Venue:
    """鳳凰 (120) whole or halves (60 each), 桜 (40), a chapel without a capacity; 昼 and 夜."""
    spec = factories.venue()
    sizes = {"hoo": 120, "hoo-a": 60, "hoo-b": 60, "sakura": 40}
    rooms = {rid: replace(r, capacity=sizes.get(rid)) for rid, r in spec.rooms.items()}
    slots = (Slot("昼", 660, 900), Slot("夜", 1080, 1260))
    return engine.save_venue(replace(spec, rooms=rooms, slots=slots), now=NOW)


def free(bot: Harness, typed: str, *, user: str = sr.USER_ID, name: str = "free") -> dict[str, Any]:
    """``/hold free typed``; the ephemeral answer posted to the command's response_url."""
    before = len(bot.slack.calls_to("response_url"))
    body = sr.slash_command(
        text=f"free {typed}", user_id=user, response_url=bot.slack.response_url(name)
    )
    status, _, answer = bot.post(body)
    assert (status, answer) == (200, "")
    reply: dict[str, Any] = bot.slack.wait_for("response_url", before + 1)[-1].body
    return reply


def texts(blocks: list[dict[str, Any]]) -> list[str]:
    found = []
    for block in blocks:
        if "text" in block:
            found.append(block["text"]["text"])
        found += [e.get("text", "") for e in block.get("elements", []) if e.get("type") == "mrkdwn"]
    return found


def buttons(blocks: list[dict[str, Any]], action_id: str) -> list[dict[str, Any]]:
    found = [b["accessory"] for b in blocks if b.get("accessory", {}).get("action_id") == action_id]
    for block in blocks:
        found += [
            e for e in block.get("elements", []) if e.get("action_id", "").startswith(action_id)
        ]
    return found


def test_a_month_weekends_taian_and_guests_answer_by_date_with_hold_buttons(bot: Harness) -> None:
    held = bot.engine.request(
        bot.venue.id, factories.request(room="hoo-a", day=factories.DAY.replace(day=7)), now=NOW
    )
    assert isinstance(held, RequestAnswer)
    reply = free(bot, "3月 土日 大安/友引 50名")
    assert reply["response_type"] == "ephemeral"
    lines = texts(reply["blocks"])
    assert lines[0].startswith("*空き検索: 3月 土日 大安/友引 50名*\n1番手・2番手になれる枠")
    # March 2027's weekend 大安 and 友引 days, per the 旧暦
    dates = [t for t in lines if t.startswith("*3/")]
    assert dates == ["*3/7(日・大安)*", "*3/14(日・友引)*", "*3/20(土・友引)*"]
    first_day = lines[lines.index(dates[0]) + 1 : lines.index(dates[1])]
    assert first_day[0] == (
        f"昼 11:00〜15:00 · 鳳凰A（60名） · 2番手（#{held.hold.id} が "
        "3/7(日・大安) 11:00まで仮押さえ中）"
    )
    assert first_day[1] == "昼 11:00〜15:00 · 鳳凰B（60名） · 1番手（空き）"
    assert "桜の間" not in json.dumps(reply["blocks"], ensure_ascii=False)  # seats 40
    assert any("チャペル（定員未設定）" in t for t in first_day)
    holds = buttons(reply["blocks"], ids.FREE_HOLD)
    assert holds[0]["value"] == "hoo-a|2027-03-07|660|900|wedding"
    assert len(reply["blocks"]) <= MAX_MESSAGE_BLOCKS


def test_many_places_come_a_page_at_a_time(bot: Harness) -> None:
    reply = free(bot, "3/2-3/31")
    assert len(reply["blocks"]) <= MAX_MESSAGE_BLOCKS
    (more,) = buttons(reply["blocks"], ids.FREE_MORE)
    assert more["text"]["text"] == "次の20件"
    first_page = buttons(reply["blocks"], ids.FREE_HOLD)
    assert len(first_page) == 20
    body = sr.block_actions(
        actions=[sr.action(ids.FREE_MORE, more["value"])],
        message_ts="1700000000.000100",
        is_ephemeral=True,
        response_url=bot.slack.response_url("more"),
    )
    status, _, _ = bot.post(body)
    assert status == 200
    page = bot.slack.wait_for("response_url", 2)[-1].body
    assert page["replace_original"] is True
    second = buttons(page["blocks"], ids.FREE_HOLD)
    assert len(second) == 20 and second[0]["value"] != first_page[0]["value"]


def test_a_results_button_opens_the_hold_form_filled_in(bot: Harness) -> None:
    reply = free(bot, "3/10 桜 夜")
    (button,) = buttons(reply["blocks"], ids.FREE_HOLD)
    body = sr.block_actions(
        actions=[sr.action(ids.FREE_HOLD, button["value"])],
        message_ts="1700000000.000100",
        is_ephemeral=True,
        response_url=bot.slack.response_url("hold"),
    )
    status, _, _ = bot.post(body)
    assert status == 200
    opened = bot.slack.wait_for("views.open")[-1]
    bot.slack.wait_for("views.update")
    view = bot.slack.view(str(opened.response["view"]["id"]))
    initial = {b.get("block_id"): b["element"] for b in view["blocks"] if b["type"] == "input"}
    assert initial[ids.ROOM]["initial_option"]["value"] == "sakura"
    assert initial[ids.DATE]["initial_date"] == "2027-03-10"
    assert (initial[ids.START]["initial_time"], initial[ids.END]["initial_time"]) == (
        "18:00",
        "21:00",
    )
    assert initial[ids.KIND]["initial_option"]["value"] == "wedding"
    assert bot.preview_text(view["id"]).startswith("1番手として受付")


def test_a_refused_submission_offers_alternatives_that_open_the_form(bot: Harness) -> None:
    taken = bot.engine.request(bot.venue.id, factories.request(room="hoo-a"), now=NOW)
    assert isinstance(taken, RequestAnswer)
    bot.engine.confirm(bot.venue.id, taken.hold.id, actor=MANAGER, now=NOW)
    view_id = bot.command("鳳凰A 3/10 11:00-15:00 婚礼 佐藤様")
    status, answer = bot.submit(view_id, values(room="hoo-a", customer="佐藤様"))
    assert status == 200 and answer["response_action"] == "update"
    blocks = answer["view"]["blocks"]
    offered = next(b for b in blocks if b.get("block_id") == ids.ALTERNATIVES)["elements"]
    assert 1 <= len(offered) <= 5
    assert offered[0]["value"] == "hoo-b|2027-03-10|660|900|wedding"  # as large, free
    listed = next(t for t in texts(blocks) if t.startswith("代わりに押さえられる枠"))
    assert f"1. 鳳凰B 3/10(水・{rokuyo(date(2027, 3, 10)).japanese}) 11:00〜15:00" in listed
    # one action id per button, each one the listener hears
    assert [b["action_id"] for b in offered] == [
        ids.free_hold_alternative(n) for n in range(1, len(offered) + 1)
    ]
    assert all(ids.FREE_HOLD_ACTION.match(b["action_id"]) for b in offered)
    # the click pushes a form filled in with it, keeping the customer typed
    body = sr.block_actions(
        actions=[
            sr.action(offered[0]["action_id"], offered[0]["value"], block_id=ids.ALTERNATIVES)
        ],
        view={**bot.slack.view(view_id), **answer["view"], "id": view_id},
        values=values(room="hoo-a", customer="佐藤様"),
    )
    status, _, _ = bot.post(body)
    assert status == 200
    pushed = bot.slack.wait_for("views.push")[-1]
    bot.slack.wait_for("views.update", 2)
    view = bot.slack.view(str(pushed.response["view"]["id"]))
    initial = {b.get("block_id"): b["element"] for b in view["blocks"] if b["type"] == "input"}
    assert initial[ids.ROOM]["initial_option"]["value"] == "hoo-b"
    assert initial[ids.CUSTOMER]["initial_value"] == "佐藤様"


def test_app_home_finds_a_slot_in_a_form(bot: Harness) -> None:
    home = open_home(bot, ENGLISH_USER)
    (find,) = buttons(home["blocks"], ids.FIND_SLOT)
    assert find["text"]["text"] == "Find a slot"
    clicked = sr.action(ids.FIND_SLOT, find["value"])
    status, _, _ = bot.post(sr.block_actions(actions=[clicked], view=home, user_id=ENGLISH_USER))
    assert status == 200
    opened = bot.slack.wait_for("views.open")[-1]
    form = bot.slack.view(str(opened.response["view"]["id"]))
    assert form["callback_id"] == ids.FIND_MODAL and form["title"]["text"] == "Find a slot"
    typed = {ids.FIND_TEXT: {ids.FIND_TEXT: sr.text_value("3/10 sakura")}}
    body = sr.view_submission(typed, view=form, user_id=ENGLISH_USER)
    status, _, answer = bot.post(body)
    shown = json.loads(answer)
    assert shown["response_action"] == "update"
    lines = texts(shown["view"]["blocks"])
    assert lines[0].startswith("*Free places: 3/10 sakura*")
    # the English reader's date, its 六曜 in romaji as every English date shows it
    assert f"*Wed 10 Mar ({rokuyo(date(2027, 3, 10)).romaji.capitalize()})*" in lines
    assert len(buttons(shown["view"]["blocks"], ids.FREE_HOLD)) == 2  # 昼 and 夜


def test_a_search_in_december_for_next_october_shows_the_year(bot: Harness) -> None:
    bot.clock[0] = datetime(2027, 12, 2, 10, 0, tzinfo=JST)
    held = bot.engine.request(
        bot.venue.id, factories.request(room="hoo-a", day=date(2028, 10, 1)), now=bot.clock[0]
    )
    assert isinstance(held, RequestAnswer)
    reply = free(bot, "10月 鳳凰A", name="december")
    lines = texts(reply["blocks"])
    days = [t for t in lines if t.startswith("*20")]
    # October 2028, read in December 2027: every date carries its year, weekday and 六曜
    assert days[0] == f"*2028/10/1(日・{rokuyo(date(2028, 10, 1)).japanese})*"
    assert len(days) == 10 and all(t.startswith("*2028/10/") for t in days)  # a page of 20
    first = lines[lines.index(days[0]) + 1]
    until = held.expires_at.astimezone(JST)  # a week from the request: still this year
    assert first == (
        f"昼 11:00〜15:00 · 鳳凰A（60名） · 2番手（#{held.hold.id} が "
        f"{until.month}/{until.day}({'月火水木金土日'[until.weekday()]}・"
        f"{rokuyo(until.date()).japanese}) {until:%-H:%M}まで仮押さえ中）"
    )


def test_alternatives_are_numbered_one_to_five() -> None:
    assert [ids.free_hold_alternative(n) for n in (1, 5)] == ["free_hold_1", "free_hold_5"]
    for n in (0, 6):
        with pytest.raises(ValueError, match="not 1 to 5"):
            ids.free_hold_alternative(n)


def test_a_search_it_cannot_run_says_why_and_how_to_ask(bot: Harness) -> None:
    reply = free(bot, "2027/3/10-2028/3/12")  # 369 days
    said = " ".join(texts(reply["blocks"]))
    assert "日間は検索できません（366日まで）" in said
    assert "/hold free 10月 土日 大安 80名" in said
    reply = free(bot, "3/10 さくら <!channel>", name="again")
    notes = " ".join(texts(reply["blocks"]))
    assert "&lt;!channel&gt;" in notes and "<!channel>" not in json.dumps(reply)
