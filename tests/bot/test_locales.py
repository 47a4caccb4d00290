"""Users' languages from users.info(include_locale), cached; Japanese when Slack fails."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from slack_sdk import WebClient

from bot.locales import FAILURE_TTL, UserLocales
from tests.support.factories import HandClock
from tests.support.slack_standin import SlackStandin


@pytest.fixture
def slack() -> Iterator[SlackStandin]:
    with SlackStandin() as standin:
        standin.set_user("U0EN000001", locale="en-US")
        standin.set_user("U0JA000001", locale="ja-JP")
        yield standin


def locales(slack: SlackStandin, clock: HandClock, ttl: float = 3600) -> UserLocales:
    client = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])
    return UserLocales(client, ttl_seconds=ttl, clock=clock)


def test_the_locale_comes_from_users_info_and_is_cached(slack: SlackStandin) -> None:
    clock = HandClock()
    known = locales(slack, clock, ttl=60)
    assert [known.get("U0EN000001") for _ in range(3)] == ["en-US"] * 3
    assert known.get("U0JA000001") == "ja-JP"
    calls = slack.calls_to("users.info")
    assert len(calls) == 2
    assert calls[0].body["include_locale"] in (True, "true", "1")

    clock.now += 61  # the cache expires: asked again
    assert known.get("U0EN000001") == "en-US"
    assert len(slack.calls_to("users.info")) == 3


@pytest.mark.parametrize("fault", ["unknown_user", "ratelimited", "server_error", "down"])
def test_any_slack_failure_answers_japanese_and_is_retried_soon(
    slack: SlackStandin, fault: str
) -> None:
    clock = HandClock()
    known = locales(slack, clock)
    user = "U0EN000001"
    if fault == "unknown_user":
        user = "U0NOBODY01"
    elif fault == "ratelimited":
        slack.rate_limit_next("users.info", retry_after=30)
    elif fault == "server_error":
        slack.fail_with_status("users.info", 503)
    else:
        known.client.base_url = "http://127.0.0.1:9/api/"  # nothing listens there
    assert known.get(user) == "ja"
    assert known.get(user) == "ja"  # remembered for a while, not asked again at once
    asked = len(slack.calls_to("users.info"))

    clock.now += FAILURE_TTL + 1
    known.client.base_url = slack.base_url
    expected = "ja" if fault == "unknown_user" else "en-US"
    assert known.get(user) == expected
    assert len(slack.calls_to("users.info")) == asked + 1
