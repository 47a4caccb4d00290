"""What a search answers in Slack: the places a request would get (1st or 2nd), by date, each
with a button that opens the hold form filled in; a page at a time within Block Kit limits."""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import groupby
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    InputBlock,
    PlainTextInputElement,
    SectionBlock,
)
from slack_sdk.models.views import View

from bot import ids
from bot.blocks import MAX_MESSAGE_BLOCKS, Serialized, context, dump, plain, section
from bot.places import value_of
from bot.texts import dates, esc, text
from bot.texts.dates import DateStyle
from bot.texts.finding import alternative_line, outcome_label, room_label, slot_label
from bot.views.messages import Message
from core.model import Kind, Venue
from core.results import Availability, Chance, Found

PAGE = 20  # results a page: with a line per date, a title and the next-page button ≤ 50 blocks
MAX_BUTTON_VALUE = 2000
assert PAGE * 2 + 3 <= MAX_MESSAGE_BLOCKS  # noqa: S101 - a page fits a message


def results(
    answer: Availability,
    venue: Venue,
    kind: Kind,
    locale: str,
    style: DateStyle,
    *,
    typed: str,
    page: int = 0,
) -> Message:
    """Page ``page`` (from 0) of a search's places a request would get, dates in the
    reader's ``style``."""
    fitting = [f for f in answer.found if f.fits]
    counts = {o: sum(1 for f in answer.found if f.outcome is o) for o in Chance}
    summary = text(
        locale,
        "free.summary",
        fits=len(fitting),
        taken=counts[Chance.TAKEN],
        not_open=counts[Chance.NOT_OPEN],
        looked=answer.looked,
    )
    title = text(locale, "free.title", query=esc(typed) if typed else text(locale, "free.all"))
    blocks: list[Block] = [section(f"*{title}*\n{summary}")]
    if not fitting:
        blocks.append(context(text(locale, "free.none")))
        return Message(f"{title} {summary}", dump(blocks))
    shown = fitting[page * PAGE : (page + 1) * PAGE]
    for day, found in groupby(shown, key=lambda f: f.place.day):
        blocks.append(context(f"*{dates.day(day, locale, style=style)}*"))
        blocks += [_result(f, venue, kind, locale, style) for f in found]
    rest = len(fitting) - (page + 1) * PAGE
    value = json.dumps({"q": typed, "p": page + 1}, ensure_ascii=False)
    if rest > 0 and len(value) <= MAX_BUTTON_VALUE:
        more = ButtonElement(
            action_id=ids.FREE_MORE,
            text=plain(text(locale, "free.more", count=min(rest, PAGE)), 75),
            value=value,
        )
        blocks.append(ActionsBlock(elements=[more]))
    return Message(f"{title} {summary}", dump(blocks))


def _result(found: Found, venue: Venue, kind: Kind, locale: str, style: DateStyle) -> SectionBlock:
    tz = venue.tz
    line = (
        f"{slot_label(found, tz, locale)} · {room_label(found, locale)} · "
        f"{outcome_label(found, tz, locale, style)}"
    )
    block = section(line)
    block.accessory = hold_button(found, kind, locale, "free.hold")
    return block


def hold_button(found: Found, kind: str, locale: str, key: str) -> ButtonElement:
    return ButtonElement(
        action_id=ids.FREE_HOLD, text=plain(text(locale, key), 75), value=value_of(found, kind)
    )


def alternatives_blocks(
    offered: tuple[Found, ...], venue: Venue, kind: str, locale: str, style: DateStyle
) -> list[Block]:
    """A refusal's alternatives: one line each and a button that opens the form with it."""
    return list(_alternatives(offered, venue.tz, kind, locale, style)) if offered else []


@lru_cache(maxsize=256)
def _alternatives(
    offered: tuple[Found, ...], tz: ZoneInfo, kind: str, locale: str, style: DateStyle
) -> tuple[Block, ...]:
    """Validated once per offer: a crowd refused for one slot is offered the same places."""
    lines = [
        f"{n}. {alternative_line(f, tz, locale, style, plain=False)}"
        for n, f in enumerate(offered, start=1)
    ]
    buttons = [
        ButtonElement(
            action_id=ids.free_hold_alternative(n),
            text=plain(text(locale, "alternatives.button", n=n), 75),
            value=value_of(f, kind),
        )
        for n, f in enumerate(offered, start=1)
    ]
    header = text(locale, "alternatives.header")
    return (
        Serialized(section(header + "\n" + "\n".join(lines))),
        Serialized(ActionsBlock(block_id=ids.ALTERNATIVES, elements=buttons)),
    )


MAX_TYPED = 1000  # a search's text: longer is not a search anyone typed


def find_modal(locale: str, metadata: str) -> View:
    """App Home's search form: one line, read as ``/hold free`` reads its text."""
    block = InputBlock(
        block_id=ids.FIND_TEXT,
        label=plain(text(locale, "find.label"), 2000),
        hint=plain(text(locale, "find.hint"), 2000),
        element=PlainTextInputElement(action_id=ids.FIND_TEXT, max_length=MAX_TYPED),
    )
    return View(
        type="modal",
        callback_id=ids.FIND_MODAL,
        title=plain(text(locale, "find.title"), 24),
        submit=plain(text(locale, "find.submit"), 24),
        close=plain(text(locale, "modal.close"), 24),
        private_metadata=metadata,
        blocks=[block],
    )


def found_modal(locale: str, metadata: str, message: Message) -> View:
    """A search's answer in the form's place (its buttons push the hold form on top)."""
    return View(
        type="modal",
        callback_id=ids.FIND_MODAL,
        title=plain(text(locale, "find.title"), 24),
        close=plain(text(locale, "modal.close"), 24),
        private_metadata=metadata,
        blocks=message.blocks,
    )
