"""Notices: the messages the engine leaves in the outbox, and the rows delivery works on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any


class NoticeKind(StrEnum):
    """What a notice is about; stored as ``outbox.kind``."""

    PROMOTED = "promoted"  # now 1st: Confirm / Release buttons and a deadline
    LOST = "lost"  # released because another hold was confirmed
    OTHER_DATE_CHOSEN = "other_date_chosen"  # released: the customer chose another date
    EXPIRED = "expired"
    EXTENDED = "extended"  # told to the next in line: the hold ahead has a new deadline
    REMINDER = "reminder"  # 24 h before a deadline
    DIGEST = "digest"  # Monday: this week's deadlines
    MANAGER_DIGEST = "manager_digest"  # Monday, to managers: the whole venue's week
    QUEUED = "queued"  # told to a 1st: a 2nd now waits behind it
    CANCELLED = "cancelled"  # a manager cancelled the booking: who, and why
    ACTED_FOR = "acted_for"  # someone else acted on the salesperson's hold: who, what, why
    NEXT_ACTION = "next_action"  # the morning of a booking's next action (issue 25)
    # 回答の催促: the 1st is told who asks and its new deadline; the waiting hold's
    # salesperson, that it was sent (``payload["to"]``: "first" or "asker")
    NUDGED = "nudged"
    DEPOSIT_REMINDER = "deposit_reminder"  # 予約金: its due date is 3 days away (once)
    DEPOSIT_OVERDUE = "deposit_overdue"  # 予約金: past due and unpaid (once)
    WINDOW_OPEN = "window_open"  # 開放日に知らせる: the date is open for banquets now
    CARD = "card"  # the hold's card in the channel: redrawn, and one line in its thread


# A card row's recipient: the channel the card sits in, found at delivery (``CardSpot``).
CARD_RECIPIENT = "#card"
# A queued hold's row before delivery: its recipients are the salespeople of the holds ahead
# that are still 1st when it is delivered, each told by a row of its own (``resolve_queued``).
QUEUED_RECIPIENT = "#firsts"


@dataclass(frozen=True)
class CardSpot:
    """Where a hold's card sits: a Slack channel and ts (the console's own without Slack)."""

    channel: str
    ts: str
    lines: frozenset[int] = frozenset()  # the card rows whose line is in its thread


@dataclass(frozen=True)
class NewNotice:
    """A notice to write: the journal makes these from events (see ``core.journal``)."""

    kind: str
    recipient: str
    payload: Mapping[str, Any]
    hold_id: int | None = None
    dedupe_key: str | None = None  # at most one row per key and venue (reminders, digests)


@dataclass(frozen=True)
class Notice:
    """An outbox row as delivery sees it: what to say, to whom, and how delivery went."""

    venue_id: str
    id: int
    kind: str
    hold_id: int | None
    recipient: str
    payload: dict[str, Any]
    status: str
    attempts: int
    available_at: datetime
    last_error: str | None
    sent_at: datetime | None
    sent_channel: str | None
    sent_ref: str | None
    created_at: datetime
