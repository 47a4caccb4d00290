"""予約金 on a hold: its state in words (入金待ち（期日 12/20）, 入金済) wherever the hold is
shown, and the 「入金確認」 button while it is due (docs/rules.md, Deposits)."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import ButtonElement

from bot import ids
from bot.blocks import plain
from bot.texts import dates, text
from bot.texts.dates import PLAIN, DateStyle
from core.model import Hold, Status


def deposit_state(
    hold: Hold,
    tz: ZoneInfo,
    locale: str | None,
    *,
    now: datetime | None = None,
    style: DateStyle = PLAIN,
) -> str:
    """``入金待ち（期日 12/20）``, ``入金済（¥100,000）``, or "" (no deposit); with ``now``, a
    due date gone by says so (``期日超過``)."""
    deposit = hold.deposit
    if deposit.paid:
        if deposit.amount:
            return text(locale, "deposit.paid.amount", amount=deposit.amount)
        return text(locale, "deposit.paid")
    if deposit.due is None:
        return ""
    today = now.astimezone(tz).date() if now else None
    key = "deposit.overdue" if today and deposit.past_due(today) else "deposit.waiting"
    return text(locale, key, due=dates.bare_day(deposit.due, locale, style=style))


# The 予約台帳's 予約金 column: Japanese (as its 状態), the due date with its year (a file
# outlives the year it was written in).
_LAYOUT_STYLE = DateStyle(today=date.min)


def row_deposit(hold: Hold) -> str:
    """``入金待ち（期日 2027/3/15）``, ``入金済（¥100,000）`` or "": a ledger row's 予約金."""
    return deposit_state(hold, ZoneInfo("UTC"), "ja", style=_LAYOUT_STYLE)


def paid_text(hold: Hold, tz: ZoneInfo, locale: str | None, *, style: DateStyle = PLAIN) -> str:
    """When and by whom its deposit was recorded paid (``12/15(火) 10:00 <@U…> さん``)."""
    deposit = hold.deposit
    if deposit.paid_at is None:
        return ""
    when = dates.when(deposit.paid_at, tz, locale, style=style)
    return text(locale, "deposit.recorded", when=when, actor=deposit.paid_by)


def deposit_button(hold: Hold, locale: str | None) -> ButtonElement | None:
    """「入金確認」 on a confirmed booking whose deposit is due and unpaid (who may press it is
    the engine's to decide when pressed)."""
    if hold.status is not Status.CONFIRMED or not hold.deposit.waiting:
        return None
    return ButtonElement(
        text=plain(text(locale, "button.deposit")),
        action_id=ids.DEPOSIT,
        value=str(hold.id),
        style="primary",
    )
