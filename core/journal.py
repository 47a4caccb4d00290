"""The journal: events written down as audit events and outbox notices, in the same transaction.

Operations record events as they go; the runner flushes the journal once the operation has
answered, so a change, its trail and its notices commit together or not at all (a refusal
rolls back and flushes nothing). What each kind of event leaves behind is declared once, in
``core.event_kinds``; this module writes it down.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from core.event_kinds import Dm, Redraw, kind_of, told
from core.events import Action, AuditEvent, Event
from core.model import Hold
from core.notices import CARD_RECIPIENT, NewNotice, Notice, NoticeKind
from core.serialize import hold_to_json
from core.store import audit, outbox


class Journal:
    """The events of one transaction of one venue, until they are flushed."""

    def __init__(self, conn: sa.Connection, venue_id: str, now: datetime) -> None:
        self._conn = conn
        self._venue_id = venue_id
        self._now = now
        self._pending: list[Event] = []

    def record(self, *happened: Event) -> None:
        self._pending.extend(happened)

    def flush(self) -> int:
        """Write what was recorded since the last flush; returns the outbox rows written
        (a notice whose dedupe key is taken is skipped: reminders and digests go once)."""
        pending, self._pending = self._pending, []
        notices = [n for e in pending for n in notices_of(e, self._now)]
        written = outbox.add(self._conn, self._venue_id, notices, self._now)
        trail = [a for a in (audit_event(e, self._now) for e in pending) if a is not None]
        audit.record(self._conn, self._venue_id, trail)
        return written


def audit_event(event: Event, at: datetime) -> AuditEvent | None:
    """The audit event an event leaves (None for reminders, digests, queued and announced)."""
    trail = kind_of(event).trail
    if trail is None:
        return None
    action, line_of = trail
    line = line_of(event)
    hold_id = line.hold.id if line.hold is not None else None
    return AuditEvent(hold_id, line.actor, action, at, dict(line.detail))


def notices_of(event: Event, now: datetime) -> list[NewNotice]:
    """The notices an event sends, each to the salesperson it concerns, and the update of
    the hold's card in the channel."""
    kind = kind_of(event)
    notices = []
    if kind.dms is not None:
        notice_kind, dms_of = kind.dms
        notices += [_row(notice_kind, dm) for dm in dms_of(event, now)]
    if kind.card is not None:
        action, redraw_of = kind.card
        notices.append(_card(action, redraw_of(event)))
    return notices


def told_queued(queued: Notice, firsts: Sequence[Hold]) -> list[NewNotice]:
    """A queued hold's row (``QUEUED_RECIPIENT``) resolved: one notice to each of ``firsts``
    (the holds it names that are still 1st), saying which hold waits behind it (as the row
    has it). A 1st's salesperson is told once per waiting hold, however often this runs."""
    behind = queued.payload["hold"]
    dms = [told(first, f"queued:{first.id}:{queued.hold_id}", behind=behind) for first in firsts]
    return [_row(NoticeKind.QUEUED, dm) for dm in dms]


def _row(kind: NoticeKind, dm: Dm) -> NewNotice:
    return NewNotice(kind.value, dm.recipient, dm.payload, dm.hold_id, dm.dedupe_key)


def _card(action: Action, redraw: Redraw) -> NewNotice:
    """The payload names what happened, who did it and the hold as the event saw it; the
    card itself is drawn from the hold as it is when the row is delivered."""
    hold = redraw.hold
    payload: dict[str, Any] = {"event": action.value, "actor": redraw.actor}
    payload["hold"] = hold_to_json(hold)
    for key, value in redraw.extra.items():
        payload[key] = hold_to_json(value) if isinstance(value, Hold) else value
    return NewNotice(NoticeKind.CARD.value, CARD_RECIPIENT, payload, hold.id)
