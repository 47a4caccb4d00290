"""The dialog Release opens: which hold, why (a reason of the venue's list, required) and an
optional note. Nothing changes until it is submitted (``bot.listeners.release``)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import (
    Block,
    InputBlock,
    Option,
    PlainTextInputElement,
    StaticSelectElement,
)
from slack_sdk.models.views import View

from bot import cards, ids
from bot.blocks import context, plain, section
from bot.metadata import Meta
from bot.texts import text
from bot.texts.dates import PLAIN, DateStyle
from core.model import Hold
from core.rules.reasons import MAX_NOTE


def release_modal(
    hold: Hold,
    tz: ZoneInfo,
    meta: Meta,
    reasons: tuple[tuple[str, str], ...],
    *,
    style: DateStyle = PLAIN,
) -> View:
    locale = meta.locale
    body = text(locale, "release.body", hold=cards.line(hold, tz, locale, style=style))
    options = [Option(value=code, text=plain(name, 75)) for code, name in reasons[:100]]
    reason = InputBlock(
        block_id=ids.RELEASE_REASON,
        label=plain(text(locale, "release.reason.label"), 2000),
        hint=plain(text(locale, "release.reason.hint"), 2000),
        element=StaticSelectElement(
            action_id=ids.RELEASE_REASON,
            placeholder=plain(text(locale, "release.reason.placeholder"), 150),
            options=options,
        ),
    )
    note = InputBlock(
        block_id=ids.RELEASE_NOTE,
        optional=True,
        label=plain(text(locale, "release.note.label"), 2000),
        element=PlainTextInputElement(
            action_id=ids.RELEASE_NOTE,
            multiline=True,
            max_length=MAX_NOTE,
            placeholder=plain(text(locale, "release.note.placeholder"), 150),
        ),
    )
    blocks: list[Block] = [section(body)]
    if more := cards.details(hold, locale):
        blocks.append(context(more))
    return View(
        type="modal",
        callback_id=ids.RELEASE_MODAL,
        title=plain(text(locale, "release.title"), 24),
        submit=plain(text(locale, "release.submit"), 24),
        close=plain(text(locale, "release.close"), 24),
        private_metadata=meta.dump(),
        blocks=[*blocks, reason, note],
    )
