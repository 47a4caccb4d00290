"""/hold end to end over HTTP: modal, live preview, submission, the hold and the channel post."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot import ids
from core.model import Status
from tests.bot.conftest import Harness, values
from tests.support import slack_requests as sr
from tests.support.factories import request


@pytest.mark.parametrize(
    "bot", [False, True], indirect=True, ids=["ack-then-work", "process-before-response"]
)
def test_hold_opens_a_modal_previews_and_posts_the_hold_to_the_channel(bot: Harness) -> None:
    view_id = bot.command()
    opened = bot.slack.last("views.open")
    assert opened.body["view"]["callback_id"] == ids.HOLD_MODAL  # the loading modal, at once
    form = bot.slack.view(view_id)
    assert form["title"]["text"] == "仮押さえ"
    assert bot.preview_text(view_id).startswith("部屋・日付")  # nothing chosen yet
    salesperson = next(b for b in form["blocks"] if b.get("block_id") == ids.SALESPERSON)
    assert salesperson["element"]["initial_user"] == sr.USER_ID  # the person typing

    chosen = values(customer=None)
    status, _ = bot.choose(view_id, chosen, ids.KIND)
    assert status == 200
    bot.slack.wait_for("views.update", 2)
    assert bot.preview_text(view_id) == "1番手として受付 · 期限 3/8(月・友引) 9:00まで"

    status, answer = bot.submit(view_id, values())
    assert (status, answer) == (200, {})  # closes the modal

    post = bot.slack.wait_for("chat.postMessage")[0]
    assert post.body["channel"] == sr.CHANNEL_ID
    text = json.dumps(post.body["blocks"], ensure_ascii=False)
    facts = (
        "鳳凰の間",
        "3/10(水・仏滅)",
        "11:00〜15:00",
        "婚礼",
        "山田様",
        "1番手",
        "3/8(月・友引) 9:00まで",
    )
    for fact in facts:
        assert fact in text
    assert f"<@{sr.USER_ID}>" in text
    held = bot.engine.holds(bot.venue.id)
    assert isinstance(held, list) and len(held) == 1
    assert (held[0].rank, held[0].status, held[0].customer) == (1, Status.TENTATIVE, "山田様")
    assert held[0].creator == sr.USER_ID
    bot.slack.wait_for("views.publish")  # the salesperson's App Home is refreshed


def test_the_preview_says_second_and_who_is_first(bot: Harness) -> None:
    first = bot.engine.request(bot.venue.id, request(customer="佐藤様"), now=bot.clock[0])
    assert first.ok
    view_id = bot.command()
    bot.choose(view_id, values(), ids.ROOM)
    bot.slack.wait_for("views.update", 2)
    assert bot.preview_text(view_id) == (
        f"2番手で受付 · 前に 1番手 #{first.hold.id} 佐藤様（婚礼）"
        "担当 <@U0SALES001> 期限 3/8(月・友引) 9:00まで"
    )


def test_a_venue_without_rokuyo_a_hold_next_year_past_midnight_reads_as_staff_write_it(
    bot: Harness,
) -> None:
    """Booked in December 2026 for March 2027: the date carries its year, the time 翌1:00, the
    deadline (this December) its weekday and time; the venue shows no 六曜."""
    policy = replace(bot.venue.policy, show_rokuyo=False)
    bot.engine.save_venue(replace(bot.venue, policy=policy), now=bot.clock[0])
    bot.clock[0] = bot.clock[0].replace(year=2026, month=12, day=2)
    view_id = bot.command()
    chosen = values(start="21:00", end="01:00")
    assert bot.choose(view_id, chosen, ids.END)[0] == 200
    bot.slack.wait_for("views.update", 2)
    assert bot.preview_text(view_id) == "1番手として受付 · 期限 12/9(水) 9:00まで"

    assert bot.submit(view_id, chosen) == (200, {})
    post = bot.slack.wait_for("chat.postMessage")[0]
    card = json.dumps(post.body["blocks"], ensure_ascii=False)
    assert "鳳凰の間 2027/3/10(水) 21:00〜翌1:00 山田様（婚礼）" in card
    assert "*1番手* · 期限 *12/9(水) 9:00まで*" in card
    assert "あと" not in card  # the channel's card is not redrawn as time passes
    assert not any(name in card for name in ("大安", "友引", "仏滅", "先勝", "先負", "赤口"))
