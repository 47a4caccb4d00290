"""/hold with a quick form, /hold list, /hold help; each in the user's language."""

from __future__ import annotations

import json
from typing import Any

from bot import ids
from core.results import RequestAnswer
from tests.bot.conftest import ENGLISH_USER, Harness
from tests.support import slack_requests as sr
from tests.support.factories import request


def block(view: dict[str, Any], block_id: str) -> dict[str, Any]:
    return next(b for b in view["blocks"] if b.get("block_id") == block_id)


def test_a_quick_form_opens_the_modal_prefilled_with_its_preview(bot: Harness) -> None:
    view_id = bot.command("鳳凰 3/10 11:00-15:00 婚礼 山田様")
    view = bot.slack.view(view_id)

    assert block(view, ids.ROOM)["element"]["initial_option"]["value"] == "hoo"
    assert block(view, ids.DATE)["element"]["initial_date"] == "2027-03-10"
    assert block(view, ids.START)["element"]["initial_time"] == "11:00"
    assert block(view, ids.END)["element"]["initial_time"] == "15:00"
    assert block(view, ids.KIND)["element"]["initial_option"]["value"] == "wedding"
    assert block(view, ids.CUSTOMER)["element"]["initial_value"] == "山田様"
    assert bot.preview_text(view_id) == "1番手として受付 · 期限 3/8(月・友引) 9:00まで"
    assert not any(b.get("block_id") == ids.NOTICE for b in view["blocks"])


def test_a_quick_form_with_words_it_cannot_read_says_which(bot: Harness) -> None:
    view_id = bot.command("鳳王 ３／１０ 18時〜22時 宴会")
    view = bot.slack.view(view_id)
    notice = block(view, ids.NOTICE)["text"]["text"]
    assert "読み取れなかった部分: 「鳳王」" in notice
    assert "initial_option" not in block(view, ids.ROOM)["element"]  # the room is left to choose
    assert block(view, ids.DATE)["element"]["initial_date"] == "2027-03-10"
    assert block(view, ids.END)["element"]["initial_time"] == "22:00"
    assert bot.preview_text(view_id).startswith("部屋・日付")  # no room yet: no preview


def test_the_modal_stays_in_english_for_an_english_user(bot: Harness) -> None:
    view_id = bot.command("sakura 3/10 18-21 banquet ABC Trading", user=ENGLISH_USER)
    view = bot.slack.view(view_id)
    assert view["title"]["text"] == "New hold"
    assert block(view, ids.ROOM)["label"]["text"] == "Room"
    assert block(view, ids.CUSTOMER)["element"]["initial_value"] == "ABC Trading"
    assert bot.preview_text(view_id) == "Held as 1st · reply by Thu 4 Mar (Tomobiki) 9:00"
    groups = block(view, ids.ROOM)["element"]["option_groups"]
    assert [g["label"]["text"] for g in groups] == ["Whole rooms", "Partitions", "Other rooms"]
    assert [o["value"] for o in groups[1]["options"]] == ["hoo-a", "hoo-b"]


def test_hold_list_shows_my_live_holds_only_to_me(bot: Harness) -> None:
    mine = bot.engine.request(
        bot.venue.id, request(customer="佐藤様", salesperson=sr.USER_ID), now=bot.clock[0]
    )
    bot.engine.request(bot.venue.id, request(room="sakura", customer="他人様"), now=bot.clock[0])
    assert isinstance(mine, RequestAnswer)
    body = sr.slash_command(text="list", response_url=bot.slack.response_url("list"))
    status, _, answer = bot.post(body)
    assert (status, answer) == (200, "")

    reply = bot.slack.wait_for("response_url")[0].body
    assert reply["response_type"] == "ephemeral"
    shown = json.dumps(reply["blocks"], ensure_ascii=False)
    assert (
        f"#{mine.hold.id} 鳳凰の間" in shown
        and "*1番手* · 期限 *3/8(月・友引) 9:00まで（あと7日）*" in shown
    )
    assert "他人様" not in shown
    assert bot.slack.calls_to("views.open") == []


def test_hold_help_answers_at_once_in_the_users_language(bot: Harness) -> None:
    status, _, answer = bot.post(sr.slash_command(text="help"))
    assert status == 200
    assert json.loads(answer)["text"].startswith("*仮押さえ（/hold）の使い方*")
    status, _, answer = bot.post(sr.slash_command(text="help", user_id=ENGLISH_USER))
    assert json.loads(answer)["text"].startswith("*Using /hold*")


def ask(bot: Harness, typed: str, user: str = sr.USER_ID) -> str:
    """Type ``/hold typed``; the ephemeral answer (no modal is opened)."""
    body = sr.slash_command(text=typed, user_id=user, response_url=bot.slack.response_url("ask"))
    status, _, answer = bot.post(body)
    assert (status, answer) == (200, "")
    reply = bot.slack.wait_for("response_url")[0].body
    assert reply["response_type"] == "ephemeral"
    return str(reply["text"])


def test_a_weekday_that_is_not_the_dates_is_asked_back_and_nothing_is_held(bot: Harness) -> None:
    """5/16 is a Sunday in 2027 (the next 5/16 from 1 March 2027): the form does not open."""
    said = ask(bot, "鳳凰 5/16(土) 11:00-15:00 婚礼 山田様")
    assert said == (
        "5/16 は日曜日で、土曜日ではありません。5/16(日・友引)、5/15(土・先勝)、5/22(土・友引) の"
        "どれのことでしょうか。まだ何も押さえていません。日付か曜日を直して、もう一度 `/hold` で"
        "送ってください。"
    )
    assert bot.slack.calls_to("views.open") == []
    assert bot.engine.holds(bot.venue.id) == []


def test_the_weekday_ask_back_in_english_and_with_the_year_when_it_is_next_year(
    bot: Harness,
) -> None:
    bot.clock[0] = bot.clock[0].replace(year=2026, month=12, day=2)  # the next 5/16 is in 2027
    said = ask(bot, "sakura 5/16 (Sat) 18-21 banquet ABC Trading", user=ENGLISH_USER)
    assert said.startswith(
        "16 May 2027 is a Sunday, not a Saturday. Which did you mean: Sun 16 May 2027 (Tomobiki), "
        "Sat 15 May 2027 (Sensho) or Sat 22 May 2027 (Tomobiki)? Nothing has been held yet;"
    )
    assert bot.slack.calls_to("views.open") == []
    assert bot.engine.holds(bot.venue.id) == []


def test_a_weekday_that_matches_opens_the_form_as_usual(bot: Harness) -> None:
    view_id = bot.command("鳳凰 5/15(土・先勝) 11:00-15:00 婚礼 山田様")
    date_block = block(bot.slack.view(view_id), ids.DATE)
    assert date_block["element"]["initial_date"] == "2027-05-15"
