"""The team's ledger as messages: a day's rooms (``/hold 5/15``) and the team's holds
(a manager's ``/hold list``). Only to whoever asked (ephemeral), within 50 blocks."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block, ButtonElement, MarkdownTextObject, SectionBlock

from bot import cards, ids
from bot.blocks import (
    MAX_MESSAGE_BLOCKS,
    MAX_SECTION_TEXT,
    chunk_lines,
    clip,
    context,
    dump,
    header,
    plain,
    section,
)
from bot.texts import dates, esc, text
from bot.texts.dates import PLAIN, DateStyle
from bot.views.messages import Message
from core.ledger_views import Booking, DayLedger, RoomDay
from core.model import Hold

MAX_LISTED = 40
MAX_ROOMS = MAX_MESSAGE_BLOCKS - 3  # a header, the footer and "more rooms" take three


def day_message(
    ledger: DayLedger, tz: ZoneInfo, locale: str, now: datetime, *, style: DateStyle = PLAIN
) -> Message:
    """Each room in venue-file order, its holds in time order: rank, deadline, salesperson
    and the turnover after each; a hold on a room sharing its space is marked as such."""
    shown_day = dates.day(ledger.day, locale, style=style)
    blocks: list[Block] = [header(text(locale, "day.title", day=shown_day))]
    for room_day in ledger.rooms[:MAX_ROOMS]:
        blocks.append(_room_section(room_day, ledger.day, tz, locale, style))
    if len(ledger.rooms) > MAX_ROOMS:
        more = len(ledger.rooms) - MAX_ROOMS
        blocks.append(context(text(locale, "day.more", count=more, day=_typed(ledger.day))))
    footer = text(locale, "day.footer", when=dates.when(now, tz, locale), day=_typed(ledger.day))
    blocks.append(context(footer))
    count = len({b.hold.id for r in ledger.rooms for b in r.bookings})
    return Message(text(locale, "day.text", day=shown_day, count=count), dump(blocks))


def _room_section(
    room_day: RoomDay, day: date, tz: ZoneInfo, locale: str, style: DateStyle
) -> SectionBlock:
    """The room and its holds, with a button that opens the form on this room and date."""
    hold_here = ButtonElement(
        text=plain(text(locale, "day.hold_button")),
        action_id=ids.HOLD_FROM_DAY,
        value=f"{room_day.room.id} {day.isoformat()}",
    )
    body = MarkdownTextObject(text=clip(_room(room_day, tz, locale, style), MAX_SECTION_TEXT))
    return SectionBlock(text=body, accessory=hold_here)


def _room(room_day: RoomDay, tz: ZoneInfo, locale: str, style: DateStyle) -> str:
    room = room_day.room
    name = esc(room.name)
    title = (
        text(locale, "day.room.turnover", room=name, minutes=room.turnover_min)
        if room.turnover_min
        else text(locale, "day.room", room=name)
    )
    lines = [_booking(b, tz, locale, style) for b in room_day.bookings]
    lines = lines or [text(locale, "day.free")]
    return "\n".join([title, *lines])  # one section: ``section`` clips it to Slack's limit


def _booking(booking: Booking, tz: ZoneInfo, locale: str, style: DateStyle) -> str:
    item, hold = booking.item, booking.hold
    turnover = (
        text(
            locale,
            "day.item.turnover",
            minutes=booking.turnover_min,
            ready=dates.clock(item.span_end, tz),
        )
        if booking.turnover_min
        else ""
    )
    via = text(locale, "day.item.via", room=esc(item.room_name)) if booking.shared else ""
    return text(
        locale,
        "day.item",
        times=dates.time_range(item.start_at, item.end_at, tz),
        turnover=turnover,
        via=via,
        hold=cards.brief(hold, locale),
        state=cards.state(hold, tz, locale, style=style),
        salesperson=esc(hold.salesperson),
    )


def _typed(day: date) -> str:
    """The date as people type it after ``/hold``."""
    return f"{day.month}/{day.day}"


def team_listing(
    holds: Sequence[Hold],
    tz: ZoneInfo,
    locale: str,
    *,
    person: str | None = None,
    on: date | None = None,
    style: DateStyle = PLAIN,
) -> Message:
    """A manager's ``/hold list``: the team's live holds, soonest first, with who has each."""
    filters = "".join(
        [
            text(locale, "team.list.person", user=esc(person)) if person else "",
            text(locale, "team.list.day", day=dates.day(on, locale, style=style)) if on else "",
        ]
    )
    if not holds:
        empty = text(locale, "team.list.empty", filters=filters)
        return Message(empty, dump([section(empty)]))
    lines = [
        text(
            locale,
            "team.list.item",
            hold=cards.line(h, tz, locale, style=style),
            state=cards.state(h, tz, locale, style=style),
            salesperson=esc(h.salesperson),
        )
        for h in holds[:MAX_LISTED]
    ]
    title = text(locale, "team.list.header", count=len(holds), filters=filters)
    blocks: list[Block] = [section(title)]
    blocks += [section(chunk) for chunk in chunk_lines(lines)]
    if len(holds) > MAX_LISTED:
        blocks.append(context(text(locale, "team.list.more", count=len(holds) - MAX_LISTED)))
    return Message(title, dump(blocks))
