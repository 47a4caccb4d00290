"""The notices the engine writes to the outbox, and the audit events beside them."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from core.model import Hold
from core.serialize import hold_to_json
from core.store.audit import Event
from core.store.outbox import NewNotice

SYSTEM = "system"  # the actor of sweeps and promotions nobody clicked


class NoticeKind(StrEnum):
    PROMOTED = "promoted"  # now 1st: Confirm / Release buttons and a deadline
    LOST = "lost"  # released because another hold was confirmed
    EXPIRED = "expired"
    EXTENDED = "extended"  # told to the next in line: the hold ahead has a new deadline
    REMINDER = "reminder"  # 24 h before a deadline
    DIGEST = "digest"  # Monday: this week's deadlines


def notice(kind: NoticeKind, hold: Hold, **extra: Any) -> NewNotice:
    payload: dict[str, Any] = {"hold": hold_to_json(hold)}
    payload.update({k: hold_to_json(v) if isinstance(v, Hold) else v for k, v in extra.items()})
    return NewNotice(kind=kind.value, recipient=hold.salesperson, payload=payload, hold_id=hold.id)


def event(hold: Hold | int, actor: str, action: str, at: datetime, **detail: Any) -> Event:
    hold_id = hold if isinstance(hold, int) else hold.id
    return Event(hold_id=hold_id, actor=actor, action=action, at=at, detail=detail)
