"""Small modals: the confirmation Confirm opens, and a read-only note (why nothing happened)."""

from __future__ import annotations

from collections.abc import Sequence
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

from bot import cards, ids
from bot.blocks import context, plain, section
from bot.texts import esc, text
from core.model import Hold
from core.results import ConfirmPlan

MAX_LISTED = 15


def confirm_modal(plan: ConfirmPlan, tz: ZoneInfo, locale: str, metadata: str) -> View:
    """Says which holds confirming will release (their salespeople are told) and promote."""
    blocks: list[Block] = [
        section(text(locale, "confirm.body", hold=cards.line(plan.hold, tz, locale)))
    ]
    if plan.would_release:
        blocks.append(_listing("confirm.releases", plan.would_release, tz, locale))
    else:
        blocks.append(context(text(locale, "confirm.releases.none")))
    if plan.would_promote:
        blocks.append(_listing("confirm.promotes", plan.would_promote, tz, locale))
    return View(
        type="modal",
        callback_id=ids.CONFIRM_MODAL,
        title=plain(text(locale, "confirm.title"), 24),
        submit=plain(text(locale, "confirm.submit"), 24),
        close=plain(text(locale, "confirm.close"), 24),
        private_metadata=metadata,
        blocks=blocks,
    )


def cancel_modal(hold: Hold, tz: ZoneInfo, locale: str, metadata: str) -> View:
    return View(
        type="modal",
        callback_id=ids.CANCEL_MODAL,
        title=plain(text(locale, "cancel.title"), 24),
        submit=plain(text(locale, "cancel.submit"), 24),
        close=plain(text(locale, "cancel.close"), 24),
        private_metadata=metadata,
        blocks=[section(text(locale, "cancel.body", hold=cards.line(hold, tz, locale)))],
    )


def info_modal(message: str, locale: str) -> View:
    return View(
        type="modal",
        callback_id=ids.INFO_MODAL,
        title=plain(text(locale, "info.title"), 24),
        close=plain(text(locale, "info.close"), 24),
        blocks=[section(message)],
    )


def _listing(key: str, holds: Sequence[Hold], tz: ZoneInfo, locale: str) -> Block:
    lines = [f"• {cards.line(h, tz, locale)} — <@{esc(h.salesperson)}>" for h in holds[:MAX_LISTED]]
    if len(holds) > MAX_LISTED:
        lines.append(text(locale, "home.more", count=len(holds) - MAX_LISTED))
    return section("\n".join([text(locale, key), *lines]))
