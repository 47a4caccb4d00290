"""「1番手に回答を依頼」 on a waiting hold's card: signed clicks through the real endpoint."""

from __future__ import annotations

from datetime import timedelta

from bot import ids
from tests.bot.conftest import STRANGER, Harness, click
from tests.bot.test_buttons import LATER, card_text, ephemerals, hold_now, take
from tests.support import slack_requests as sr
from tests.support.factories import NOW


def test_the_waiting_holds_salesperson_asks_the_first_to_answer(bot: Harness) -> None:
    first, _, _ = take(bot, "佐藤様", day=LATER)
    second, channel, ts = take(bot, "鈴木様", user=STRANGER, day=LATER)
    assert hold_now(bot, second.id).rank == 2
    assert ids.NUDGE in card_text(bot, channel, ts)  # the waiting card has the button
    assert first.expires_at == NOW + timedelta(days=7)

    click(bot, ids.NUDGE, second.id, channel=channel, ts=ts, user=sr.USER_ID, name="not")
    bot.slack.wait_for("response_url", predicate=lambda c: c.path.endswith("not"))
    assert "順番待ちしている押さえの担当者" in ephemerals(bot, "not")[0]["text"]
    assert hold_now(bot, first.id).nudged_at is None  # the 1st's own salesperson: refused

    click(bot, ids.NUDGE, second.id, channel=channel, ts=ts, user=STRANGER)
    bot.slack.wait_for("chat.update")
    nudged = hold_now(bot, first.id)
    assert nudged.nudged_at is not None and nudged.expires_at == NOW + timedelta(days=2)
    assert "回答を依頼しました" in card_text(bot, channel, ts)
    told = [n for n in bot.engine.notices(bot.venue.id) if n.kind == "nudged"]
    assert sorted(n.recipient for n in told) == sorted([sr.USER_ID, STRANGER])

    click(bot, ids.NUDGE, second.id, channel=channel, ts=ts, user=STRANGER, name="again")
    bot.slack.wait_for("response_url", predicate=lambda c: c.path.endswith("again"))
    assert "すでに回答を依頼済み" in ephemerals(bot, "again")[0]["text"]
