"""The reasons a release may give, as Slack offers them: the venue's (``[[reasons]]`` in its
venue file, else the defaults), through ``core.rules.reasons.reasons_for``."""

from __future__ import annotations

from bot.texts import CATALOGS, lang, text
from core.model import Venue
from core.rules.reasons import DEFAULT_REASONS, Reason, reasons_for


def release_reasons(venue: Venue | None, locale: str | None) -> tuple[tuple[str, str], ...]:
    """``(code, name)`` in the order the release dialog offers them."""
    listed = reasons_for(venue) if venue is not None else DEFAULT_REASONS
    return tuple((r.code, _named(r, locale)) for r in listed)


def _named(reason: Reason, locale: str | None) -> str:
    """A default the venue did not rename reads in the reader's language; any other
    reason by the venue's name for it."""
    if any(d.code == reason.code and d.name == reason.name for d in DEFAULT_REASONS):
        return text(locale, f"reason.{reason.code}")
    return reason.name


def reason_name(venue: Venue | None, code: str, locale: str | None) -> str:
    """A code's name in ``locale`` (``unspecified`` too; the code itself when no list
    knows it)."""
    known = dict(release_reasons(venue, locale))
    if code in known:
        return known[code]
    key = f"reason.{code}"
    return text(locale, key) if key in CATALOGS[lang(locale)] else code
