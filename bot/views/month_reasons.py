"""A manager's month in App Home, beyond its five counts: the losses (as ``osae stats --json``
counts them, ``losses``), what is not a loss (other date chosen, replaced by an edit), and
the releases by reason (``by_reason``), named as the release dialog names them."""

from __future__ import annotations

from bot.reasons import reason_name, release_reasons
from bot.texts import esc, text
from core.ledger_views import MonthCounts
from core.model import Venue


def month_lines(month: MonthCounts, venue: Venue | None, locale: str) -> list[str]:
    losses = text(
        locale,
        "month.losses",
        losses=month.losses,
        other_date_chosen=month.other_date_chosen,
        replaced=month.replaced,
    )
    return [losses, reasons_line(month, venue, locale)]


def reasons_line(month: MonthCounts, venue: Venue | None, locale: str) -> str:
    """The releases by reason, in the list's order (codes no longer listed, and releases
    that gave none, after)."""
    listed = [code for code, _ in release_reasons(venue, locale)]
    order = {code: i for i, code in enumerate(listed)}
    counted = sorted(
        ((code, n) for code, n in month.by_reason.items() if n > 0),
        key=lambda pair: (order.get(pair[0], len(order)), pair[0]),
    )
    if not counted:
        return text(locale, "month.reasons.none")
    said = " · ".join(
        text(locale, "month.reason", name=esc(reason_name(venue, code, locale)), count=n)
        for code, n in counted
    )
    return text(locale, "month.reasons", reasons=said)
