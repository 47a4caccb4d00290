"""Follow-ups (次のアクション): the bookings whose next action (来館・打合せ) is due this week
or overdue, as the salesperson's Monday digest and App Home show them (issue 28, item 6)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block

from bot import ids
from bot.blocks import chunk_lines, context, dump, section
from bot.rendered import Payload
from bot.texts import dates, esc, text
from bot.texts.dates import DateStyle
from bot.texts.refusals import hold_line
from core.booking import booking_number
from core.model import Hold, Venue
from core.serialize import hold_from_json

MOST_SHOWN = 20  # lines of follow-ups in a digest or App Home; the rest counted
MOST_BLOCKS = 3  # what they take of a message: a title, at most two sections of lines


def follow_up_line(
    hold: Hold, today: date, tz: ZoneInfo, locale: str | None, style: DateStyle
) -> str:
    """``12/10(木) #12 鳳凰の間 … 山田様（婚礼）（B-0012）\\n予定: 打合せ``; an overdue one's date
    in bold, saying so."""
    due = hold.details.next_action or today
    day = dates.day(due, locale, style=style)
    when = text(locale, "home.follow_ups.overdue", day=day) if due < today else day
    note = hold.details.next_action_note
    return text(
        locale,
        "home.follow_ups.item",
        when=when,
        hold=hold_line(hold, tz, locale, style=style),  # its booking number after it
        booking=booking_number(hold.enquiry_id),
        note=text(locale, "follow_up.note", note=esc(note)) if note else "",
    )


def _lines(
    holds: list[Hold], today: date, tz: ZoneInfo, locale: str | None, style: DateStyle
) -> list[Block]:
    lines = [follow_up_line(h, today, tz, locale, style) for h in holds[:MOST_SHOWN]]
    chunks = chunk_lines(lines)[: MOST_BLOCKS - 1]
    blocks: list[Block] = [section(chunk) for chunk in chunks]
    if len(holds) > MOST_SHOWN:
        blocks.append(context(text(locale, "home.follow_ups.more", count=len(holds) - MOST_SHOWN)))
    return blocks


def digest_blocks(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> list[Block]:
    """The digest's follow-ups (none: no block); at most ``MOST_BLOCKS + 1`` blocks."""
    holds = [hold_from_json(h) for h in payload.get("follow_ups") or []]
    if not holds:
        return []
    today = datetime.fromisoformat(payload["from"]).astimezone(tz).date()
    title = section(text(locale, "notice.digest.follow_ups", count=len(holds)))
    return [title, *_lines(holds, today, tz, locale, style)]


def digest_text(payload: Payload, locale: str | None) -> str:
    return text(locale, "notice.digest.follow_ups.text", count=len(payload.get("follow_ups") or []))


def home_blocks(
    holds: list[Hold], venue: Venue, locale: str, now: datetime
) -> list[dict[str, Any]]:
    """App Home's 「次のアクション」: the person's bookings due this week or overdue."""
    if not holds:
        return []
    style = dates.style_for(venue, now)
    today = now.astimezone(venue.tz).date()
    title = section(f"*{text(locale, 'home.follow_ups')}*", block_id=ids.FOLLOW_UPS_HOME)
    return dump([title, *_lines(holds, today, venue.tz, locale, style)])
