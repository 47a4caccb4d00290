"""The journal: events written down as audit events and outbox notices, in the same transaction.

Operations record events as they go; the runner flushes the journal once the operation has
answered, so a change, its trail and its notices commit together or not at all (a refusal
rolls back and flushes nothing). This module is the one place that says what each event
leaves behind.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from core import events
from core.events import SYSTEM, Action, AuditEvent, Event
from core.model import Hold
from core.notices import CARD_RECIPIENT, QUEUED_RECIPIENT, NewNotice, Notice, NoticeKind
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


def audit_event(event: Event, at: datetime) -> AuditEvent | None:  # noqa: PLR0911 - one per kind
    """The audit event an event leaves (None for reminders and digests)."""
    match event:
        case events.Requested():
            detail = {
                "rank": event.rank,
                "expires_at": _iso(event.expires_at),
                "items": [{"room": room, "rank": rank} for room, rank in event.items],
            }
            return AuditEvent(None, event.actor, Action.REQUESTED, at, detail)
        case events.Confirmed():
            released, candidates = [*event.released], [*event.candidates]
            return _on(
                event.hold,
                event.actor,
                Action.CONFIRMED,
                at,
                released=released,
                candidates=candidates,
            )
        case events.Lost():
            return _on(event.hold, event.actor, Action.LOST, at, winner=event.winner.id)
        case events.OtherDateChosen():
            chosen = event.chosen.id
            return _on(event.hold, event.actor, Action.OTHER_DATE_CHOSEN, at, chosen=chosen)
        case events.Released():
            return _on(event.hold, event.actor, Action.RELEASED, at, rank=event.hold.rank)
        case events.Extended():
            new = event.expires_at.isoformat()
            return _on(event.hold, event.actor, Action.EXTENDED, at, expires_at=new)
        case events.Cancelled():
            return _on(event.hold, event.actor, Action.CANCELLED, at, reason=event.reason)
        case events.Promoted():
            expires = _iso(event.hold.expires_at)
            return _on(event.hold, event.actor, Action.PROMOTED, at, expires_at=expires)
        case events.Expired():
            return _on(event.hold, SYSTEM, Action.EXPIRED, at)
        case events.Edited():
            return _on(
                event.before,
                event.actor,
                Action.EDITED,
                at,
                kept_place=event.kept_place,
                now_id=event.after.id,
                before=_as_edited(event.before),
                after=_as_edited(event.after),
            )
        case (
            events.ReminderDue()
            | events.DigestDue()
            | events.ManagerDigestDue()
            | events.Announced()
            | events.Queued()
        ):
            return None


def notices_of(event: Event, now: datetime) -> list[NewNotice]:
    """The notices an event sends, each to the salesperson it concerns, and the update of
    the hold's card in the channel."""
    return _dms(event, now) + _cards(event)


def _dms(event: Event, now: datetime) -> list[NewNotice]:  # noqa: PLR0911 - one per kind
    match event:
        case events.Lost():
            return [_notice(NoticeKind.LOST, event.hold, winner=event.winner)]
        case events.OtherDateChosen():
            return [_notice(NoticeKind.OTHER_DATE_CHOSEN, event.hold, chosen=event.chosen)]
        case events.Extended():
            return [_notice(NoticeKind.EXTENDED, h, ahead=event.extended) for h in event.behind]
        case events.Promoted():
            # A hold whose event has begun moves up with a deadline already due: no Confirm
            # button could work, so it gets no DM; the next sweep expires it and says so.
            if event.hold.is_due(now):
                return []
            after = list(event.after)
            return [_notice(NoticeKind.PROMOTED, event.hold, cause=event.cause, after=after)]
        case events.Expired():
            return [_notice(NoticeKind.EXPIRED, event.hold)]
        case events.ReminderDue():
            stamp = _iso(event.hold.expires_at) or ""
            key = f"reminder:{event.hold.id}:{stamp}"
            return [_notice(NoticeKind.REMINDER, event.hold, dedupe_key=key)]
        case events.DigestDue():
            return [_digest(event)]
        case events.ManagerDigestDue():
            return [_manager_digest(event)]
        case events.Cancelled():
            # A manager's act: its salesperson hears who cancelled and why.
            hold = event.hold
            return [_notice(NoticeKind.CANCELLED, hold, actor=event.actor, reason=event.reason)]
        case events.Queued():
            # Whom to tell is read at delivery (``told_queued``): one row names them all.
            payload = {"hold": hold_to_json(event.hold), "ahead": list(event.ahead)}
            key = f"queued:{event.hold.id}"
            return [
                NewNotice(NoticeKind.QUEUED.value, QUEUED_RECIPIENT, payload, event.hold.id, key)
            ]
        case _:
            return []


