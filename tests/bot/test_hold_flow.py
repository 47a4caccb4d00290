"""/hold end to end over HTTP: modal, live preview, submission, the hold and the channel post."""

from __future__ import annotations

import json

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
    assert bot.preview_text(view_id) == "1番手として受付 · 期限 3/8(月) 9:00"

    status, answer = bot.submit(view_id, values())
    assert (status, answer) == (200, {})  # closes the modal

    post = bot.slack.wait_for("chat.postMessage")[0]
    assert post.body["channel"] == sr.CHANNEL_ID
    text = json.dumps(post.body["blocks"], ensure_ascii=False)
    for fact in ("鳳凰の間", "3/10(水)", "11:00–15:00", "婚礼", "山田様", "1番手", "3/8(月) 9:00"):
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
        "担当 <@U0SALES001> 期限 3/8(月) 9:00"
    )
