"""App Home's 「次のアクション」 (issue 28 item 6), over signed HTTP: the person's bookings whose
next action is this week or overdue, soonest first; nobody else's, and none later."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import date, timedelta

from bot import ids
from core.model import Details
from core.results import RequestAnswer
from tests.bot.conftest import Harness
from tests.bot.test_window_ping_slack import open_home
from tests.support import factories
from tests.support import slack_requests as sr
from tests.support.factories import NOW


def held(bot: Harness, who: str, on: date, shift: int, note: str) -> None:
    details = Details(next_action=on, next_action_note=note)
    day = factories.DAY + timedelta(days=shift)
    req = replace(factories.request(day=day, salesperson=who), details=details)
    assert isinstance(bot.engine.request(bot.venue.id, req, now=NOW), RequestAnswer)


def test_app_home_lists_the_persons_follow_ups_of_this_week_and_overdue(bot: Harness) -> None:
    held(bot, sr.USER_ID, date(2027, 3, 4), 0, "2回目の打合せ")
    held(bot, sr.USER_ID, date(2027, 2, 25), 1, "見積を再送")
    held(bot, sr.USER_ID, date(2027, 3, 20), 2, "来月の試食会")  # later: not yet
    held(bot, "U0SALES001", date(2027, 3, 2), 3, "他の人の予定")

    home = open_home(bot)

    block = next(b for b in home["blocks"] if b.get("block_id") == ids.FOLLOW_UPS_HOME)
    assert "次のアクション" in block["text"]["text"]
    at = home["blocks"].index(block)
    named = re.findall(r"B-[0-9]{4}", home["blocks"][at + 1]["text"]["text"])
    assert len(named) == len(set(named)) == 2  # each booking named once, after its hold
    shown = json.dumps(home["blocks"], ensure_ascii=False)
    assert "2回目の打合せ" in shown and "見積を再送" in shown and "期日超過" in shown
    assert shown.index("見積を再送") < shown.index("2回目の打合せ")
    assert "来月の試食会" not in shown and "他の人の予定" not in shown


def test_no_follow_ups_no_block(bot: Harness) -> None:
    home = open_home(bot)
    assert all(b.get("block_id") != ids.FOLLOW_UPS_HOME for b in home["blocks"])
