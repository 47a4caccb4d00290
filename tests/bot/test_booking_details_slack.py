"""The booking's details in the /hold form, over signed HTTP (issue 25, items 1 and 7): the
form takes estimate, plan, source and next action; "Edit" opens with them and guests filled
in, and its submission changes them, keeping what it does not change."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from bot import ids
from tests.bot.conftest import Harness, values
from tests.bot.test_edit import open_edit
from tests.support import slack_requests as sr


def details(
    estimate: str | None, plan: str | None, source: str | None, action: str | None, **kw: Any
) -> Any:
    state = values(**kw)
    state[ids.GUESTS] = {ids.GUESTS: sr.text_value("80", "number_input")}
    state[ids.ESTIMATE] = {ids.ESTIMATE: sr.text_value(estimate, "number_input")}
    state[ids.PLAN] = {ids.PLAN: sr.text_value(plan)}
    state[ids.SOURCE] = {ids.SOURCE: sr.select_value(source)}
    state[ids.NEXT_ACTION] = {ids.NEXT_ACTION: sr.date_value(action)}
    state[ids.NEXT_ACTION_NOTE] = {ids.NEXT_ACTION_NOTE: sr.text_value("打合せ")}
    return state


def test_the_form_takes_the_details_and_an_edit_changes_them(bot: Harness) -> None:
    view_id = bot.command()
    form = json.dumps(bot.slack.view(view_id)["blocks"], ensure_ascii=False)
    assert "見積金額" in form and "ゼクシィ" in form and "次回予定" in form
    posts = len(bot.slack.calls_to("chat.postMessage"))
    chosen = details("3500000", "チャペル挙式", "zexy", "2027-03-05", customer="松本様")
    status, answer = bot.submit(view_id, chosen)
    assert (status, answer) == (200, {})
    post = bot.slack.wait_for("chat.postMessage", posts + 1)[-1]
    bot.settle()
    (hold,) = bot.engine.holds(bot.venue.id)
    d = hold.details
    assert (hold.guests, d.estimate, d.plan, d.source) == (80, 3_500_000, "チャペル挙式", "zexy")
    assert (d.next_action, d.next_action_note) == (date(2027, 3, 5), "打合せ")

    edit_id = open_edit(bot, hold, post.response["channel"], post.response["ts"])
    shown = json.dumps(bot.slack.view(edit_id)["blocks"], ensure_ascii=False)
    assert '"initial_value": "3500000"' in shown and '"initial_date": "2027-03-05"' in shown
    assert '"initial_value": "80"' in shown and "チャペル挙式" in shown
    changed = details("2800000", "チャペル挙式", "fair", "2027-03-05", customer="松本様")
    status, answer = bot.submit(edit_id, changed)
    assert (status, answer) == (200, {})
    bot.settle()
    (now,) = [h for h in bot.engine.holds(bot.venue.id) if h.status.value == "tentative"]
    assert now.id == hold.id  # the booking's row only: the place is kept
    assert (now.guests, now.details.estimate, now.details.source) == (80, 2_800_000, "fair")
    assert now.details.next_action == date(2027, 3, 5)


def test_an_unknown_estimate_is_refused_on_its_field(bot: Harness) -> None:
    view_id = bot.command()
    status, answer = bot.submit(view_id, details("三百万", None, None, None))
    assert (status, answer["response_action"]) == (200, "errors")
    assert answer["errors"] == {ids.ESTIMATE: "見積金額は0〜1000000000円の整数で入力してください。"}
    assert bot.engine.holds(bot.venue.id) == []
