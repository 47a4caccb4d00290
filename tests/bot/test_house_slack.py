"""社内押さえ in Slack, over signed HTTP: a manager's /hold form offers the choice, its preview
says so, its submission makes a house hold whose card has only a Release button; a
salesperson's form does not offer it, and a salesperson's house flag is refused on its field."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from bot import cards, ids
from bot.notices import render_notice
from core.model import Outcome, Status
from core.notices import NoticeKind
from core.serialize import hold_to_json
from tests.bot import samples
from tests.bot.conftest import Harness, values
from tests.support import slack_requests as sr
from tests.support.factories import JST, MANAGER, NOW

TICKED = {ids.HOUSE: {ids.HOUSE: sr.checkboxes_value([ids.HOUSE_VALUE])}}


def house_values(salesperson: str) -> dict[str, Any]:
    return {**values(customer="ブライダルフェア", salesperson=salesperson), **TICKED}


def block(view: dict[str, Any], block_id: str) -> dict[str, Any] | None:
    return next((b for b in view["blocks"] if b.get("block_id") == block_id), None)


def test_a_managers_form_offers_a_house_hold_and_makes_one(bot: Harness) -> None:
    view_id = bot.command(user=MANAGER)
    choice = block(bot.slack.view(view_id), ids.HOUSE)
    assert choice is not None and choice["optional"] is True
    option = choice["element"]["options"][0]
    assert (option["value"], option["text"]["text"]) == ("house", "社内押さえ（フェア・撮影など）")
    before = len(bot.slack.calls_to("views.update"))
    status, _ = bot.choose(view_id, house_values(MANAGER), ids.HOUSE, user=MANAGER)
    assert status == 200
    bot.slack.wait_for("views.update", before + 1)
    assert bot.preview_text(view_id) == "社内押さえとして受付 · 期限なし（1番手）"

    status, answer = bot.submit(view_id, house_values(MANAGER), user=MANAGER)
    assert (status, answer) == (200, {})
    held = bot.engine.holds(bot.venue.id)
    assert isinstance(held, list) and len(held) == 1
    assert (held[0].house, held[0].rank, held[0].expires_at) == (True, 1, None)
    post = bot.slack.wait_for("chat.postMessage")[0]
    shown = json.dumps(post.body["blocks"], ensure_ascii=False)
    assert "社内押さえ" in shown and "ブライダルフェア" in shown
    buttons = [
        e["action_id"] for b in post.body["blocks"] if b["type"] == "actions" for e in b["elements"]
    ]
    assert buttons == [ids.RELEASE]  # no Confirm, Extend, Nudge or Edit


def test_a_salespersons_form_has_no_choice_and_their_house_flag_is_refused(
    bot: Harness,
) -> None:
    view_id = bot.command()  # sr.USER_ID: no manager
    assert block(bot.slack.view(view_id), ids.HOUSE) is None
    before = bot.fingerprint()
    status, answer = bot.submit(view_id, house_values(sr.USER_ID))  # sent all the same
    assert (status, answer["response_action"]) == (200, "update")  # no field to put it on
    assert "社内押さえはマネージャーだけが登録できます" in json.dumps(
        answer["view"], ensure_ascii=False
    )
    assert bot.fingerprint() == before  # nothing written


def test_a_manager_no_longer_one_is_refused_on_the_choice(bot: Harness) -> None:
    view_id = bot.command(user=MANAGER)
    demoted = replace(bot.venue, managers=frozenset({"U0OTHERMGR"}))
    bot.engine.save_venue(demoted, now=NOW)
    before = bot.fingerprint()
    status, answer = bot.submit(view_id, house_values(MANAGER), user=MANAGER)
    assert (status, answer["response_action"]) == (200, "errors")
    assert list(answer["errors"]) == [ids.HOUSE]
    assert "マネージャーだけ" in answer["errors"][ids.HOUSE]
    assert bot.fingerprint() == before


def test_its_card_says_shanai_oshae_before_and_after_it_is_released() -> None:
    held = samples.hold(house=True, salesperson=MANAGER, creator=MANAGER, expires_at=None)
    assert cards.state(held, JST, "ja") == "*社内押さえ*（期限なし・取り下げはマネージャー）"
    buttons = cards.decision_buttons(held, JST, "ja")
    assert buttons is not None and [e.action_id for e in buttons.elements] == [ids.RELEASE]
    gone = held.left(Status.RELEASED, NOW, Outcome.WITHDRAWN)
    assert cards.state(gone, JST, "en").endswith(" · house hold")
    assert cards.decision_buttons(gone, JST, "ja") is None


def test_a_manager_is_told_who_waits_behind_the_house_hold_without_a_deadline() -> None:
    fair = samples.hold(house=True, salesperson=MANAGER, creator=MANAGER, expires_at=None)
    behind = samples.waiting(customer="佐藤様")
    payload = {"hold": hold_to_json(fair), "behind": hold_to_json(behind)}
    told = render_notice(samples.notice(NoticeKind.QUEUED, payload), tz=JST, locale="ja")
    shown = json.dumps(told.blocks, ensure_ascii=False)
    assert "社内押さえの後ろに押さえが入りました" in shown and "佐藤様" in shown
    assert "期限は *" not in shown and "社内押さえに期限はありません" in shown


def test_the_quick_form_takes_shanai_for_a_manager_and_says_why_not_to_others(
    bot: Harness,
) -> None:
    typed = "社内 3/10 鳳凰の間 10:00-17:00 ブライダルフェア"
    view = bot.slack.view(bot.command(typed, user=MANAGER))
    choice = block(view, ids.HOUSE)
    assert choice is not None and choice["element"]["initial_options"][0]["value"] == "house"
    customer = block(view, ids.CUSTOMER)
    assert customer is not None and customer["element"]["initial_value"] == "ブライダルフェア"
    other = bot.slack.view(bot.command(typed, name="other"))
    assert block(other, ids.HOUSE) is None
    notice = block(other, ids.NOTICE)
    assert notice is not None and "社内押さえはマネージャーだけ" in notice["text"]["text"]
