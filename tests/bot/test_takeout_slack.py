"""The ledger taken out in Slack, over signed HTTP: a manager's App Home 「Excel で出力」 sends
the 予約台帳 (contacts included) to their DM through the stand-in's files.getUploadURLExternal,
upload URL and files.completeUploadExternal; everyone's App Home shows their calendar feed."""

from __future__ import annotations

import io
import urllib.request
from dataclasses import replace

import openpyxl

from bot import ids
from bot.feeds import CalendarFeeds
from bot.web import Server, build_wsgi
from tests.bot.conftest import Harness
from tests.bot.test_free import buttons
from tests.bot.test_home import open_home
from tests.support import slack_requests as sr
from tests.support.factories import MANAGER, request


def test_a_managers_button_sends_the_ledger_with_contacts_to_their_dm(bot: Harness) -> None:
    held = bot.engine.request(
        bot.venue.id,
        replace(request("hoo", customer="山田様"), contact="03-1111-2222"),
        now=bot.clock[0],
    )
    assert held.ok, held
    home = open_home(bot, MANAGER)
    (button,) = buttons(home["blocks"], ids.LEDGER_EXPORT)
    assert button["text"]["text"] in ("Excel で出力", "Export to Excel")
    clicked = sr.action(ids.LEDGER_EXPORT, button["value"])
    status, _, _ = bot.post(sr.block_actions(actions=[clicked], view=home, user_id=MANAGER))
    assert status == 200
    bot.slack.wait_for("files.completeUploadExternal", 1)
    bot.settle()
    (upload,) = bot.slack.uploads()
    assert upload.filename.endswith(".xlsx") and upload.data is not None
    assert upload.shares[0][0] == bot.slack.dm_channel(MANAGER)
    sheet = openpyxl.load_workbook(io.BytesIO(upload.data)).active
    header = [c.value for c in sheet[1]]
    assert header[-1] == "連絡先" and header[:3] == ["日付", "曜日・六曜", "部屋"]
    (row,) = [[c.value for c in r] for r in sheet.iter_rows(min_row=2)]
    assert (row[2], row[6], row[9], row[15]) == ("鳳凰の間", "山田様", "1番手", "03-1111-2222")


def test_the_button_is_a_managers_and_a_forged_click_uploads_nothing(bot: Harness) -> None:
    home = open_home(bot, sr.USER_ID)  # a salesperson
    assert buttons(home["blocks"], ids.LEDGER_EXPORT) == []
    forged = sr.action(ids.LEDGER_EXPORT, "xlsx")
    status, _, _ = bot.post(sr.block_actions(actions=[forged], view=home, user_id=sr.USER_ID))
    assert status == 200
    bot.settle()
    assert bot.slack.uploads() == []
    assert bot.slack.calls_to("files.getUploadURLExternal") == []


def test_app_home_shows_a_working_calendar_feed_url(bot: Harness) -> None:
    held = bot.engine.request(
        bot.venue.id, request("hoo", customer="山田様", salesperson=sr.USER_ID), now=bot.clock[0]
    )
    assert held.ok, held
    home = open_home(bot, sr.USER_ID)
    (feed,) = [b for b in home["blocks"] if b.get("block_id") == ids.FEED_BLOCK]
    said = feed["text"]["text"]
    url = said.split("/calendar/", 1)[1].split(".ics", 1)[0]
    with Server(
        build_wsgi(None, lambda: (True, {}), CalendarFeeds(bot.engine, lambda: bot.clock[0]))
    ) as web:
        target = f"{web.url}/calendar/{url}.ics"
        with urllib.request.urlopen(target, timeout=30) as answer:  # noqa: S310 - ours
            body = answer.read()
    assert b"SUMMARY:" in body and "山田様".encode() in body
