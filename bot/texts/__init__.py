"""Everything osae says to people, in Japanese and English; dates in the venue's time zone.

``text(locale, key, **facts)`` looks a sentence up in the ``ja`` or ``en`` catalog.
Slack locales such as ``ja-JP`` pick Japanese; anything else gets English.
"""

from __future__ import annotations

from typing import Any

from bot.texts import (
    capacity,
    checks,
    deposits,
    diary,
    en,
    house,
    ja,
    ledger,
    naming,
    pings,
    pipeline,
    release,
    setup,
    takeout,
    terminal,
    terminal_help,
    terminal_holds,
    terminal_holds_help,
    terminal_out,
    terminal_run,
)

# Each topic's catalog, ja and en with the same keys. A key lives in one catalog only:
# ``tests/bot/test_text_catalogs.py`` fails on a key written twice, since the later one
# would silently reword the earlier one's sentence on every surface.
PARTS: tuple[tuple[dict[str, str], dict[str, str]], ...] = (
    (ja.TEXTS, en.TEXTS),
    (ledger.JA, ledger.EN),
    (takeout.JA, takeout.EN),
    (setup.JA, setup.EN),
    (diary.JA, diary.EN),
    (checks.JA, checks.EN),
    (pipeline.JA, pipeline.EN),  # issue 28: the pipeline report
    (release.JA, release.EN),
    (terminal.JA, terminal.EN),  # issue 30: the terminal's words
    (terminal_help.JA, terminal_help.EN),
    (terminal_out.JA, terminal_out.EN),
    (terminal_holds.JA, terminal_holds.EN),  # issue 30: the hold, search and venue commands
    (terminal_holds_help.JA, terminal_holds_help.EN),
    (terminal_run.JA, terminal_run.EN),
    (deposits.JA, deposits.EN),  # issue 28: deposits
    (pings.JA, pings.EN),  # issue 28: the window ping and follow-ups
    (naming.JA, naming.EN),  # issue 25: rooms, kinds and reasons typed by name
    (capacity.JA, capacity.EN),  # issue 25: guests over a room's capacity
    (house.JA, house.EN),  # issue 28: house holds (社内押さえ)
)
CATALOGS: dict[str, dict[str, str]] = {
    "ja": {key: said for part, _ in PARTS for key, said in part.items()},
    "en": {key: said for _, part in PARTS for key, said in part.items()},
}
# Whom osae does not know the language of reads Japanese: a Slack user whose locale could not
# be asked, a modal whose metadata is not ours, the sales channel's reports by default.
DEFAULT_LOCALE = "ja"


def lang(locale: str | None) -> str:
    """``ja`` for Japanese Slack/POSIX locales (ja, ja-JP, ja_JP.UTF-8), else ``en``."""
    return "ja" if (locale or "").lower().startswith("ja") else "en"


def esc(typed: str) -> str:
    """The one escape for text people typed (customer, note, room names, a word of a command)
    wherever Slack parses it (mrkdwn in blocks, a message's fallback ``text``, App Home, DMs):
    ``&``, ``<`` and ``>`` as entities, so ``<!channel>`` shows as written and notifies no one.
    plain_text (option labels, input values) is not parsed and takes the text as it is."""
    return typed.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def text(locale: str | None, key: str, **facts: Any) -> str:
    return CATALOGS[lang(locale)][key].format(**facts)
