"""A hold's card in the channel: the card as the hold stands, and the line each card row
adds to its thread (one per action ``core.event_kinds`` declares a card for)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from zoneinfo import ZoneInfo

from bot import cards
from bot.blocks import dump, section
from bot.deposit_notices import paid_line
from bot.notices import (
    Payload,
    UnrenderableNotice,
    hold_of,
    ids_text,
    reason_text,
    style_at,
)
from bot.rendered import Rendered
from bot.texts import dates, esc, text
from bot.texts.dates import DateStyle
from bot.texts.refusals import ordinal
from core.event_kinds import card_lines
from core.events import Action
from core.model import Hold, Status
from core.notices import Notice
from core.serialize import hold_from_json


def render_card(
    hold: Hold,
    *,
    tz: ZoneInfo,
    locale: str | None,
    extend: bool,
    rokuyo: bool = True,
    now: datetime | None = None,
    capacities: Mapping[str, int] | None = None,
) -> Rendered:
    """The card as the hold stands, drawn like the one /hold posted (its rooms, dates as the
    venue shows them at ``now``): buttons only while they can act (none once decided). No
    time left to its deadline: the channel's card is not redrawn as time passes. With
    ``capacities`` (room id: seated guests), a line for each room the guests are over."""
    style = style_at(now, tz, rokuyo) if now else DateStyle(rokuyo=rokuyo)
    notes = over_capacity_notes(hold, capacities or {}, locale)
    blocks = cards.card(hold, tz, locale, extend=extend, another=True, style=style, notes=notes)
    summary = text(
        locale,
        "card.text",
        hold=cards.line(hold, tz, locale, style=style),
        state=cards.state(hold, tz, locale, style=style),
    )
    return Rendered(summary, dump(blocks))


def render_card_line(
    notice: Notice,
    *,
    tz: ZoneInfo,
    locale: str | None,
    rokuyo: bool = True,
    now: datetime | None = None,
) -> Rendered | None:
    """The line a card row adds to the card's thread: what happened, when, who did it. A
    new card has none (it says all that itself). Raises ``UnrenderableNotice``."""
    payload = notice.payload
    style = style_at(now or notice.created_at, tz, rokuyo)
    try:
        action = Action(str(payload["event"]))
        more = _line_of(action)
        if more is None:
            return None
        facts = _line_facts(notice, tz, locale, style) | more(payload, tz, locale, style)
        key = "thread.replaced" if "replaced_by" in payload else f"thread.{action.value}"
        line = text(locale, key, **facts)
    except (KeyError, TypeError, ValueError) as err:
        raise UnrenderableNotice(f"notice {notice.id} (card): {err!r}") from err
    return Rendered(line, dump([section(line)]))


def _line_of(action: Action) -> LineFacts | None:
    """What a card row of ``action`` says beyond the common facts (KeyError: no event
    redraws a card for it)."""
    if action not in card_lines():
        raise KeyError(action)
    return LINES[action]


def _line_facts(
    notice: Notice, tz: ZoneInfo, locale: str | None, style: DateStyle
) -> dict[str, str]:
    """What every thread line may say: when, who acted, whose hold, its deadline, why."""
    payload = notice.payload
    hold = hold_of(payload)
    return {
        "when": dates.when(notice.created_at, tz, locale, style=style),
        "actor": esc(str(payload["actor"])),
        "salesperson": esc(hold.salesperson),
        "deadline": cards.deadline(hold, tz, locale, style=style),
        "reason": reason_text(payload, locale),
    }


# -- one thread line per card action: the facts it says beyond the common ones --------------
LineFacts = Callable[[Payload, ZoneInfo, str | None, DateStyle], dict[str, str]]


def _nothing_more(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle
) -> dict[str, str]:
    return {}


def _lost(payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle) -> dict[str, str]:
    return {"winner": cards.brief(hold_from_json(payload["winner"]), locale)}


def _other_date_chosen(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle
) -> dict[str, str]:
    return {"chosen": cards.line(hold_from_json(payload["chosen"]), tz, locale, style=style)}


def _promoted(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle
) -> dict[str, str]:
    cause = payload.get("cause") or "unknown"
    return {
        "cause": text(locale, f"thread.cause.{cause}", ahead=ids_text(payload.get("after", [])))
    }


def _edited(payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle) -> dict[str, str]:
    """In place: the hold as it was; swapped: the hold that replaced it, and its place."""
    if "replaced_by" in payload:
        new = hold_from_json(payload["replaced_by"])
        place = (
            ordinal(new.rank, locale) if new.rank else text(locale, f"status.{new.status.value}")
        )
        return {"replaced_by": f"#{new.id}", "rank_text": place}
    return {"before": cards.line(hold_from_json(payload["before"]), tz, locale, style=style)}


# None: the card row adds no line (a new card says all that itself).
LINES: dict[Action, LineFacts | None] = {
    Action.REQUESTED: None,
    Action.CONFIRMED: _nothing_more,
    Action.LOST: _lost,
    Action.OTHER_DATE_CHOSEN: _other_date_chosen,
    Action.RELEASED: _nothing_more,
    Action.EXTENDED: _nothing_more,
    Action.CANCELLED: _nothing_more,
    Action.PROMOTED: _promoted,
    Action.EXPIRED: _nothing_more,
    Action.EDITED: _edited,
    Action.NUDGED: _nothing_more,
    Action.DEPOSIT_PAID: paid_line,
}


def over_capacity_notes(
    hold: Hold, capacities: Mapping[str, int], locale: str | None
) -> tuple[str, ...]:
    """``:warning: 鳳凰の間の定員は着席120名です（200名）`` for each room the hold's guests are
    over (a warning, never a refusal), while the hold is tentative or confirmed."""
    if hold.guests is None or hold.status not in (Status.TENTATIVE, Status.CONFIRMED):
        return ()
    over = [i for i in hold.items if hold.guests > capacities.get(i.room_id, hold.guests)]
    return tuple(
        text(
            locale,
            "card.over_capacity",
            room=esc(i.room_name),
            capacity=capacities[i.room_id],
            guests=hold.guests,
        )
        for i in over
    )
