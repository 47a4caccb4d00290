"""The diary picture in Slack, over signed HTTP: ``/hold 台帳 …`` acks at once, then the
picture is drawn and uploaded through the stand-in's files.getUploadURLExternal, upload URL
and files.completeUploadExternal, into the channel or the asker's DM, with its summary."""

from __future__ import annotations

import io

from PIL import Image

from bot import ids
from tests.bot.conftest import ENGLISH_USER, Harness
from tests.bot.test_free import buttons
from tests.bot.test_home import open_home
from tests.support import slack_requests as sr
from tests.support.factories import DAY, SALES, request

ASKER = sr.USER_ID


def sent(bot: Harness, count: int = 1) -> None:
    """Wait for ``count`` shares in all (the drawing follows the ack on a thread of its own:
    the HTTP answer may come before it is handed over), then for the work to end."""
    bot.slack.wait_for("files.completeUploadExternal", count)
    bot.settle()


def slash(bot: Harness, typed: str, **fields: str) -> str:
    status, _, answer = bot.post(sr.slash_command(text=typed, **fields))
    assert status == 200, answer
    return answer  # an ack with text alone: Slack shows it to the asker only


def test_a_day_is_drawn_after_the_ack_and_shared_in_the_channel_with_its_summary(
    bot: Harness,
) -> None:
    bot.slack.set_user(SALES, locale="ja-JP", name="suzuki", real_name="鈴木 一郎")
    for customer, room in (("山田様", "hoo"), ("佐藤様", "sakura")):
        answer = bot.engine.request(
            bot.venue.id, request(room, customer=customer), now=bot.clock[0]
        )
        assert answer.ok, answer
    said = slash(bot, "台帳 3/10")
    assert said == "台帳 3/10(水・仏滅) を描いています。少しお待ちください。"
    sent(bot)
    (upload,) = bot.slack.uploads()
    assert upload.data is not None and upload.filename == "diary-day-2027-03-10.png"
    image = Image.open(io.BytesIO(upload.data))
    assert image.format == "PNG" and image.width > 1500
    (channel, ts) = upload.shares[0]
    assert channel == sr.CHANNEL_ID  # asked in the sales channel: shared there
    message = bot.slack.message(channel, ts)
    assert message is not None and message["files"][0]["id"] == upload.file_id
    assert message["text"] == (
        "台帳 3/10(水・仏滅): 押さえ 2 件（本予約 0 · 1番手 2 · 2番手 0）· 5 室"
    )
    assert upload.title == "台帳 3/10(水・仏滅)"
    complete = bot.slack.last("files.completeUploadExternal")
    assert complete.ok and complete.body["channels"] == sr.CHANNEL_ID
    names = [
        c.body["user"] for c in bot.slack.calls_to("users.info") if "include_locale" not in c.body
    ]
    assert names == [SALES]  # the salesperson's name, asked once, for the picture


def test_a_week_and_a_month_and_a_channel_osae_is_not_in_goes_to_the_dm(bot: Harness) -> None:
    assert slash(bot, "台帳 週 3/10").startswith("台帳 3/8(月)〜3/14(日) の週 を描いています")
    sent(bot)
    assert slash(bot, "台帳 4月", channel_id="D0SALESDM").startswith("台帳 2027年4月 を描いて")
    sent(bot, 2)
    week, month = bot.slack.uploads()
    assert week.filename == "diary-week-2027-03-08.png" and week.shares[0][0] == sr.CHANNEL_ID
    assert month.filename == "diary-month-2027-04-01.png"
    assert month.shares[0][0] == bot.slack.dm_channel(ASKER)  # asked in a DM: the asker's own
    bot.slack.fail_next("files.completeUploadExternal", "not_in_channel")
    slash(bot, "台帳 3/10")
    sent(bot, 4)  # refused in the channel, then shared in the DM
    refused, *_ = [c for c in bot.slack.calls_to("files.completeUploadExternal") if not c.ok]
    assert refused.error == "not_in_channel"
    dm, ts = bot.slack.uploads()[-1].shares[0]
    assert dm == bot.slack.dm_channel(ASKER)
    note = bot.slack.message(dm, ts)
    moved = f"<#{sr.CHANNEL_ID}> には投稿できなかったため（osae がメンバーではありません）"
    assert note is not None and note["text"].startswith(moved)
    assert note["text"].endswith("· 5 室")  # the summary follows


def test_bad_dates_are_refused_in_the_ack_with_what_works_and_nothing_is_drawn(
    bot: Harness,
) -> None:
    said = slash(bot, "台帳 13月")
    assert "「13月」は日付として読めませんでした。" in said and "`/hold 台帳 10月`" in said
    said = slash(bot, "台帳 2/30")
    assert "「2/30」は日付として読めませんでした。" in said
    said = slash(bot, "台帳 3/10(木)")  # 3/10 is a Wednesday
    assert "「3/10(木)」の曜日が日付と合いません。" in said
    assert slash(bot, "台帳 3/10(水)").startswith("台帳 3/10(水・仏滅) を描いています")
    bot.slack.wait_for("files.completeUploadExternal")
    english = slash(bot, "diary week <!channel>", user_id=ENGLISH_USER)
    assert "“&lt;!channel&gt;” could not be read as a date." in english
    assert "`/hold 台帳 week 10/2`" in english
    bot.settle()
    (only,) = bot.slack.uploads()  # the one that could be read; the refused drew nothing
    assert only.filename == "diary-day-2027-03-10.png"
    assert len(bot.slack.calls_to("files.getUploadURLExternal")) == 1


def test_a_failed_upload_is_told_in_the_dm(bot: Harness) -> None:
    bot.slack.fail_with_status("upload", 500)
    slash(bot, "台帳 3/10")
    bot.slack.wait_for("chat.postMessage")
    bot.settle()
    told = bot.slack.messages(bot.slack.dm_channel(ASKER))
    assert told and told[-1]["text"] == (
        "台帳の画像を送れませんでした（HTTPError）。しばらくしてからもう一度お試しください。"
    )


def test_app_homes_button_sends_this_weeks_diary_to_the_dm(bot: Harness) -> None:
    home = open_home(bot, ASKER)
    (button,) = buttons(home["blocks"], ids.DIARY_WEEK)
    assert button["text"]["text"] == "今週の台帳を見る"
    clicked = sr.action(ids.DIARY_WEEK, button["value"])
    status, _, _ = bot.post(sr.block_actions(actions=[clicked], view=home, user_id=ASKER))
    assert status == 200
    sent(bot)
    (upload,) = bot.slack.uploads()
    assert upload.filename == "diary-week-2027-03-01.png"  # NOW is Monday 2027-03-01
    assert upload.shares[0][0] == bot.slack.dm_channel(ASKER)
    assert DAY.isoformat() == "2027-03-10"
