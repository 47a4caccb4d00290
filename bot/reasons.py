"""The reasons a release may give, as Slack offers them: one function, so the list can
become the venue's (``[[reasons]]`` in its venue file) by changing one line."""

from __future__ import annotations

from bot.texts import CATALOGS, lang, text
from core.model import Venue
from core.rules.reasons import REASONS


def release_reasons(venue: Venue, locale: str | None) -> tuple[tuple[str, str], ...]:
    """``(code, name)`` in the order the release dialog offers them."""
    del venue  # the defaults today; the venue's own list when its file may set one
    return tuple((code, text(locale, f"reason.{code}")) for code in REASONS)


def reason_name(venue: Venue, code: str, locale: str | None) -> str:
    """A code's name in ``locale`` (``unspecified`` too; the code itself when no list
    knows it)."""
    known = dict(release_reasons(venue, locale))
    if code in known:
        return known[code]
    key = f"reason.{code}"
    return text(locale, key) if key in CATALOGS[lang(locale)] else code
