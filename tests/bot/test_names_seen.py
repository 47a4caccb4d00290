"""People by name wherever Slack resolves them: the display name comes with the users.info
answer the bot asks anyway (for the person's language) and is cached for the terminal and
the pictures, with no call to Slack of its own. Over signed HTTP, through the stand-in."""

from __future__ import annotations

from typing import Any

from bot.locales import UserLocales
from core.model import Hold
from core.results import RequestAnswer
from tests.bot.conftest import Harness
from tests.bot.test_home import open_home
from tests.jobs.conftest import eventually
from tests.support import slack_requests as sr
from tests.support.factories import MANAGER, request


def test_app_home_opened_caches_the_name_for_the_terminal_without_asking_slack_twice(
    bot: Harness,
) -> None:
    bot.slack.set_user(sr.USER_ID, locale="ja-JP", name="田中")
    held = bot.engine.request(bot.venue.id, request(salesperson=sr.USER_ID), now=bot.clock[0])
    assert isinstance(held, RequestAnswer)
    assert bot.engine.reads.names(bot.venue.id).get(sr.USER_ID) is None

    open_home(bot)  # its listener caches the name once the home is published
    eventually(lambda: sr.USER_ID in bot.engine.reads.names(bot.venue.id), what="name cached")
    assert bot.engine.reads.names(bot.venue.id)[sr.USER_ID] == "田中"
    asked = [c for c in bot.slack.calls_to("users.info") if c.body.get("user") == sr.USER_ID]
    assert len(asked) == 1  # the locale's own lookup: the name came with it
    now = bot.engine.hold(bot.venue.id, held.hold.id)
    assert isinstance(now, Hold) and now.salesperson_name == "田中"  # hold JSON, the terminal


def test_a_manager_opening_app_home_is_named_too(bot: Harness) -> None:
    bot.slack.set_user(MANAGER, locale="ja-JP", name="佐藤部長")
    open_home(bot, MANAGER)
    eventually(lambda: MANAGER in bot.engine.reads.names(bot.venue.id), what="name cached")
    assert bot.engine.reads.names(bot.venue.id)[MANAGER] == "佐藤部長"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_name_is_handed_out_for_storing_once_a_day_or_when_it_changes(slack: Any) -> None:
    from cli.bootstrap import slack_client
    from tests.bot.conftest import slack_settings

    clock = Clock()
    locales = UserLocales(slack_client(slack_settings(slack)), ttl_seconds=10, clock=clock)
    slack.set_user("U0NAMED001", locale="ja-JP", name="鈴木")
    assert locales.new_names(["U0NAMED001"]) == {}  # nobody asked about yet: no name
    locales.get("U0NAMED001")
    assert locales.new_names(["U0NAMED001"]) == {"U0NAMED001": "鈴木"}
    assert locales.new_names(["U0NAMED001"]) == {}  # handed out already
    slack.set_user("U0NAMED001", locale="ja-JP", name="鈴木（旧姓 高橋）")
    clock.now = 11.0  # the locale is asked again: a new name
    locales.get("U0NAMED001")
    assert locales.new_names(["U0NAMED001"]) == {"U0NAMED001": "鈴木（旧姓 高橋）"}
    clock.now = 11.0 + 86400.0
    assert locales.new_names(["U0NAMED001"]) == {"U0NAMED001": "鈴木（旧姓 高橋）"}  # a day on
