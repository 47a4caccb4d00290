"""Messages the bot posts itself: a new hold in the channel, a click's outcome, /hold list."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block

from bot import cards
from bot.blocks import MAX_MESSAGE_BLOCKS, chunk_lines, context, dump, section
from bot.texts import dates, text
from bot.texts.dates import PLAIN, DateStyle
from bot.texts.examples import help_text
from bot.texts.refusals import hold_line, in_way_list, ordinal, turnover_only
from core.booking import booking_number
from core.model import Hold, Venue
from core.results import ConfirmAnswer, ExtendAnswer, NudgeAnswer, ReleaseAnswer, RequestAnswer

MAX_LISTED = 40


@dataclass(frozen=True)
class Message:
    text: str  # the notification fallback
    blocks: list[dict[str, Any]]


def posted(
    result: RequestAnswer,
    tz: ZoneInfo,
    locale: str,
    *,
    candidate: bool = False,
    style: DateStyle = PLAIN,
) -> Message:
    """In the channel: who took which slot, as which rank, until when, for which salesperson
    (``candidate``: as another candidate date of its enquiry)."""
    hold = result.hold
    rank_text = ordinal(result.rank, locale)
    key = "posted.first" if result.rank == 1 else "posted.waiting"
    if candidate:  # another date of an enquiry that has one already
        key = "posted.candidate"
    if hold.house:  # 社内押さえ: the venue's own use
        key = "posted.house"
    booking = booking_number(hold.enquiry_id)
    lead = text(locale, key, creator=hold.creator, rank_text=rank_text, enquiry=booking)
    notes: tuple[str, ...] = ()
    if result.in_way:  # everyone ahead, 2nd holds too, and whether only turnover
        ahead = in_way_list(result.in_way, tz, locale, style=style)
        minutes = turnover_only(result.in_way)
        turnover = "" if minutes is None else text(locale, "preview.turnover_only", minutes=minutes)
        notes = (text(locale, "card.in_way", ahead=ahead) + turnover,)
    elif result.ahead:
        ahead = " / ".join(cards.brief(h, locale) for h in result.ahead)
        notes = (text(locale, "card.ahead", ahead=ahead),)
    blocks = cards.card(hold, tz, locale, lead=lead, notes=notes, another=True, style=style)
    line = hold_line(hold, tz, locale, style=style)
    summary = text(locale, "posted.text", rank_text=rank_text, hold=line)
    return Message(summary, dump(blocks))


def outcome(
    hold: Hold,
    tz: ZoneInfo,
    locale: str,
    lead: str | None,
    notes: Sequence[str] = (),
    *,
    style: DateStyle = PLAIN,
) -> Message:
    """A hold's card after a click: what happened (if anything), then the hold as it stands."""
    blocks = cards.card(hold, tz, locale, lead=lead, notes=tuple(notes), another=True, style=style)
    line = hold_line(hold, tz, locale, style=style)
    if not lead:
        return Message(line, dump(blocks))
    plain_lead = lead.split(" ", 1)[-1] if lead.startswith(":") else lead  # no emoji code
    return Message(text(locale, "done.text", outcome=plain_lead, hold=line), dump(blocks))


def decided(
    result: ConfirmAnswer | ReleaseAnswer | ExtendAnswer | NudgeAnswer,
    actor: str,
    tz: ZoneInfo,
    locale: str,
    *,
    style: DateStyle = PLAIN,
) -> tuple[str, tuple[str, ...]]:
    """What a click did, as the lead line of the hold's card and the notes under it."""
    notes: list[str] = []
    if isinstance(result, ConfirmAnswer):
        lead = text(locale, "done.confirmed", actor=actor)
        chosen_away = {h.id for h in result.candidates}
        others = [h for h in result.released if h.id not in chosen_away]
        if others:
            notes.append(text(locale, "done.released_others", count=len(others)))
        if result.candidates:
            dates_released = " / ".join(
                cards.line(h, tz, locale, style=style) for h in result.candidates
            )
            notes.append(text(locale, "done.released_candidates", holds=dates_released))
    elif isinstance(result, ReleaseAnswer):
        lead = text(locale, "done.released", actor=actor)
    elif isinstance(result, NudgeAnswer):
        deadline = cards.deadline(result.hold, tz, locale, style=style)
        lead = text(locale, "done.nudged", hold=cards.brief(result.hold, locale), deadline=deadline)
    else:
        deadline = cards.deadline(result.hold, tz, locale, style=style)
        lead = text(locale, "done.extended", actor=actor, deadline=deadline)
    promoted = getattr(result, "promoted", ())
    if promoted:
        notes.append(text(locale, "done.promoted", count=len(promoted)))
    return lead, tuple(notes)


def splice(
    blocks: list[dict[str, Any]], hold_id: int, replacement: list[dict[str, Any]], actions_id: str
) -> list[dict[str, Any]]:
    """``blocks`` with this hold's section and button row replaced (a digest lists many holds;
    only the clicked one changes). No button row found: the whole message is replaced.
    """
    at = next((i for i, b in enumerate(blocks) if b.get("block_id") == actions_id), None)
    if at is None:
        return replacement
    start = at - 1 if at > 0 and blocks[at - 1].get("type") == "section" else at
    spliced = blocks[:start] + replacement + blocks[at + 1 :]
    return spliced if len(spliced) <= MAX_MESSAGE_BLOCKS else blocks[:start] + replacement[:1]


def listing(
    holds: Sequence[Hold],
    tz: ZoneInfo,
    locale: str,
    *,
    style: DateStyle = PLAIN,
    now: datetime | None = None,
) -> Message:
    """``/hold list``: my live holds, soonest first, only to me; with ``now``, the time left."""
    if not holds:
        empty = text(locale, "list.empty")
        return Message(empty, dump([section(empty)]))
    lines = [
        text(
            locale,
            "list.item",
            hold=cards.line(h, tz, locale, style=style),
            state=cards.state(h, tz, locale, style=style, now=now),
        )
        for h in holds[:MAX_LISTED]
    ]
    blocks: list[Block] = [section(text(locale, "list.header", count=len(holds)))]
    blocks += [section(chunk) for chunk in chunk_lines(lines)]
    if len(holds) > MAX_LISTED:
        blocks.append(context(text(locale, "list.more", count=len(holds) - MAX_LISTED)))
    return Message(text(locale, "list.header", count=len(holds)), dump(blocks))


def weekday_question(
    day: date, written: int, today: date, locale: str, *, style: DateStyle = PLAIN
) -> str:
    """``/hold 5/16(土)`` when 5/16 is a Sunday: say so, offer the date as written and the
    nearest days of the written weekday (not past ones), and say nothing was held."""
    before = day - timedelta(days=(day.weekday() - written) % 7)
    choices = [d for d in (day, before, before + timedelta(days=7)) if d >= today]
    return text(
        locale,
        "quick.weekday_mismatch",
        date=dates.bare_day(day, locale, style=style),
        actual=dates.weekday_name(day.weekday(), locale),
        written=dates.weekday_name(written, locale),
        choices=dates.either(choices, locale, style=style),
    )


def help_message(locale: str, venue: Venue | None = None) -> Message:
    body = help_text(locale, venue)
    return Message(body, dump([section(body)]))
