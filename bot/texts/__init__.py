"""Everything osae says to people, in Japanese and English; dates in the venue's time zone.

``text(locale, key, **facts)`` looks a sentence up in the ``ja`` or ``en`` catalog.
Slack locales such as ``ja-JP`` pick Japanese; anything else gets English.
"""

from __future__ import annotations

from typing import Any

from bot.texts import checks, diary, en, ja, ledger, setup, takeout
from bot.texts import terminal_holds as _terminal_holds
from bot.texts import terminal_holds_help as _terminal_holds_help

CATALOGS: dict[str, dict[str, str]] = {
    "ja": {**ja.TEXTS, **ledger.JA, **takeout.JA, **setup.JA, **diary.JA, **checks.JA},
    "en": {**en.TEXTS, **ledger.EN, **takeout.EN, **setup.EN, **diary.EN, **checks.EN},
}
# issue 30: what the hold, search and venue commands print, and their --help
CATALOGS["ja"].update(_terminal_holds.JA, **_terminal_holds_help.JA)
CATALOGS["en"].update(_terminal_holds.EN, **_terminal_holds_help.EN)
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
