"""「入金確認」 on a confirmed booking's card: signed clicks through the real endpoint, the
engine deciding who may (its salesperson or a manager), once (docs/rules.md, Deposits)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime

import pytest

from bot import ids
from core.engine import HoldEngine
from core.model import Status, Venue
from core.results import RequestAnswer
from tests.bot.conftest import STRANGER, Harness, click
from tests.bot.test_buttons import LATER, card_text, ephemerals, hold_now, take
from tests.bot.test_home import open_home
from tests.support import factories
from tests.support import slack_requests as sr
from tests.support.factories import JST, MANAGER, NOW, request


@pytest.fixture
def venue(engine: HoldEngine) -> Venue:
    policy = replace(factories.venue().policy, deposit_days=14)
    return engine.save_venue(factories.venue(policy=policy), now=NOW)


def confirm_in_slack(bot: Harness, hold_id: int, channel: str, ts: str) -> None:
    opens = len(bot.slack.calls_to("views.open"))
    click(bot, ids.CONFIRM, hold_id, channel=channel, ts=ts)
    dialog = bot.slack.wait_for("views.open", opens + 1)[-1]
    body = sr.view_submission(view=bot.slack.view(dialog.response["view"]["id"]))
    assert bot.post(body)[0] == 200
    bot.slack.wait_for("chat.update")


def test_the_salesperson_records_the_deposit_once_from_the_card(bot: Harness) -> None:
    hold, channel, ts = take(bot, "佐藤様", day=LATER)
    assert ids.DEPOSIT not in card_text(bot, channel, ts)  # a tentative hold owes nothing
    confirm_in_slack(bot, hold.id, channel, ts)
    card = card_text(bot, channel, ts)
    assert hold_now(bot, hold.id).status is Status.CONFIRMED
    assert "入金待ち（期日 3/15）" in card and ids.DEPOSIT in card

    click(bot, ids.DEPOSIT, hold.id, channel=channel, ts=ts, user=STRANGER, name="stranger")
    bot.slack.wait_for("response_url", predicate=lambda c: c.path.endswith("stranger"))
    assert "入金確認ができるのは" in ephemerals(bot, "stranger")[0]["text"]
    assert not hold_now(bot, hold.id).deposit.paid  # refused: nothing written

    updates = len(bot.slack.calls_to("chat.update"))
    click(bot, ids.DEPOSIT, hold.id, channel=channel, ts=ts, user=sr.USER_ID)
    bot.slack.wait_for("chat.update", updates + 1)
    paid = hold_now(bot, hold.id).deposit
    assert paid.paid and paid.paid_by == sr.USER_ID and paid.paid_at == NOW
    card = card_text(bot, channel, ts)
    assert "入金確認を記録しました" in card and "入金済" in card and ids.DEPOSIT not in card
    trail = [e.action for e in bot.engine.trail(bot.venue.id, hold.id)]
    assert trail.count("deposit_paid") == 1

    click(bot, ids.DEPOSIT, hold.id, channel=channel, ts=ts, user=MANAGER, name="again")
    bot.slack.wait_for("response_url", predicate=lambda c: c.path.endswith("again"))
    said = ephemerals(bot, "again")[0]["text"]
    assert "記録済み" in said and sr.USER_ID in said  # when and by whom
    assert hold_now(bot, hold.id).deposit == paid


def test_app_home_lists_deposits_due_and_managers_see_those_past_due(bot: Harness) -> None:
    asked = bot.engine.request(
        bot.venue.id, request(day=LATER, salesperson=sr.USER_ID, customer="桜様"), now=NOW
    )
    assert isinstance(asked, RequestAnswer)
    hold = asked.hold
    assert bot.engine.confirm(bot.venue.id, hold.id, actor=sr.USER_ID, now=NOW).ok
    home = open_home(bot)
    shown = json.dumps(home["blocks"], ensure_ascii=False)
    assert "予約金の入金待ち" in shown and "入金待ち（期日 3/15）" in shown
    buttons = [
        b["accessory"]
        for b in home["blocks"]
        if b.get("accessory", {}).get("action_id") == ids.DEPOSIT
    ]
    assert [b["value"] for b in buttons] == [str(hold.id)]

    bot.clock[0] = datetime(2027, 3, 16, 10, 0, tzinfo=JST)  # the day after the due date
    team = json.dumps(open_home(bot, MANAGER)["blocks"], ensure_ascii=False)
    assert "予約金の期日超過（未入金）* 1件" in team and "桜様" in team

    publishes = len(bot.slack.calls_to("views.publish"))
    button = sr.action(ids.DEPOSIT, str(hold.id), block_id="deposit")
    assert bot.post(sr.block_actions(actions=[button], view=home))[0] == 200
    bot.slack.wait_for("views.publish", publishes + 1)
    assert hold_now(bot, hold.id).deposit.paid
    again = json.dumps(bot.slack.home(sr.USER_ID)["blocks"], ensure_ascii=False)  # type: ignore[index]
    assert "予約金の入金待ち" not in again
    team = json.dumps(open_home(bot, MANAGER)["blocks"], ensure_ascii=False)
    assert "予約金の期日超過" not in team
