"""A manager's App Home says this month's losses and releases by reason, as ``osae stats
--json`` counts them (``losses``, ``by_reason``), the reasons named as the release dialog
names them. Over signed HTTP, through the stand-in."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta

from core.results import RequestAnswer
from tests.bot.conftest import Harness
from tests.bot.test_home import open_home
from tests.support import slack_requests as sr
from tests.support.factories import DAY, MANAGER, request


def test_the_managers_home_names_the_months_losses_and_reasons(bot: Harness) -> None:
    now = bot.clock[0]
    released = {"budget": 2, "entry_error": 1, "other_venue": 1}
    day = DAY
    for code, times in released.items():
        for _ in range(times):
            day += timedelta(days=1)  # each on a day of its own: all 1st, none in the way
            held = bot.engine.request(bot.venue.id, request(day=day), now=now)
            assert isinstance(held, RequestAnswer)
            assert bot.engine.release(
                bot.venue.id, held.hold.id, actor=MANAGER, now=now, reason=code
            ).ok
    chosen = bot.engine.request(bot.venue.id, request(customer="山田様"), now=now)
    assert isinstance(chosen, RequestAnswer)
    later = request(day=DAY + timedelta(days=30), customer="山田様")
    other = replace(later, enquiry_id=chosen.hold.enquiry_id)
    assert bot.engine.request(bot.venue.id, other, now=now).ok
    assert bot.engine.confirm(bot.venue.id, chosen.hold.id, actor=MANAGER, now=now).ok

    counts = bot.engine.reads.month_counts(bot.venue.id, now.year, now.month)
    assert counts.losses == 3 and counts.other_date_chosen == 1  # what stats --json says
    shown = json.dumps(open_home(bot, MANAGER)["blocks"], ensure_ascii=False)
    assert "失注 *3*" in shown and "別の候補日に決定 *1*" in shown
    assert "取り下げの理由: 他会場に決定 *1* · 予算 *2* · 入力の誤り *1*" in shown  # list order
    plain = json.dumps(open_home(bot, sr.USER_ID)["blocks"], ensure_ascii=False)
    assert "取り下げの理由" not in plain  # a salesperson's home has no month block


def test_a_month_without_releases_says_so(bot: Harness) -> None:
    shown = json.dumps(open_home(bot, MANAGER)["blocks"], ensure_ascii=False)
    assert "失注 *0*" in shown and "取り下げの理由: 今月はまだありません" in shown
