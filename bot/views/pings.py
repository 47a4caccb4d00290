"""The window ping (開放日に知らせる) in Slack's views: the offer beside a banquet-window
refusal in the /hold form, and App Home's list of the person's waiting pings, each with its
drop button."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block, ButtonElement

from bot import ids
from bot.blocks import context, dump, plain, section
from bot.ping_notices import request_line
from bot.texts import dates, esc, text
from bot.texts.dates import DateStyle
from core.model import Venue
from core.pings import WindowPing
from core.results import Code, Refused

HOME_PINGS = 10  # shown in App Home; the rest counted (`osae ping list` lists them all)


def ping_offer(refused: Refused, tz: ZoneInfo, locale: str, style: DateStyle) -> list[Block]:
    """Beside a refusal for a banquet window not open yet: 「開放日に知らせる」; else nothing."""
    if refused.code is not Code.BANQUET_NOT_OPEN or refused.opens_at is None:
        return []
    opens = dates.when(refused.opens_at, tz, locale, year=True, style=style)
    block = section(text(locale, "ping.offer", opens=opens), block_id=ids.PING_BLOCK)
    block.accessory = ButtonElement(
        action_id=ids.PING_ASK, text=plain(text(locale, "ping.ask"), 75), value="ask"
    )
    return [block]


def ping_kept(ping: WindowPing, replayed: bool, venue: Venue, locale: str, now: datetime) -> Block:
    """What the form says once the ping is kept (in place of its offer)."""
    style = dates.style_for(venue, now)
    return context(
        text(
            locale,
            "ping.kept.again" if replayed else "ping.kept",
            opens=_opens(ping, venue, locale, style),
            day=dates.day(ping.day, locale, style=style),
            customer=esc(ping.request.customer),
        ),
        block_id=ids.PING_BLOCK,
    )


def home_pings(
    pings: list[WindowPing], venue: Venue, locale: str, now: datetime
) -> list[dict[str, Any]]:
    """App Home: the person's waiting pings in the order asked, each with 取り消す; nothing
    when there are none."""
    if not pings:
        return []
    style = dates.style_for(venue, now)
    names = {r.id: r.name for r in venue.rooms.values()}
    blocks: list[Block] = [section(f"*{text(locale, 'home.pings')}*", block_id=ids.PINGS_HOME)]
    for ping in pings[:HOME_PINGS]:
        kind = venue.policy.kind(ping.request.kind)
        line = request_line(ping.request, names, kind.name if kind else "", venue.tz, locale, style)
        opens = _opens(ping, venue, locale, style)
        block = section(text(locale, "home.pings.item", line=line, opens=opens))
        block.accessory = ButtonElement(
            action_id=ids.PING_DROP,
            text=plain(text(locale, "home.pings.drop"), 75),
            value=str(ping.id),
        )
        blocks.append(block)
    if len(pings) > HOME_PINGS:
        blocks.append(context(text(locale, "home.pings.more", count=len(pings) - HOME_PINGS)))
    return dump(blocks)


def _opens(ping: WindowPing, venue: Venue, locale: str, style: DateStyle) -> str:
    if ping.opens_at is None:
        return text(locale, "ping.now")
    return dates.when(ping.opens_at, venue.tz, locale, year=True, style=style)
