"""The ledger taken out in Slack: the 予約台帳 file (xlsx / CSV) a manager's App Home sends,
and the calendar feed links each person's App Home shows."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import partial
from typing import Any

from bot import ids
from bot.blocks import section
from bot.deposits import row_deposit
from bot.texts import text
from bot.texts.states import row_state
from core.exports.feed_tokens import FeedKey, Scope
from core.exports.layout import ledger_rows
from core.exports.sheets import write_csv, write_xlsx
from core.model import Venue
from core.operations.exports import LedgerOut

FeedLink = Callable[[FeedKey], str | None]  # a feed's URL (None: none can be shown)


def ledger_file(
    found: LedgerOut, venue: Venue, fmt: str, *, with_contact: bool
) -> tuple[bytes, int]:
    """The file's bytes and its number of rows (one per room of each hold)."""
    state = partial(row_state, reasons=found.reasons)
    rows = ledger_rows(found.holds, venue, state, with_contact=with_contact, deposit=row_deposit)
    buffer = io.BytesIO()
    write = write_xlsx if fmt == "xlsx" else write_csv
    write(rows, buffer, with_contact=with_contact)
    return buffer.getvalue(), len(rows)


def home_blocks(venue: Venue, user: str, locale: str, link: FeedLink) -> list[dict[str, Any]]:
    """A person's calendar feed; for a manager, the venue's too and 「Excel で出力」. A feed
    not issued yet is offered as a button: showing App Home writes nothing."""
    manager = venue.is_manager(user)
    mine = link(FeedKey(venue.id, Scope.SALESPERSON, user))
    whole = link(FeedKey(venue.id, Scope.VENUE)) if manager else None
    blocks: list[dict[str, Any]] = []
    if mine is not None:
        said = text(locale, "takeout.feed.home", url=mine, user=user)
        blocks.append(section(said, block_id=ids.FEED_BLOCK).to_dict())
    if whole is not None:
        blocks.append(section(text(locale, "takeout.feed.home_venue", url=whole)).to_dict())
    if mine is None or (manager and whole is None):
        blocks.append(_issue_offer(locale, manager))
    if manager:
        blocks.append(_export_offer(locale))
    return blocks


def _button_section(
    block_id: str, said: str, action_id: str, label: str, value: str
) -> dict[str, Any]:
    return {
        "type": "section",
        "block_id": block_id,
        "text": {"type": "mrkdwn", "text": said},
        "accessory": {
            "type": "button",
            "action_id": action_id,
            "text": {"type": "plain_text", "text": label},
            "value": value,
        },
    }


def _issue_offer(locale: str, manager: bool) -> dict[str, Any]:
    """「カレンダーに追加する（URLを発行）」: the click issues (bot.listeners.feeds)."""
    said = text(locale, "takeout.feed.home_offer_venue" if manager else "takeout.feed.home_offer")
    value = ids.FEED_VENUE if manager else ids.FEED_MINE
    label = text(locale, "takeout.feed.button")
    return _button_section(ids.FEED_ISSUE_BLOCK, said, ids.FEED_ISSUE, label, value)


def _export_offer(locale: str) -> dict[str, Any]:
    said = text(locale, "takeout.export.home_hint")
    label = text(locale, "takeout.export.home_button")
    return _button_section(ids.LEDGER_EXPORT_BLOCK, said, ids.LEDGER_EXPORT, label, "xlsx")
