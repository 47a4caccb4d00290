"""予約金's DMs (the reminder before the due date, the past-due notice), the line 入金確認
adds to a card's thread, and the managers' digest's past-due list (docs/rules.md, Deposits)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import ActionsBlock, Block

from bot import cards, ids
from bot.blocks import chunk_lines, dump, section
from bot.deposits import deposit_button
from bot.rendered import Rendered
from bot.texts import dates, esc, text
from bot.texts.dates import DateStyle
from core.model import Hold
from core.notices import NoticeKind
from core.serialize import hold_from_json

Payload = dict[str, Any]


def _told(
    kind: str, payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    """To the booking's salesperson: the booking, its due date, and 「入金確認」 while due."""
    hold = hold_from_json(payload["hold"])
    due = hold.deposit.due
    facts = {
        "hold": cards.line(hold, tz, locale, style=style),
        "due": dates.day(due, locale, style=style) if due else "—",
    }
    title = text(locale, f"notice.{kind}.title")
    body = "\n".join([title, text(locale, f"notice.{kind}.body", **facts)])
    more = cards.details(hold, locale, contact=True)
    blocks: list[Block] = [section(body + ("\n" + more if more else ""))]
    button = deposit_button(hold, locale)
    if button is not None:
        blocks.append(ActionsBlock(block_id=ids.card_actions(hold.id), elements=[button]))
    return Rendered(text(locale, f"notice.{kind}.text", **facts), dump(blocks))


def _reminder(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    return _told("deposit_reminder", payload, tz, locale, style, now)


def _overdue(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    return _told("deposit_overdue", payload, tz, locale, style, now)


DEPOSIT_RENDERERS: dict[
    NoticeKind, Callable[[Payload, ZoneInfo, str | None, DateStyle, datetime], Rendered]
] = {
    NoticeKind.DEPOSIT_REMINDER: _reminder,
    NoticeKind.DEPOSIT_OVERDUE: _overdue,
}


def paid_line(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle
) -> dict[str, str]:
    """The card's thread line of 入金確認: how much, when said."""
    amount = hold_from_json(payload["hold"]).deposit.amount
    said = text(locale, "thread.deposit_paid.amount", amount=amount) if amount else ""
    return {"amount": said}


def overdue_blocks(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, most: int
) -> list[Block]:
    """The managers' Monday digest: each booking whose deposit is past due, unpaid (at most
    ``most`` lines; the count says how many)."""
    holds = [hold_from_json(h) for h in payload.get("overdue", [])]
    if not holds:
        return []
    lines = overdue_lines(holds[:most], tz, locale, style)
    title = text(locale, "manager_digest.deposits", count=len(holds))
    return [section(title), *[section(c) for c in chunk_lines(lines)]]


def overdue_lines(
    holds: list[Hold], tz: ZoneInfo, locale: str | None, style: DateStyle
) -> list[str]:
    """Each booking past due: the booking, its due date, its salesperson."""
    return [
        text(
            locale,
            "manager_digest.deposit_line",
            hold=cards.line(h, tz, locale, style=style),
            due=dates.day(h.deposit.due, locale, style=style) if h.deposit.due else "—",
            salesperson=esc(h.salesperson),
        )
        for h in holds
    ]
