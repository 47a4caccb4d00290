"""The manager's pure views at their limits: the Monday digest of a whole venue (any size,
both languages, escaped) and a manager's App Home of a busy team, as Slack accepts them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from slack_sdk import WebClient

from bot.notices import render_notice
from bot.views.manager import manager_home_view
from core.ledger_views import MonthCounts, TeamHome
from core.notices import NoticeKind
from core.results import Overview, Waiting
from core.serialize import hold_to_json
from tests.bot import samples
from tests.support.factories import JST, NOW, SALES
from tests.support.slack_limits import check_view
from tests.support.slack_standin import SlackStandin


@pytest.fixture(scope="module")
def slack() -> Iterator[SlackStandin]:
    with SlackStandin() as standin:
        yield standin


def manager_digest(deadlines: int, waiting: int, customer: str = "山田様") -> Any:
    ahead = samples.hold(customer="前の様", salesperson="U0AHEAD01")
    payload = {
        "holds": [hold_to_json(samples.hold(customer=customer)) for _ in range(deadlines)],
        "waiting": [
            {
                "hold": hold_to_json(samples.waiting(customer=customer)),
                "ahead": [hold_to_json(ahead)],
            }
            for _ in range(waiting)
        ],
        "week": "2027-W09",
        "from": NOW.isoformat(),
        "until": (NOW + timedelta(days=7)).isoformat(),
    }
    return samples.notice(NoticeKind.MANAGER_DIGEST, payload)


def test_the_manager_digest_names_each_hold_its_salesperson_deadline_and_who_is_ahead() -> None:
    out = render_notice(manager_digest(2, 1), tz=JST, locale="ja")
    shown = json.dumps(out.blocks, ensure_ascii=False)
    assert out.text == "今週の会場全体: 期限 2 件 · 順番待ち 1 件"
    assert "今週の会場全体（3/1(月・大安)〜3/8(月・友引)）" in shown
    assert f"期限 *3/8(月・友引) 9:00まで* · 担当 <@{SALES}>" in shown
    assert "*2番手* · 担当" in shown and "前: #" in shown and "<@U0AHEAD01>" in shown
    english = render_notice(manager_digest(0, 1), tz=JST, locale="en-US")
    assert "No 1st hold is due this week." in json.dumps(english.blocks)


@pytest.mark.parametrize(("deadlines", "waiting"), [(0, 0), (3, 2), (200, 200)])
def test_a_manager_digest_of_any_size_is_accepted_by_slack(
    slack: SlackStandin, deadlines: int, waiting: int
) -> None:
    client = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])
    row = manager_digest(deadlines, waiting, customer="<!channel>" + "長" * 190)
    for locale in ("ja-JP", "en-US"):
        out = render_notice(row, tz=JST, locale=locale)
        assert "<!channel>" not in out.text + json.dumps(out.blocks)
        assert client.chat_postMessage(channel=SALES, text=out.text, blocks=out.blocks)["ok"]
    if deadlines > 60:
        assert "ほか 280 件はホームタブ" in json.dumps(
            render_notice(row, tz=JST, locale="ja").blocks, ensure_ascii=False
        )


def test_a_busy_managers_home_stays_within_a_home_tabs_hundred_blocks() -> None:
    many = tuple(samples.hold(customer="長" * 200) for _ in range(40))
    queues = tuple(Waiting(samples.waiting(), many[:3]) for _ in range(40))
    month = MonthCounts("2027-03", NOW, NOW + timedelta(days=31), 12, 3, 4, 2, 1)
    team = TeamHome(today=many, week=many, queues=queues, month=month)
    own = Overview(firsts=many, waiting=queues, recent=many)
    for locale in ("ja", "en"):
        view = manager_home_view(team, own, JST, locale, NOW).to_dict()
        check_view(view, "home")
        shown = json.dumps(view, ensure_ascii=False)
        assert ("ほか 30 件" in shown) if locale == "ja" else ("30 more" in shown)
        assert "`/hold list mine`" in shown  # their own holds no longer fit: where they are
