"""予約金 in App Home: a salesperson's bookings whose deposit is due (each with 「入金確認」),
and for managers every booking past due and unpaid. Nothing when there is none."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block, DividerBlock

from bot import cards
from bot.blocks import chunk_lines, context, section
from bot.deposit_notices import overdue_lines
from bot.deposits import deposit_button, deposit_state
from bot.texts import text
from bot.texts.dates import DateStyle
from core.model import Hold

MAX_SHOWN = 5  # one block each, in the 100 a Home tab may have
MAX_LINES = 30  # of the managers' list, in a few sections


def home_deposits(
    holds: tuple[Hold, ...], tz: ZoneInfo, locale: str, style: DateStyle, now: datetime
) -> list[Block]:
    """My bookings waiting for their deposit, soonest due first, each with its button."""
    if not holds:
        return []
    blocks: list[Block] = [DividerBlock(), section(f"*{text(locale, 'home.deposits')}*")]
    for hold in holds[:MAX_SHOWN]:
        state = deposit_state(hold, tz, locale, now=now, style=style)
        block = section(f"{cards.line(hold, tz, locale, style=style)}\n{state}")
        button = deposit_button(hold, locale)
        if button is not None:
            block.accessory = button
        blocks.append(block)
    if len(holds) > MAX_SHOWN:
        blocks.append(context(text(locale, "home.more", count=len(holds) - MAX_SHOWN)))
    return blocks


def team_overdue(
    holds: tuple[Hold, ...], tz: ZoneInfo, locale: str, style: DateStyle
) -> list[Block]:
    """The managers' home: every booking whose deposit is past due, unpaid."""
    if not holds:
        return []
    lines = overdue_lines(list(holds[:MAX_LINES]), tz, locale, style)
    title = section(text(locale, "manager_digest.deposits", count=len(holds)))
    more = len(holds) - MAX_LINES
    tail = [context(text(locale, "home.more", count=more))] if more > 0 else []
    return [title, *(section(c) for c in chunk_lines(lines)), *tail, DividerBlock()]