def told_queued(queued: Notice, firsts: Sequence[Hold]) -> list[NewNotice]:
    """A queued hold's row (``QUEUED_RECIPIENT``) resolved: one notice to each of ``firsts``
    (the holds it names that are still 1st), saying which hold waits behind it (as the row
    has it). A 1st's salesperson is told once per waiting hold, however often this runs."""
    behind = queued.payload["hold"]
    return [
        _notice(
            NoticeKind.QUEUED,
            first,
            dedupe_key=f"queued:{first.id}:{queued.hold_id}",
            behind=behind,
        )
        for first in firsts
    ]


def _cards(event: Event) -> list[NewNotice]:  # noqa: PLR0911 - one per kind
    """A hold's change redraws its card and adds one line to its thread (``kind`` card)."""
    match event:
        case events.Announced():
            return [_card(Action.REQUESTED, event.hold, event.actor)]
        case events.Confirmed():
            return [_card(Action.CONFIRMED, event.hold, event.actor)]
        case events.Lost():
            return [_card(Action.LOST, event.hold, event.actor, winner=event.winner)]
        case events.OtherDateChosen():
            return [_card(Action.OTHER_DATE_CHOSEN, event.hold, event.actor, chosen=event.chosen)]
        case events.Released():
            return [_card(Action.RELEASED, event.hold, event.actor)]
        case events.Extended():
            return [_card(Action.EXTENDED, event.extended, event.actor)]
        case events.Cancelled():
            return [_card(Action.CANCELLED, event.hold, event.actor, reason=event.reason)]
        case events.Promoted():
            hold = event.hold
            after = list(event.after)
            return [_card(Action.PROMOTED, hold, event.actor, cause=event.cause, after=after)]
        case events.Expired():
            return [_card(Action.EXPIRED, event.hold, SYSTEM)]
        case events.Edited() if event.kept_place:
            return [_card(Action.EDITED, event.after, event.actor, before=event.before)]
        case events.Edited():
            # Swapped: the old card shows it released, replaced by the new hold (whose card
            # its surface posts, or the jobs when asked to: ``Announced``).
            return [_card(Action.EDITED, event.before, event.actor, replaced_by=event.after)]
        case _:
            return []


def _card(action: Action, hold: Hold, actor: str, **extra: Any) -> NewNotice:
    """The payload names what happened, who did it and the hold as the event saw it; the
    card itself is drawn from the hold as it is when the row is delivered."""
    payload: dict[str, Any] = {"event": action.value, "actor": actor, "hold": hold_to_json(hold)}
    for key, value in extra.items():
        payload[key] = hold_to_json(value) if isinstance(value, Hold) else value
    return NewNotice(NoticeKind.CARD.value, CARD_RECIPIENT, payload, hold.id)


def _on(hold: Hold, actor: str, action: Action, at: datetime, **detail: Any) -> AuditEvent:
    return AuditEvent(hold.id, actor, action, at, detail)


def _notice(kind: NoticeKind, hold: Hold, dedupe_key: str | None = None, **extra: Any) -> NewNotice:
    payload = {"hold": hold_to_json(hold)}
    for key, value in extra.items():
        payload[key] = hold_to_json(value) if isinstance(value, Hold) else value
    return NewNotice(kind.value, hold.salesperson, payload, hold.id, dedupe_key)


def _digest(event: events.DigestDue) -> NewNotice:
    return NewNotice(
        kind=NoticeKind.DIGEST.value,
        recipient=event.salesperson,
        payload={
            "holds": [hold_to_json(h) for h in event.holds],
            "week": event.week,
            "from": event.start.isoformat(),
            "until": event.until.isoformat(),
        },
        dedupe_key=f"digest:{event.salesperson}:{event.week}",
    )


def _as_edited(hold: Hold) -> dict[str, Any]:
    """What an edit may change, and the place it had: the before and after of the trail."""
    return {
        "id": hold.id,
        "local_date": hold.local_date.isoformat(),
        "items": [
            {"room": i.room_id, "start_at": i.start_at.isoformat(), "end_at": i.end_at.isoformat()}
            for i in hold.items
        ],
        "customer": hold.customer,
        "note": hold.note,
        "salesperson": hold.salesperson,
        "status": hold.status.value,
        "rank": hold.rank,
        "expires_at": _iso(hold.expires_at),
    }


def _manager_digest(event: events.ManagerDigestDue) -> NewNotice:
    waiting = [
        {"hold": hold_to_json(h), "ahead": [hold_to_json(a) for a in ahead]}
        for h, ahead in event.waiting
    ]
    return NewNotice(
        kind=NoticeKind.MANAGER_DIGEST.value,
        recipient=event.manager,
        payload={
            "holds": [hold_to_json(h) for h in event.holds],
            "waiting": waiting,
            "week": event.week,
            "from": event.start.isoformat(),
            "until": event.until.isoformat(),
        },
        dedupe_key=f"manager-digest:{event.manager}:{event.week}",
    )


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None
