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

CATALOGS: dict[str, dict[str, str]] = {
    "ja": {
        **ja.TEXTS,
        **ledger.JA,
        **takeout.JA,
        **setup.JA,
        **diary.JA,
        **checks.JA,
        **pipeline.JA,
        **release.JA,
        **terminal.JA,  # issue 30: the terminal's words
        **terminal_help.JA,
        **terminal_out.JA,
        **terminal_holds.JA,  # issue 30: the hold, search and venue commands
        **terminal_holds_help.JA,
        **terminal_run.JA,
        **deposits.JA,
        **pings.JA,  # issue 28: the window ping and follow-ups
        **naming.JA,  # issue 25: rooms, kinds and reasons typed by name
        **capacity.JA,  # issue 25: guests over a room's capacity
        **house.JA,  # issue 28: house holds (社内押さえ)
    },
    "en": {
        **en.TEXTS,
        **ledger.EN,
        **takeout.EN,
        **setup.EN,
        **diary.EN,
        **checks.EN,
        **pipeline.EN,
        **release.EN,
        **terminal.EN,
        **terminal_help.EN,
        **terminal_out.EN,
        **terminal_holds.EN,
        **terminal_holds_help.EN,
        **terminal_run.EN,
        **deposits.EN,
        **pings.EN,
        **naming.EN,
        **capacity.EN,
        **house.EN,
    },
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
