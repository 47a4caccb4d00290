"""Candidate dates shown together: holds of one enquiry side by side, each naming the others."""

from __future__ import annotations

from collections.abc import Sequence
from zoneinfo import ZoneInfo

from bot.texts import dates, text
from bot.texts.dates import PLAIN, DateStyle
from bot.texts.refusals import ordinal
from core.booking import booking_number
from core.model import Hold, Status


def grouped(holds: Sequence[Hold]) -> list[Hold]:
    """``holds`` in their order, except that the candidate dates of one enquiry follow the
    first of them."""
    order: dict[int, list[Hold]] = {}
    for hold in holds:
        order.setdefault(hold.enquiry_id or -hold.id, []).append(hold)
    return [hold for group in order.values() for hold in group]


def candidates_note(
    hold: Hold,
    live: Sequence[Hold],
    tz: ZoneInfo,
    locale: str | None,
    *,
    style: DateStyle = PLAIN,
) -> str:
    """``:calendar: 案件 #5 の候補日 · ほかに #14 3/17(水・大安) 2番手`` when ``live`` has other
    holds of ``hold``'s enquiry; else ``""``."""
    others = [h for h in live if h.enquiry_id == hold.enquiry_id and h.id != hold.id]
    if not hold.enquiry_id or not others:
        return ""
    listed = " / ".join(
        f"#{h.id} {dates.day(h.local_date, locale, style=style)} {_place(h, locale)}"
        for h in others
    )
    return text(locale, "card.candidates", enquiry=booking_number(hold.enquiry_id), others=listed)


def _place(hold: Hold, locale: str | None) -> str:
    if hold.status is Status.TENTATIVE:
        return ordinal(hold.rank or 0, locale)
    return text(locale, f"status.{hold.status.value}")
