"""Small modals: the confirmation Confirm opens, and a read-only note (why nothing happened)."""

from __future__ import annotations

from collections.abc import Sequence
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block, InputBlock, PlainTextInputElement
from slack_sdk.models.views import View

from bot import cards, ids
from bot.blocks import context, plain, section
from bot.metadata import Meta
from bot.texts import esc, text
from bot.texts.dates import PLAIN, DateStyle
from core.model import Hold
from core.results import ConfirmPlan

MAX_LISTED = 15


def confirm_modal(plan: ConfirmPlan, tz: ZoneInfo, meta: Meta, *, style: DateStyle = PLAIN) -> View:
    """Says which holds confirming will release (their salespeople are told): the other
    candidate dates of its enquiry first, then those in the way; and which it will promote."""
    locale = meta.locale
    blocks: list[Block] = [
        section(text(locale, "confirm.body", hold=cards.line(plan.hold, tz, locale, style=style)))
    ]
    if note := cards.details(plan.hold, locale):  # the note; the clicker may be its creator
        blocks.append(context(note))
    candidates = {h.id for h in plan.candidates}
    in_the_way = tuple(h for h in plan.would_release if h.id not in candidates)
    if plan.candidates:
        blocks.append(_listing("confirm.candidates", plan.candidates, tz, locale, style))
    if in_the_way:
        blocks.append(_listing("confirm.releases", in_the_way, tz, locale, style))
    elif not plan.candidates:
        blocks.append(context(text(locale, "confirm.releases.none")))
    if plan.would_promote:
        blocks.append(_listing("confirm.promotes", plan.would_promote, tz, locale, style))
    return _dialog(ids.CONFIRM_MODAL, "confirm", meta, blocks)


MAX_REASON = 500  # characters of a cancel's reason


def cancel_modal(hold: Hold, tz: ZoneInfo, meta: Meta, *, style: DateStyle = PLAIN) -> View:
    """Asks the reason, which the hold's salesperson and the card's thread are told."""
    locale = meta.locale
    body = text(locale, "cancel.body", hold=cards.line(hold, tz, locale, style=style))
    reason = InputBlock(
        block_id=ids.CANCEL_REASON,
        label=plain(text(locale, "cancel.reason.label"), 2000),
        hint=plain(text(locale, "cancel.reason.hint"), 2000),
        element=PlainTextInputElement(
            action_id=ids.CANCEL_REASON,
            multiline=True,
            max_length=MAX_REASON,
            placeholder=plain(text(locale, "cancel.reason.placeholder"), 150),
        ),
    )
    more = cards.details(hold, locale, contact=True)  # a manager's dialog
    return _dialog(
        ids.CANCEL_MODAL, "cancel", meta, [section(f"{body}\n{more}" if more else body), reason]
    )


def info_modal(message: str, locale: str) -> View:
    return View(
        type="modal",
        callback_id=ids.INFO_MODAL,
        title=plain(text(locale, "info.title"), 24),
        close=plain(text(locale, "info.close"), 24),
        blocks=[section(message)],
    )


def _dialog(callback_id: str, key: str, meta: Meta, blocks: list[Block]) -> View:
    """A dialog that asks before acting: its texts are ``<key>.title``, ``.submit``, ``.close``."""
    return View(
        type="modal",
        callback_id=callback_id,
        title=plain(text(meta.locale, f"{key}.title"), 24),
        submit=plain(text(meta.locale, f"{key}.submit"), 24),
        close=plain(text(meta.locale, f"{key}.close"), 24),
        private_metadata=meta.dump(),
        blocks=blocks,
    )


def _listing(key: str, holds: Sequence[Hold], tz: ZoneInfo, locale: str, style: DateStyle) -> Block:
    lines = [
        f"• {cards.line(h, tz, locale, style=style)} — <@{esc(h.salesperson)}>"
        for h in holds[:MAX_LISTED]
    ]
    if len(holds) > MAX_LISTED:
        lines.append(text(locale, "home.more", count=len(holds) - MAX_LISTED))
    return section("\n".join([text(locale, key), *lines]))
