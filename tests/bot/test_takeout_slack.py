"""The ledger taken out in Slack, over signed HTTP: a manager's App Home 「Excel で出力」 sends
the 予約台帳 (contacts included) to their DM through the stand-in's files.getUploadURLExternal,
upload URL and files.completeUploadExternal; everyone's App Home offers their calendar feed,
issued by a click (viewing writes nothing), then shown."""

from __future__ import annotations

import io
import json
import re
import urllib.request
from dataclasses import replace
from typing import Any

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
    assert (row[2], row[6], row[9], row[16]) == ("鳳凰の間", "山田様", "1番手", "03-1111-2222")


def test_the_button_is_a_managers_and_a_forged_click_uploads_nothing(bot: Harness) -> None:
    home = open_home(bot, sr.USER_ID)  # a salesperson
    assert buttons(home["blocks"], ids.LEDGER_EXPORT) == []
    forged = sr.action(ids.LEDGER_EXPORT, "xlsx")
    status, _, _ = bot.post(sr.block_actions(actions=[forged], view=home, user_id=sr.USER_ID))
    assert status == 200
    bot.settle()
    assert bot.slack.uploads() == []
    assert bot.slack.calls_to("files.getUploadURLExternal") == []


def click_for_feed(bot: Harness, home: dict[str, Any], user: str, value: str) -> int:
    """Press 「カレンダーに追加する（URLを発行）」 (or forge it with ``value``); the status."""
    clicked = sr.action(ids.FEED_ISSUE, value)
    status, _, _ = bot.post(sr.block_actions(actions=[clicked], view=home, user_id=user))
    bot.settle()
    return status


def feed_urls(home: dict[str, Any]) -> list[str]:
    """The calendar feed URLs an App Home shows, in order (the person's first)."""
    said = json.dumps(home["blocks"], ensure_ascii=False)
    return re.findall(r"https?://[^\s\"]+/calendar/[^\s\"]+\.ics", said)


def open_feed(bot: Harness, url: str) -> bytes:
    token = url.split("/calendar/", 1)[1]
    feeds = CalendarFeeds(bot.engine, lambda: bot.clock[0])
    with Server(build_wsgi(None, lambda: (True, {}), feeds)) as web:
        target = f"{web.url}/calendar/{token}"
        with urllib.request.urlopen(target, timeout=30) as answer:  # noqa: S310 - ours
            return bytes(answer.read())


def test_viewing_app_home_writes_nothing_and_offers_the_button(bot: Harness) -> None:
    before = bot.fingerprint()
    before.pop("staff_names")  # a cache: people's names, as Slack gave them with their language
    for user in (sr.USER_ID, MANAGER):
        home = open_home(bot, user)
        assert feed_urls(home) == []
        (button,) = buttons(home["blocks"], ids.FEED_ISSUE)
        assert button["text"]["text"] in (
            "カレンダーに追加する（URLを発行）",
            "Get my calendar link",
        )
    after = bot.fingerprint()
    after.pop("staff_names")
    assert after == before  # no feed issued, nothing of the ledger


def test_a_click_issues_the_feed_and_app_home_then_shows_a_working_url(bot: Harness) -> None:
    held = bot.engine.request(
        bot.venue.id, request("hoo", customer="山田様", salesperson=sr.USER_ID), now=bot.clock[0]
    )
    assert held.ok, held
    home = open_home(bot, sr.USER_ID)
    (button,) = buttons(home["blocks"], ids.FEED_ISSUE)
    before = bot.fingerprint()
    published = len(bot.slack.calls_to("views.publish"))
    assert click_for_feed(bot, home, sr.USER_ID, button["value"]) == 200
    assert bot.fingerprint() != before  # the token was issued by the click
    bot.slack.wait_for("views.publish", published + 1)
    home = bot.slack.home(sr.USER_ID)
    assert home is not None
    (feed,) = [b for b in home["blocks"] if b.get("block_id") == ids.FEED_BLOCK]
    (url,) = feed_urls(home)
    assert url in feed["text"]["text"]
    assert buttons(home["blocks"], ids.FEED_ISSUE) == []
    body = open_feed(bot, url)
    assert b"SUMMARY:" in body and "山田様".encode() in body
    issued = bot.fingerprint()
    assert feed_urls(open_home(bot, sr.USER_ID)) == [url]  # shown again, the same, unwritten
    assert bot.fingerprint() == issued


def test_a_managers_click_issues_their_own_and_the_venues_feed(bot: Harness) -> None:
    held = bot.engine.request(bot.venue.id, request("hoo", customer="佐藤様"), now=bot.clock[0])
    assert held.ok, held
    home = open_home(bot, MANAGER)
    (button,) = buttons(home["blocks"], ids.FEED_ISSUE)
    published = len(bot.slack.calls_to("views.publish"))
    assert click_for_feed(bot, home, MANAGER, button["value"]) == 200
    bot.slack.wait_for("views.publish", published + 1)
    home = bot.slack.home(MANAGER)
    assert home is not None
    mine, whole = feed_urls(home)
    assert mine != whole and "佐藤様".encode() in open_feed(bot, whole)
    assert buttons(home["blocks"], ids.LEDGER_EXPORT) != []


def test_a_salespersons_forged_click_for_the_venue_feed_issues_nothing(bot: Harness) -> None:
    home = open_home(bot, sr.USER_ID)
    before = bot.fingerprint()
    published = len(bot.slack.calls_to("views.publish"))
    for value in (ids.FEED_VENUE, "venue:all", ""):
        assert click_for_feed(bot, home, sr.USER_ID, value) == 200
    assert bot.fingerprint() == before
    assert len(bot.slack.calls_to("views.publish")) == published
    said = json.dumps([c.body for c in bot.slack.calls[-6:]], ensure_ascii=False)
    assert "マネージャーだけ" in said or "Only managers" in said
