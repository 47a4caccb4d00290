"""Finding a slot and changing a hold on the demo venue (examples/venue.toml), as a salesperson
reads it in Slack: ``/hold free 10月 土日 大安 80名``, then an edit that keeps its place and one
that becomes a new arrival. ``pytest -s`` prints the transcript."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest

from bot import ids
from core.engine import HoldEngine
from core.model import Venue
from core.results import RequestAnswer
from core.rules.rokuyo import rokuyo
from core.venue_file import read_venue_file
from tests.bot.conftest import Harness, values
from tests.bot.test_buttons import hold_now, take
from tests.bot.test_edit import open_edit
from tests.bot.test_free import free, texts
from tests.support import factories
from tests.support.factories import NOW
from tests.support.transcript import Transcript

DEMO = Path(__file__).resolve().parents[2] / "examples" / "venue.toml"


@pytest.fixture
def venue(engine: HoldEngine) -> Venue:
    return engine.save_venue(read_venue_file(DEMO), now=NOW)


def weekend_taian(year: int, month: int) -> list[date]:
    first = date(year, month, 1)
    days = (first + timedelta(days=n) for n in range(31))
    return [
        d for d in days if d.month == month and d.weekday() >= 5 and rokuyo(d).japanese == "大安"
    ]


def test_a_search_on_the_demo_venue_and_two_edits(bot: Harness) -> None:
    t = Transcript()
    taian = weekend_taian(2027, 10)
    assert taian, "October 2027 has weekend 大安 days"
    taken = bot.engine.request(
        bot.venue.id,
        factories.request(room="hoo-east", day=taian[0], customer="佐藤様"),
        now=NOW,
    )
    assert isinstance(taken, RequestAnswer)
    t.does(f"(佐藤様 holds 鳳凰 東 on {taian[0]} 11:00–15:00 as 1st: #{taken.hold.id})")
    t.does("/hold free 10月 土日 大安 80名")
    reply = free(bot, "10月 土日 大安 80名")
    t.message("ephemeral", reply)
    lines = texts(reply["blocks"])
    assert lines[0].startswith("*空き検索: 10月 土日 大安 80名*")
    shown_dates = [
        line for line in lines if line.startswith("*2027/10/") or line.startswith("*10/")
    ]
    # 42 places: 7 rooms of 80 seats or more x 3 slots x the two 大安 weekend days; a page
    # of 20 shows the first day
    assert f"\n1番手・2番手になれる枠 {7 * 3 * len(taian)}件" in lines[0]
    assert shown_dates == [f"*10/{taian[0].day}(土・大安)*"]
    assert any("鳳凰 東" in line and "2番手" in line for line in lines)

    hold, channel, ts = take(bot, "山田様")
    take(bot, "鈴木様", user=factories.MANAGER)  # 2nd behind it
    t.does(f"(山田様 holds 鳳凰の間 3/10 11:00–15:00 as 1st: #{hold.id}; 鈴木様 waits 2nd)")
    t.does(f"clicks 変更 on #{hold.id}'s card, starts at 12:00 instead")
    view_id = open_edit(bot, hold, channel, ts)
    later_start = values(customer="山田様", start="12:00")
    bot.choose(view_id, later_start, ids.START)
    bot.settle()
    t.says("preview", bot.preview_text(view_id))
    assert bot.preview_text(view_id).startswith("順位はそのまま（1番手 · 期限")
    t.does("then ends at 16:00 instead")
    later_end = values(customer="山田様", end="16:00")
    bot.choose(view_id, later_end, ids.END)
    bot.settle()
    t.says("preview", bot.preview_text(view_id))
    # longer over a slot where only its own 2nd waits: it meets no one new (issue 25)
    assert bot.preview_text(view_id).startswith("順位はそのまま（1番手 · 期限")
    t.does("goes back to 12:00–15:00 and presses 変更する")
    posts = len(bot.slack.calls_to("chat.postMessage"))
    status, answer = bot.submit(view_id, later_start)
    assert (status, answer) == (200, {})
    posted = bot.slack.wait_for("chat.postMessage", posts + 1)[-1]
    t.message("#sales", posted.body)
    card = json.dumps(posted.body["blocks"], ensure_ascii=False)
    assert f"#{hold.id} 鳳凰の間 3/10(水・仏滅) 12:00〜15:00" in card  # the card too, with its 六曜
    assert "期限 *3/8(月・友引) 9:00まで*" in card
    now = hold_now(bot, hold.id)
    assert (now.rank, now.expires_at) == (1, hold.expires_at)
    print(t)
