"""A row's 状態 in the 予約台帳 layout, and what an import makes of one (either language)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.texts import CATALOGS, text
from core.exports.reading import Placement
from core.model import Hold, Status

# The layout is the venue's 予約台帳: its 状態 words are Japanese, whoever exports it.
LAYOUT_LOCALE = "ja"
_RANKED = re.compile(r"([1-9][0-9]?)(?:番手|st|nd|rd|th)", re.IGNORECASE)


def row_state(hold: Hold, reasons: Mapping[int, str] | None = None) -> str:
    """1番手 / 2番手 / 本予約 / 取消（理由） ...: a hold's 状態 in the layout."""
    ja = LAYOUT_LOCALE
    if hold.house and hold.status is Status.TENTATIVE:
        return text(ja, "house.tag")  # 社内押さえ: the venue's own use, counted apart
    if hold.status is Status.TENTATIVE:
        return text(ja, "rank", rank=hold.rank or 1)
    if hold.status is Status.RELEASED and hold.outcome is not None:
        word = text(ja, f"status.released.{hold.outcome.value}")
    else:
        word = text(ja, f"status.{hold.status.value}")
    if hold.house:
        word = text(ja, "house.left", state=word)
    reason = (reasons or {}).get(hold.id)
    return text(ja, "takeout.state.reason", state=word, reason=reason) if reason else word


def placement(word: str) -> Placement | None:
    """What a row's 状態 asks an import to do, in either language: 本予約 rows are placed as
    confirmed, 仮 and ranked rows as requests (their rank as the file says it), and rows of
    holds that left are skipped. None: a word osae does not know."""
    said = word.strip()
    ranked = _RANKED.fullmatch(said)
    if ranked:
        return Placement.request(int(ranked.group(1)))
    for catalog in CATALOGS.values():
        if said.casefold() == catalog["house.tag"].casefold():  # 社内押さえ, as exported
            return Placement.house()
        if said.casefold() in (catalog["status.confirmed"].casefold(), "本", "confirmed"):
            return Placement.confirmed()
        if said.casefold() in (catalog["status.tentative"].casefold(), "仮", "tentative"):
            return Placement.request(1)
        left = [catalog[k] for k in catalog if k.startswith("status.") and k != "status.tentative"]
        if any(said.startswith(w) for w in left):
            return Placement.left()
    return None
