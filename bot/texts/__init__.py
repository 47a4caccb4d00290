"""Everything osae says to people, in Japanese and English; dates in the venue's time zone.

``text(locale, key, **facts)`` looks a sentence up in the ``ja`` or ``en`` catalog.
Slack locales such as ``ja-JP`` pick Japanese; anything else gets English.
"""

from __future__ import annotations

from typing import Any

from bot.texts import en, ja

CATALOGS: dict[str, dict[str, str]] = {"ja": ja.TEXTS, "en": en.TEXTS}


def lang(locale: str | None) -> str:
    """``ja`` for Japanese Slack/POSIX locales (ja, ja-JP, ja_JP.UTF-8), else ``en``."""
    return "ja" if (locale or "").lower().startswith("ja") else "en"


def text(locale: str | None, key: str, **facts: Any) -> str:
    return CATALOGS[lang(locale)][key].format(**facts)
