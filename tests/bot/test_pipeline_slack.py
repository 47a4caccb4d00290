"""The pipeline in Slack, over signed HTTP: a manager's App Home shows this month and the next
three (enquiries, confirmed, losses by reason, conversion, forecast), and 「グラフで見る」
uploads the chart picture to their DM through the stand-in's files.getUploadURLExternal,
upload URL and files.completeUploadExternal; a salesperson sees neither, and a forged click
uploads nothing and says why."""

from __future__ import annotations

import io
import json
from dataclasses import replace

from PIL import Image

from bot import ids
from core.model import Details
from tests.bot.conftest import Harness
from tests.bot.test_free import buttons
from tests.bot.test_home import open_home
from tests.support import slack_requests as sr
from tests.support.factories import MANAGER, later, request


def _month(bot: Harness) -> None:
    """Two weddings of 3/10 (the harness's DAY) on 鳳凰の間: the first confirmed (80 guests,
    ¥4,000,000), the second lost to it; a third on 桜の間 released for its budget."""
    now = bot.clock[0]
    first = replace(request("hoo"), guests=80, details=Details(estimate=4_000_000))
    won = bot.engine.request(bot.venue.id, first, now=now)
    assert won.ok, won
    assert bot.engine.request(bot.venue.id, request("hoo"), now=now).ok
    gone = bot.engine.request(bot.venue.id, request("sakura"), now=now)
    assert gone.ok, gone
    confirmed = bot.engine.confirm(
        bot.venue.id, won.hold.id, actor=won.hold.salesperson, now=later(now, hours=1)
    )
    assert confirmed.ok, confirmed
    released = bot.engine.release(
        bot.venue.id, gone.hold.id, actor=gone.hold.salesperson, now=now, reason="budget"
    )
    assert released.ok, released


def test_a_managers_home_shows_the_pipeline_and_its_button_sends_the_chart(bot: Harness) -> None:
    _month(bot)
    home = open_home(bot, MANAGER)
    (block,) = [b for b in home["blocks"] if b.get("block_id") == ids.PIPELINE_BLOCK]
    said = block["text"]["text"]
    ja = "*2027年3月* 問合せ 3 · 本予約 1 · 失注 2（予算 1、他の予約が本予約 1） · 成約率 33%"
    en = "*2027-03* enquiries 3 · confirmed 1 · lost 2 (Budget 1, Another booking confirmed 1)"
    assert ja in said or en in said, said
    assert ("本予約 80名 ¥4,000,000" in said) or ("confirmed 80 guests ¥4,000,000" in said)
    assert said.count("\n") == 8  # the title, then two lines for each of the four months
    (button,) = buttons(home["blocks"], ids.PIPELINE_CHART)
    assert button["text"]["text"] in ("グラフで見る", "See the chart")
    clicked = sr.action(ids.PIPELINE_CHART, button["value"])
    status, _, _ = bot.post(sr.block_actions(actions=[clicked], view=home, user_id=MANAGER))
    assert status == 200
    bot.slack.wait_for("files.completeUploadExternal", 1)
    bot.settle()
    (upload,) = bot.slack.uploads()
    assert upload.filename == "pipeline-2027-03.png" and upload.data is not None
    assert upload.shares[0][0] == bot.slack.dm_channel(MANAGER)
    with Image.open(io.BytesIO(upload.data)) as picture:
        assert picture.format == "PNG" and picture.size == (1650, 1050)
        assert picture.info["Title"].endswith(("パイプライン 2027年3月", "pipeline 2027-03"))


def test_the_chart_is_a_managers_and_a_forged_click_uploads_nothing(bot: Harness) -> None:
    home = open_home(bot, sr.USER_ID)  # a salesperson
    assert [b for b in home["blocks"] if b.get("block_id") == ids.PIPELINE_BLOCK] == []
    assert buttons(home["blocks"], ids.PIPELINE_CHART) == []
    forged = sr.action(ids.PIPELINE_CHART, "2027-03")
    status, _, _ = bot.post(sr.block_actions(actions=[forged], view=home, user_id=sr.USER_ID))
    assert status == 200
    bot.settle()
    assert bot.slack.uploads() == []
    assert bot.slack.calls_to("files.getUploadURLExternal") == []
    bot.slack.wait_for("chat.postMessage", 1)  # told after the ack
    told = json.dumps([c.body for c in bot.slack.calls_to("chat.postMessage")], ensure_ascii=False)
    assert "マネージャーだけ" in told or "for managers" in told
