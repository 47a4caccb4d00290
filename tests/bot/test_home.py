"""App Home: my 1st holds with buttons, my waiting holds with who is ahead, recent outcomes."""

from __future__ import annotations

import json
import time
from typing import Any

from bot import ids
from core.model import Status
from core.results import RequestAnswer
from tests.bot.conftest import STRANGER, Harness
from tests.bot.releasing import submit_release
from tests.support import slack_requests as sr
from tests.support.factories import SALES, request


def take(bot: Harness, **fields: Any) -> RequestAnswer:
    result = bot.engine.request(bot.venue.id, request(**fields), now=bot.clock[0])
    assert isinstance(result, RequestAnswer), result
    return result


def open_home(bot: Harness, user: str = sr.USER_ID) -> dict[str, Any]:
    before = len(bot.slack.calls_to("views.publish"))
    status, _, _ = bot.post(sr.app_home_opened_event(user))
    assert status == 200
    bot.slack.wait_for("views.publish", before + 1)
    home = bot.slack.home(user)
    assert home is not None
    return home


def test_home_shows_firsts_waiting_with_who_is_ahead_and_recent_outcomes(bot: Harness) -> None:
    mine_first = take(bot, room="sakura", customer="桜様", salesperson=sr.USER_ID)
    theirs = take(bot, customer="佐藤様", salesperson=SALES)
    mine_waiting = take(bot, customer="鈴木様", salesperson=sr.USER_ID)
    gone = take(bot, room="chapel", customer="去った様", salesperson=sr.USER_ID)
    assert bot.engine.release(bot.venue.id, gone.hold.id, actor=sr.USER_ID, now=bot.clock[0]).ok

    home = open_home(bot)
    text = json.dumps(home["blocks"], ensure_ascii=False)
    assert home["type"] == "home"
    assert "桜様" in text and "*1番手* · 期限 *3/8(月・友引) 9:00まで（あと7日）*" in text
    assert (
        "鈴木様" in text
        and f"前: #{theirs.hold.id} 佐藤様（婚礼） 期限 3/8(月・友引) 9:00まで（あと7日）" in text
    )
    assert "去った様" in text and "*取り下げ*" in text
    row_ids = [b.get("block_id") for b in home["blocks"] if b["type"] == "actions"]
    assert row_ids == [ids.card_actions(mine_first.hold.id), ids.card_actions(mine_waiting.hold.id)]


def test_the_messages_tab_publishes_nothing(bot: Harness) -> None:
    status, _, _ = bot.post(sr.app_home_opened_event(tab="messages"))
    assert status == 200
    bot.slack.wait_for("auth.test")
    time.sleep(0.3)  # the listener runs after the ack; give it the time it would take
    assert bot.slack.calls_to("views.publish") == []


def test_a_home_button_acts_and_the_home_is_published_again(bot: Harness) -> None:
    mine = take(bot, salesperson=sr.USER_ID)
    home = open_home(bot)
    button = sr.action(ids.RELEASE, str(mine.hold.id), block_id=ids.card_actions(mine.hold.id))
    status, _, _ = bot.post(sr.block_actions(actions=[button], view=home))
    assert status == 200
    opened = bot.slack.wait_for("views.open")[0]  # Release asks why first
    dialog = bot.slack.view(opened.response["view"]["id"])
    assert submit_release(bot, dialog, "other_venue") == (200, "")

    bot.slack.wait_for("views.publish", 2)
    assert bot.engine.hold(bot.venue.id, mine.hold.id).status is Status.RELEASED  # type: ignore[union-attr]
    again = json.dumps(bot.slack.home(sr.USER_ID)["blocks"], ensure_ascii=False)  # type: ignore[index]
    assert "1番手の押さえはありません" in again


def test_a_refused_home_click_is_explained_in_a_small_dialog(bot: Harness) -> None:
    theirs = take(bot, salesperson=SALES)
    home = open_home(bot, STRANGER)
    button = sr.action(ids.EXTEND, str(theirs.hold.id), block_id=ids.card_actions(theirs.hold.id))
    bot.post(sr.block_actions(actions=[button], view=home, user_id=STRANGER))

    dialog = bot.slack.wait_for("views.open")[0]
    assert dialog.body["view"]["callback_id"] == ids.INFO_MODAL
    assert f"担当の <@{SALES}> さん" in json.dumps(dialog.body["view"], ensure_ascii=False)
    assert bot.engine.hold(bot.venue.id, theirs.hold.id).extensions_used == 0  # type: ignore[union-attr]
