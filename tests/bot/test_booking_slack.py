"""The booking number wherever staff see a hold, and ``/hold B-0012`` in Slack: the booking
with every hold it has had (candidate dates, the hold an edit replaced), their states, a
release's reason; a swap's new card goes on in the old card's thread. Over signed HTTP,
through the stand-in; ``pytest -s`` prints what the salesperson reads."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from typing import Any

from bot import ids
from bot.card_notices import render_card, render_card_line
from core.booking import booking_number
from core.model import Hold, HoldEdit, Status
from core.results import EditAnswer, RequestAnswer
from tests.bot.conftest import Harness, values
from tests.bot.packages import courier
from tests.bot.test_edit import open_edit, take_in
from tests.support import slack_requests as sr
from tests.support.factories import DAY, MANAGER, request
from tests.support.transcript import Transcript


def take(bot: Harness, customer: str) -> tuple[Hold, dict[str, Any]]:
    """A hold of ``sr.USER_ID`` through /hold, and the card /hold posted (its call)."""
    posts = len(bot.slack.calls_to("chat.postMessage"))
    view_id = bot.command()
    assert bot.submit(view_id, values(customer=customer)) == (200, {})
    post = bot.slack.wait_for("chat.postMessage", posts + 1)[-1]
    (hold,) = [h for h in bot.engine.holds(bot.venue.id) if h.customer == customer]  # type: ignore[union-attr]
    return hold, post.body | {"channel": post.response["channel"], "ts": post.response["ts"]}


def typed(bot: Harness, words: str, name: str) -> dict[str, Any]:
    """``/hold words``: what only the one who typed it reads (the command's response_url)."""
    body = sr.slash_command(text=words, response_url=bot.slack.response_url(name))
    assert bot.post(body)[0] == 200
    return bot.slack.wait_for("response_url", predicate=lambda c: c.path.endswith(name))[0].body


def test_hold_b_number_shows_the_booking_its_candidate_dates_states_and_reasons(
    bot: Harness,
) -> None:
    t = Transcript()
    first, card = take(bot, "佐藤様")
    booking = booking_number(first.enquiry_id)
    assert f"{booking} #{first.id} " in json.dumps(card["blocks"], ensure_ascii=False)
    other_day = replace(
        request(day=DAY + timedelta(days=7), customer="佐藤様", salesperson=sr.USER_ID),
        enquiry_id=first.enquiry_id,
    )
    second = bot.engine.request(bot.venue.id, other_day, now=bot.clock[0])
    assert isinstance(second, RequestAnswer)
    gone = bot.engine.release(
        bot.venue.id,
        second.hold.id,
        actor=sr.USER_ID,
        now=bot.clock[0],
        reason="changed_plans",
        note="人数が増えたため",
    )
    assert gone.ok

    t.does(f"/hold {booking}")
    said = typed(bot, booking, "booking")
    t.message("only to @U0SALES01", said)
    assert said["response_type"] == "ephemeral"
    shown = json.dumps(said["blocks"], ensure_ascii=False)
    assert f"*{booking}* 佐藤様（婚礼）· 担当 <@{sr.USER_ID}>" in shown
    assert "押さえ 2 件" in shown
    assert f"#{first.id} 鳳凰の間 3/10" in shown and "*1番手*" in shown
    assert f"#{second.hold.id} 鳳凰の間 3/17" in shown and "*取り下げ*" in shown
    assert "理由: 日程・人数の変更 — 人数が増えたため" in shown
    buttons = [b for b in said["blocks"] if b["type"] == "actions"]
    assert [b["block_id"] for b in buttons] == [ids.card_actions(first.id)]  # the live one

    assert typed(bot, "ｂ－" + str(first.enquiry_id), "wide")["blocks"] == said["blocks"]
    print("\n--- Slack transcript: /hold with a booking number ---")
    print(t)


def test_an_unknown_booking_is_said_and_a_bare_number_is_not_one(bot: Harness) -> None:
    said = typed(bot, "B-9999", "unknown")
    assert said["text"].startswith("予約番号 B-9999 はこの会場にありません")
    opens = len(bot.slack.calls_to("views.open"))
    assert bot.post(sr.slash_command(text="12"))[0] == 200  # the quick form's, as before
    assert bot.slack.wait_for("views.open", opens + 1)[-1].body["view"]["callback_id"] == (
        ids.HOLD_MODAL
    )


def test_a_swaps_new_card_goes_on_in_the_old_cards_thread_and_the_old_card_says_changed(
    bot: Harness,
) -> None:
    hold, card = take(bot, "佐藤様")
    take_in(bot, "sakura", "鈴木様", MANAGER)
    channel, ts = card["channel"], card["ts"]
    view_id = open_edit(bot, hold, channel, ts)
    moved = values(room="sakura", customer="佐藤様")
    status, answer = bot.submit(view_id, moved)  # it would wait 2nd: asked to confirm
    assert status == 200 and answer["response_action"] == "update"
    posts = len(bot.slack.calls_to("chat.postMessage"))
    again = sr.view_submission(moved, view={**bot.slack.view(view_id), **answer["view"]})
    assert bot.post(again)[0] == 200
    new_card = bot.slack.wait_for("chat.postMessage", posts + 1)[-1]
    assert new_card.body["thread_ts"] == ts and new_card.body["reply_broadcast"] is True
    live = bot.engine.holds(bot.venue.id)
    assert isinstance(live, list)
    (new,) = [h for h in live if h.customer == "佐藤様" and h.id != hold.id]
    assert new.enquiry_id == hold.enquiry_id
    booking = booking_number(hold.enquiry_id)
    assert f"{booking} #{new.id} " in json.dumps(new_card.body["blocks"], ensure_ascii=False)

    bot.settle()
    carrier = replace(courier(bot), render_card=render_card, render_card_line=render_card_line)
    assert carrier.drain(bot.venue.id).failed == 0  # the old card's redraw, its thread's line
    old = json.dumps(bot.slack.message(channel, ts), ensure_ascii=False)
    assert "*変更*（新しい押さえに引き継ぎ）" in old
    lines = [
        c.body["text"]
        for c in bot.slack.calls_to("chat.postMessage")
        if c.body.get("thread_ts") == ts and "→" in c.body["text"]
    ]
    assert any(f"新しい押さえ #{new.id}" in line for line in lines)
    assert bot.engine.hold(bot.venue.id, hold.id).status is Status.RELEASED  # type: ignore[union-attr]

    listed = json.dumps(typed(bot, booking, "after")["blocks"], ensure_ascii=False)
    assert "押さえ 2 件" in listed and "*変更*（新しい押さえに引き継ぎ）" in listed


def test_a_swap_from_the_terminal_or_app_home_has_its_card_posted_in_the_old_cards_thread(
    bot: Harness,
) -> None:
    hold, card = take(bot, "佐藤様")
    take_in(bot, "sakura", "鈴木様", MANAGER)
    bot.settle()
    moved = HoldEdit(hold.id, hold.version, sr.USER_ID, room_id="sakura")
    swapped = bot.engine.writes.edit(bot.venue.id, moved, now=bot.clock[0], announce=True)
    assert isinstance(swapped, EditAnswer) and not swapped.kept_place
    posts = len(bot.slack.calls_to("chat.postMessage"))
    carrier = replace(courier(bot), render_card=render_card, render_card_line=render_card_line)
    carrier = replace(carrier, card_channel=sr.CHANNEL_ID)
    assert carrier.drain(bot.venue.id).failed == 0
    sent = bot.slack.calls_to("chat.postMessage")[posts:]
    (new_card,) = [c for c in sent if f"#{swapped.hold.id} " in json.dumps(c.body["blocks"])]
    assert new_card.body["thread_ts"] == card["ts"] and new_card.body["channel"] == card["channel"]
    old = json.dumps(bot.slack.message(card["channel"], card["ts"]), ensure_ascii=False)
    assert "*変更*（新しい押さえに引き継ぎ）" in old
