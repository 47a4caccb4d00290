"""A hold's event kind as staff read it: 婚礼 / wedding for the defaults, the venue's own name
(二次会) for its kinds; with the guests beside it (``婚礼・40名``); and its status, a released
hold's by why (取り下げ / 他の押さえが本予約 / 別の候補日に決定)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.texts import esc, lang, text
from core.model import DEFAULT_KINDS, EventKind, Hold, Status

_DEFAULT_NAMES = {k.id: k.name for k in DEFAULT_KINDS}


def kind_name(kind_id: str, name: str, locale: str | None) -> str:
    """As typed (plain): a default kind the venue did not rename reads in the user's
    language; any other kind by the venue's name for it (its id if it has none)."""
    if kind_id in _DEFAULT_NAMES and name in ("", _DEFAULT_NAMES[kind_id]):
        return text(locale, f"kind.{kind_id}")
    return name or kind_id


def hold_kind(hold: Hold, locale: str | None, quote: Callable[[str], str] = esc) -> str:
    """The hold's kind, escaped for mrkdwn (``quote``: as plain_text wants it)."""
    return quote(kind_name(hold.kind_id, hold.kind_name, locale))


def kind_and_guests(hold: Hold, locale: str | None, quote: Callable[[str], str] = esc) -> str:
    """``婚礼・40名`` / ``wedding, 40 guests``, escaped; the kind alone without guests."""
    kind = hold_kind(hold, locale, quote)
    if hold.guests is None:
        return kind
    return text(locale, "kind.with_guests", kind=kind, guests=guests(hold.guests, locale))


def guests(count: int, locale: str | None) -> str:
    return text(locale, "guests", count=count)


def kind_choices(kinds: Sequence[EventKind], locale: str | None) -> str:
    """``婚礼 (wedding)、一般宴会 (banquet)、二次会 (nijikai)``, escaped."""
    joiner = "、" if lang(locale) == "ja" else ", "
    return joiner.join(f"{esc(kind_name(k.id, k.name, locale))} ({esc(k.id)})" for k in kinds)


def status_text(hold: Hold, locale: str | None, prefix: str = "status") -> str:
    """``取り下げ`` (withdrawn) and ``解除（他の押さえが本予約）`` (lost) are told apart;
    ``prefix`` ``card`` gives the card's bold form."""
    if hold.status is Status.RELEASED and hold.outcome is not None:
        return text(locale, f"{prefix}.released.{hold.outcome.value}")
    return text(locale, f"{prefix}.{hold.status.value}")
