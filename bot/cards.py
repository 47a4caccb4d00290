"""A hold as a card: its line, its state, and the buttons that fit that state.

The same card shows in the channel after /hold, in DMs, in App Home and after a click, so
a hold reads the same everywhere.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import ActionsBlock, Block, ButtonElement

from bot import ids
from bot.blocks import Serialized, context, plain, section
from bot.deposits import deposit_button, deposit_state
from bot.texts import dates, esc, lang, text
from bot.texts.dates import PLAIN, DateStyle
from bot.texts.kinds import hold_kind, status_text
from bot.texts.refusals import hold_line, ordinal
from core.booking import booking_number
from core.model import Hold, Status


def line(hold: Hold, tz: ZoneInfo, locale: str | None, *, style: DateStyle = PLAIN) -> str:
    """``B-0012 #12 鳳凰の間 3/10(水・仏滅) 11:00〜15:00 山田様（婚礼）``, escaped for mrkdwn:
    the booking number first wherever staff see a hold (cards, DMs, App Home, digests); none
    for a hold read from before it had one (an old notice's JSON)."""
    said = hold_line(hold, tz, locale, style=style)
    return f"{booking_number(hold.enquiry_id)} {said}" if hold.enquiry_id else said


def state(
    hold: Hold,
    tz: ZoneInfo,
    locale: str | None,
    *,
    style: DateStyle = PLAIN,
    now: datetime | None = None,
) -> str:
    """``*1番手* · 期限 *3/8(月) 9:00まで*``, ``*2番手*（順番待ち）``, ``*本予約*`` ...;
    with ``now`` (App Home, DMs: not the channel, whose card is not redrawn as time passes)
    the deadline says the time left."""
    if hold.house:  # 社内押さえ: held for the venue's own use, no deadline; or what became of it
        if hold.status is Status.TENTATIVE:
            return text(locale, "card.house")
        return f"{status_text(hold, locale, 'card')} · {text(locale, 'house.tag')}"
    if hold.is_first and hold.expires_at:
        return text(locale, "card.first", deadline=deadline(hold, tz, locale, style=style, now=now))
    if hold.status is Status.TENTATIVE and hold.is_package:  # which room it waits on
        return text(
            locale,
            "card.waiting.package",
            rank_text=ordinal(hold.rank or 0, locale),
            items=item_ranks(hold, locale),
        )
    if hold.status is Status.TENTATIVE:
        return text(locale, "card.waiting", rank_text=ordinal(hold.rank or 0, locale))
    deposit = deposit_state(hold, tz, locale, now=now, style=style)  # 予約金, if any
    return " · ".join(filter(None, [status_text(hold, locale, "card"), deposit]))


def item_ranks(hold: Hold, locale: str | None) -> str:
    """``チャペル 1番手 · 鳳凰の間 2番手``: each room's own place in line."""
    return " · ".join(
        text(
            locale,
            "preview.item",
            room=esc(item.room_name),
            rank_text=ordinal(item.rank or 0, locale),
        )
        for item in hold.items
    )


def deadline(
    hold: Hold,
    tz: ZoneInfo,
    locale: str | None,
    *,
    style: DateStyle = PLAIN,
    now: datetime | None = None,
) -> str:
    """The hold's reply deadline (``3/8(月) 9:00まで``, with ``now`` ``…（あと3日）``), or ``—``."""
    if hold.expires_at is None:
        return "—"
    return dates.deadline(hold.expires_at, tz, locale, style=style, now=now)


def brief(hold: Hold, locale: str | None) -> str:
    """``#13 佐藤様（婚礼）``: another hold, named shortly."""
    kind = hold_kind(hold, locale)
    if lang(locale) == "en":
        return f"#{hold.id} {esc(hold.customer)} ({kind})"
    return f"#{hold.id} {esc(hold.customer)}（{kind}）"


def details(hold: Hold, locale: str | None, *, contact: bool = False) -> str:
    """The hold's note, and its contact only with ``contact`` (a view for its salesperson or a
    manager: never the channel), escaped; "" when there is neither."""
    said = [text(locale, "card.note", note=esc(hold.note))] if hold.note else []
    if contact and hold.contact:
        said.append(text(locale, "card.contact", contact=esc(hold.contact)))
    return "\n".join(said)


def card(
    hold: Hold,
    tz: ZoneInfo,
    locale: str | None,
    *,
    lead: str | None = None,
    notes: tuple[str, ...] = (),
    extend: bool = True,
    another: bool = False,
    contact: bool = False,
    style: DateStyle = PLAIN,
    now: datetime | None = None,
) -> list[Block]:
    """Lead line, the hold, its state and salesperson, its note (and its contact, with
    ``contact``: only for its salesperson and managers); buttons while it is tentative
    (``another``: with "Another date", where a salesperson works on the hold).
    ``now``: the deadline says the time left (App Home, DMs)."""
    body = "\n".join(
        filter(
            None,
            [
                lead,
                line(hold, tz, locale, style=style),
                f"{state(hold, tz, locale, style=style, now=now)} · "
                + text(locale, "card.salesperson", salesperson=esc(hold.salesperson)),
                details(hold, locale, contact=contact),
            ],
        )
    )
    blocks: list[Block] = [section(body)]
    buttons = card_buttons(hold, tz, locale, extend=extend, another=another, style=style)
    if buttons is not None:
        blocks.append(buttons)
    blocks += [context(note) for note in notes]
    return blocks


@lru_cache(maxsize=4096)
def card_buttons(
    hold: Hold,
    tz: ZoneInfo,
    locale: str | None,
    *,
    extend: bool = True,
    another: bool = False,
    style: DateStyle = PLAIN,
) -> Block | None:
    """``decision_buttons`` validated once per hold as it stands (its every field is the
    key): most of a card's elements, and of an App Home's, are these buttons."""
    buttons = decision_buttons(hold, tz, locale, extend=extend, another=another, style=style)
    return Serialized(buttons) if buttons is not None else None


def decision_buttons(
    hold: Hold,
    tz: ZoneInfo,
    locale: str | None,
    *,
    extend: bool = True,
    another: bool = False,
    style: DateStyle = PLAIN,
) -> ActionsBlock | None:
    """1st: Confirm (Extend) Release Edit; waiting: Release Nudge Edit; a house hold: Release
    alone (a manager's); decided: none but
    「入金確認」 while its deposit is due. ``another`` adds "Another date" (a second candidate
    date of the hold's enquiry)."""
    if hold.status is not Status.TENTATIVE:
        paid = deposit_button(hold, locale)
        return ActionsBlock(block_id=ids.card_actions(hold.id), elements=[paid]) if paid else None
    value = str(hold.id)
    elements = [_release(hold, locale)]
    if hold.house:  # a manager releases it when the venue is done (the engine checks who)
        return ActionsBlock(block_id=ids.card_actions(hold.id), elements=elements)
    if hold.is_first:
        confirm = ButtonElement(
            text=plain(text(locale, "button.confirm")),
            action_id=ids.CONFIRM,
            value=value,
            style="primary",
        )
        more = [_button(ids.EXTEND, "button.extend", value, locale)] if extend else []
        elements = [confirm, *more, *elements]
    else:  # waiting: it may ask the 1st ahead to answer (the engine says if it may)
        elements.append(_button(ids.NUDGE, "button.nudge", value, locale))
    elements.append(_button(ids.EDIT, "edit.button", value, locale))
    if another:
        elements.append(_button(ids.ANOTHER_DATE, "button.another_date", value, locale))
    return ActionsBlock(block_id=ids.card_actions(hold.id), elements=elements)


def _button(action_id: str, key: str, value: str, locale: str | None) -> ButtonElement:
    return ButtonElement(text=plain(text(locale, key)), action_id=action_id, value=value)


def _release(hold: Hold, locale: str | None) -> ButtonElement:
    """Release cannot be undone: the button opens a dialog that names the hold and asks why
    (``bot.views.release``), so Slack's own confirm is not needed."""
    return ButtonElement(
        text=plain(text(locale, "button.release")),
        action_id=ids.RELEASE,
        value=str(hold.id),
        style="danger",
    )
