"""What the release dialog's submission says, read strictly: a reason of the venue's list
(required) and an optional note (``bot.views.release`` draws the dialog)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot import ids, strict
from bot.reasons import release_reasons
from bot.texts import text
from core.model import Venue
from core.rules.reasons import MAX_NOTE


@dataclass(frozen=True)
class Why:
    """A release's reason code and note; or ``errors`` by block id, nothing to release."""

    reason: str = ""
    note: str = ""
    errors: Mapping[str, str] | None = None


def read_why(values: Mapping[str, Any], venue: Venue, locale: str) -> Why:
    reason = _state(values, ids.RELEASE_REASON)
    chosen = reason.get("selected_option") if reason else None
    code = chosen.get("value") if isinstance(chosen, Mapping) else None
    errors: dict[str, str] = {}
    if code not in dict(release_reasons(venue, locale)):
        errors[ids.RELEASE_REASON] = text(locale, "release.reason.required")
    typed = _state(values, ids.RELEASE_NOTE)
    raw = typed.get("value") if typed else None
    note = strict.typed_text(raw, lines=True) if raw is not None else ""
    if note is None:
        errors[ids.RELEASE_NOTE] = text(locale, "release.note.bad")
    elif len(note.strip()) > MAX_NOTE:
        errors[ids.RELEASE_NOTE] = text(locale, "release.note.too_long", limit=MAX_NOTE)
    if errors:
        return Why(errors=errors)
    return Why(str(code), (note or "").strip())


def _state(values: Mapping[str, Any], block: str) -> Mapping[str, Any] | None:
    states = values.get(block)
    state = states.get(block) if isinstance(states, Mapping) else None
    return state if isinstance(state, Mapping) else None
