"""manifest.yml agrees with the code: the command, the events, the URLs, the scopes."""

from __future__ import annotations

import re
from pathlib import Path

from bot import ids
from bot.gate import EVENTS_PATH
from cli import installs

MANIFEST = Path(__file__).resolve().parents[2] / "manifest.yml"


def items_under(key: str) -> list[str]:
    """The ``- item`` lines of the list right under ``key:`` (the manifest's simple YAML)."""
    lines = MANIFEST.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"{key}:")
    indent = len(lines[start]) - len(lines[start].lstrip())
    found = []
    for line in lines[start + 1 :]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        if line.strip().startswith("- "):
            found.append(line.strip()[2:].split("#")[0].strip())
    return found


def test_the_bot_asks_for_exactly_the_scopes_it_uses() -> None:
    assert sorted(items_under("bot")) == [
        "chat:write",
        "commands",
        "files:read",
        "files:write",
        "users:read",
    ]


def test_an_install_asks_for_the_scopes_the_manifest_lists() -> None:
    assert sorted(installs.SCOPES) == sorted(items_under("bot"))
    assert items_under("redirect_urls") == ["https://osae.example.com/slack/oauth_redirect"]


def test_the_command_events_and_interactivity_match_the_app() -> None:
    text = MANIFEST.read_text()
    assert f"- command: {ids.COMMAND}\n" in text
    assert items_under("bot_events") == ["app_home_opened", "app_uninstalled", "tokens_revoked"]
    urls = re.findall(r"(?:url|request_url|message_menu_options_url): (\S+)", text)
    assert len(urls) == 4 and all(u.endswith(EVENTS_PATH) for u in urls)
    assert "message_menu_options_url: " in text  # the type-ahead room menu of big venues
    assert re.search(r"interactivity:\n\s+is_enabled: true", text)
    assert "home_tab_enabled: true" in text
    assert "socket_mode_enabled: false" in text
