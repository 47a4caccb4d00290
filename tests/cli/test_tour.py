"""What `osae serve` says once without Slack: why cards and DMs may read in two languages."""

from __future__ import annotations

import pytest

from cli import tour
from cli.settings import Settings

HINT = "Cards print in the sales channel's language"


@pytest.mark.parametrize(
    ("env", "said"),
    [
        # the newcomer's case: an English terminal, the channel in its default, Japanese
        ({"LANG": "C.UTF-8"}, "(ja, set by OSAE_LANG) and DMs in each reader's (the terminal's en"),
        ({"LANG": "en_US.UTF-8"}, "(ja, set by OSAE_LANG)"),
        # one reader given another language than the channel's
        ({"OSAE_LANG": "en", "OSAE_CONSOLE_LANGS": "U0SALES001=ja"}, "(en, set by OSAE_LANG)"),
    ],
)
def test_cards_and_dms_in_two_languages_say_why_once(env: dict[str, str], said: str) -> None:
    printed = tour.without_slack(Settings.from_env(env), [tour.DEMO_VENUE], "manifest.yml")
    assert printed.count(HINT) == 1
    assert said in printed


def test_a_japanese_terminal_is_told_in_japanese() -> None:
    """The whole of what `run` says once without Slack, in the terminal's language."""
    env = {"OSAE_LANG": "ja", "OSAE_CONSOLE_LANGS": "U0SALES001=en"}
    printed = tour.without_slack(Settings.from_env(env), [tour.DEMO_VENUE], "manifest.yml")
    assert printed.count("DM はそれぞれの読み手の言語（この端末の ja") == 1
    assert "Slack なしで動いています" in printed and "別の端末で試せます" in printed
    assert "running without Slack" not in printed and "Try it" not in printed
    prose = [line for line in printed.splitlines() if line and not line.startswith(" ")]
    assert all(not line.isascii() for line in prose), prose


@pytest.mark.parametrize(
    "env", [{"LANG": "ja_JP.UTF-8"}, {"OSAE_LANG": "en"}, {"OSAE_LANG": "ja", "LANG": "C"}, {}]
)
def test_one_language_for_all_needs_no_word(env: dict[str, str]) -> None:
    printed = tour.without_slack(Settings.from_env(env), [tour.DEMO_VENUE], "manifest.yml")
    assert HINT not in printed and "カードは営業チャンネルの言語" not in printed
    assert "running without Slack" in printed or "Slack なしで動いています" in printed
