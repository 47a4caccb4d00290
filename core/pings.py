"""The window ping (開放日に知らせる): a banquet refused because its date's banquet window is
not open yet, kept with who asked, and told to them when the window opens (DESIGN.md, The
manager's pipeline). The request is kept as the form had it, so the DM's button opens the
form filled in; the contact is left out (the list is shown to managers too)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from core.model import HoldRequest, ItemRequest


class PingStatus(StrEnum):
    WAITING = "waiting"  # the window has not opened yet
    SENT = "sent"  # told (its DM is in the outbox)
    DROPPED = "dropped"  # its asker or a manager no longer wants it


@dataclass(frozen=True)
class WindowPing:
    """One ask: who asked, when, and the request as it was refused."""

    id: int
    venue_id: str
    asker: str
    request: HoldRequest
    asked_at: datetime
    status: PingStatus = PingStatus.WAITING
    opens_at: datetime | None = None  # when the date's banquet window opens (None: open)
    done_at: datetime | None = None  # when it was sent or dropped
    dropped_by: str | None = None

    @property
    def day(self) -> date:
        return self.request.local_date

    def may_drop(self, user: str, managers: frozenset[str]) -> bool:
        """Its asker or a manager of the venue."""
        return user == self.asker or user in managers


@dataclass(frozen=True)
class PingAnswer:
    """A ping kept (``replayed``: the same asker had asked for the same already)."""

    ping: WindowPing
    replayed: bool = False


def request_to_json(req: HoldRequest) -> dict[str, Any]:
    """What the form had (the contact left out)."""
    return {
        "room_id": req.room_id,
        "local_date": req.local_date.isoformat(),
        "start_min": req.start_min,
        "end_min": req.end_min,
        "kind": req.kind,
        "customer": req.customer,
        "salesperson": req.salesperson,
        "creator": req.creator,
        "note": req.note,
        "guests": req.guests,
        "also": [[i.room_id, i.start_min, i.end_min] for i in req.also],
    }


def request_from_json(data: dict[str, Any]) -> HoldRequest:
    return HoldRequest(
        room_id=data["room_id"],
        local_date=date.fromisoformat(data["local_date"]),
        start_min=int(data["start_min"]),
        end_min=int(data["end_min"]),
        kind=data["kind"],
        customer=data["customer"],
        salesperson=data["salesperson"],
        creator=data.get("creator", ""),
        note=data.get("note", ""),
        guests=data.get("guests"),
        also=tuple(ItemRequest(str(r), int(s), int(e)) for r, s, e in data.get("also", [])),
    )


def ping_to_json(ping: WindowPing) -> dict[str, Any]:
    """``osae ping list --json`` and the DM's payload."""
    req = ping.request
    return {
        "id": ping.id,
        "venue_id": ping.venue_id,
        "asker": ping.asker,
        "asked_at": ping.asked_at.isoformat(),
        "status": ping.status.value,
        "opens_at": ping.opens_at.isoformat() if ping.opens_at else None,
        "done_at": ping.done_at.isoformat() if ping.done_at else None,
        "dropped_by": ping.dropped_by,
        "request": request_to_json(req),
    }


def ping_from_json(data: dict[str, Any]) -> WindowPing:
    def when(key: str) -> datetime | None:
        value = data.get(key)
        return datetime.fromisoformat(value) if value else None

    asked_at = when("asked_at")
    assert asked_at is not None  # noqa: S101 - every ping has been asked
    return WindowPing(
        id=int(data["id"]),
        venue_id=data["venue_id"],
        asker=data["asker"],
        request=request_from_json(data["request"]),
        asked_at=asked_at,
        status=PingStatus(data.get("status", "waiting")),
        opens_at=when("opens_at"),
        done_at=when("done_at"),
        dropped_by=data.get("dropped_by"),
    )
