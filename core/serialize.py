"""Holds as JSON-ready dicts: outbox payloads, idempotent answers, ``--json`` output."""

from __future__ import annotations

from datetime import date, datetime, tzinfo
from typing import Any

from core.booking import booking_number
from core.deposits import Deposit
from core.model import Details, Hold, HoldItem, Kind, Outcome, Status


def hold_to_json(hold: Hold) -> dict[str, Any]:
    """Every field; the room and time fields are its first item's, ``items`` has them all."""
    return {
        "id": hold.id,
        "venue_id": hold.venue_id,
        "room_id": hold.room_id,
        "room_name": hold.room_name,
        "parts": sorted(hold.parts),
        "local_date": hold.local_date.isoformat(),
        "start_at": hold.start_at.isoformat(),
        "end_at": hold.end_at.isoformat(),
        "span_end": hold.span_end.isoformat(),
        "kind": hold.kind.value,
        "customer": hold.customer,
        "note": hold.note,
        "salesperson": hold.salesperson,
        "creator": hold.creator,
        "status": hold.status.value,
        "rank": hold.rank,
        "expires_at": _iso(hold.expires_at),
        "extensions_used": hold.extensions_used,
        "created_at": hold.created_at.isoformat(),
        "updated_at": hold.updated_at.isoformat(),
        "enquiry_id": hold.enquiry_id,
        "items": [item_to_json(item) for item in hold.items],
        "version": hold.version,
        # What the ledger row carried (0004): ``kind`` above stays the class the rules use.
        "kind_id": hold.kind_id,
        "kind_name": hold.kind_name,
        "guests": hold.guests,
        "contact": hold.contact,
        "outcome": hold.outcome.value if hold.outcome else None,
        # What else the ledger row carries (0011): the booking's, every candidate date's.
        **details_to_json(hold.details),
        # One booking number for life (issue 25): the enquiry's, never a hold id.
        "booking": booking_number(hold.enquiry_id),
        # The salesperson by name (never Slack markup): else their id.
        "salesperson_name": hold.salesperson_name or hold.salesperson,
        "reason": hold.reason,
        "reason_note": hold.reason_note,
        "nudged_at": _iso(hold.nudged_at),
        **deposit_to_json(hold.deposit),
        "house": hold.house,  # 社内押さえ (0014): the venue's own use, counted apart
    }


def deposit_to_json(deposit: Deposit) -> dict[str, Any]:
    """予約金 (0015): due date (null: none due), when and by whom recorded paid, how much."""
    return {
        "deposit_due": deposit.due.isoformat() if deposit.due else None,
        "deposit_paid_at": _iso(deposit.paid_at),
        "deposit_amount": deposit.amount,
        "deposit_paid_by": deposit.paid_by or None,
    }


def deposit_from_json(data: dict[str, Any]) -> Deposit:
    """What ``deposit_to_json`` wrote; a payload from before 0015 has none."""
    due = data.get("deposit_due")
    return Deposit(
        due=date.fromisoformat(due) if due else None,
        paid_at=_parse(data.get("deposit_paid_at")),
        paid_by=data.get("deposit_paid_by") or "",
        amount=data.get("deposit_amount"),
    )


def details_to_json(details: Details) -> dict[str, Any]:
    return {
        "estimate": details.estimate,
        "plan": details.plan,
        "source": details.source,
        "next_action": details.next_action.isoformat() if details.next_action else None,
        "next_action_note": details.next_action_note,
    }


def details_from_json(data: dict[str, Any]) -> Details:
    """What ``details_to_json`` wrote; a payload from before 0011 has none."""
    action = data.get("next_action")
    return Details(
        estimate=data.get("estimate"),
        plan=data.get("plan", ""),
        source=data.get("source", ""),
        next_action=date.fromisoformat(action) if action else None,
        next_action_note=data.get("next_action_note", ""),
    )


def hold_summary(hold: Hold, tz: tzinfo, item_ranks: tuple[int, ...] = ()) -> dict[str, Any]:
    """The CLI's short form, times in the venue's zone: status, rank, deadline, enquiry and
    each item (``item_ranks``: the ranks as first answered, for a request's answer)."""
    ranks: tuple[int | None, ...] = item_ranks or tuple(item.rank for item in hold.items)
    return {
        "id": hold.id,
        "status": hold.status.value,
        "rank": hold.rank,
        "expires_at": hold.expires_at.astimezone(tz).isoformat() if hold.expires_at else None,
        "enquiry": hold.enquiry_id,
        "booking": booking_number(hold.enquiry_id),
        "local_date": hold.local_date.isoformat(),
        "house": hold.house,
        "items": [
            {
                "room": item.room_id,
                "start": item.start_at.astimezone(tz).isoformat(),
                "end": item.end_at.astimezone(tz).isoformat(),
                "rank": rank,
            }
            for item, rank in zip(hold.items, ranks, strict=True)
        ],
    }


def item_to_json(item: HoldItem) -> dict[str, Any]:
    return {
        "room_id": item.room_id,
        "room_name": item.room_name,
        "parts": sorted(item.parts),
        "start_at": item.start_at.isoformat(),
        "end_at": item.end_at.isoformat(),
        "span_end": item.span_end.isoformat(),
        "rank": item.rank,
    }


def hold_from_json(data: dict[str, Any]) -> Hold:
    """Reads what ``hold_to_json`` wrote, also before holds had items (older outbox rows)."""
    return Hold(
        id=data["id"],
        venue_id=data["venue_id"],
        room_id=data["room_id"],
        room_name=data["room_name"],
        parts=frozenset(data["parts"]),
        local_date=date.fromisoformat(data["local_date"]),
        start_at=datetime.fromisoformat(data["start_at"]),
        end_at=datetime.fromisoformat(data["end_at"]),
        span_end=datetime.fromisoformat(data["span_end"]),
        kind=Kind(data["kind"]),
        customer=data["customer"],
        note=data["note"],
        salesperson=data["salesperson"],
        creator=data["creator"],
        status=Status(data["status"]),
        rank=data["rank"],
        expires_at=_parse(data["expires_at"]),
        extensions_used=data["extensions_used"],
        created_at=datetime.fromisoformat(data["created_at"]),
        updated_at=datetime.fromisoformat(data["updated_at"]),
        enquiry_id=data.get("enquiry_id", 0),
        items=tuple(_item_from_json(i) for i in data.get("items", ())),
        version=data.get("version", 0),
        kind_id=data.get("kind_id", ""),
        kind_name=data.get("kind_name", ""),
        guests=data.get("guests"),
        contact=data.get("contact", ""),
        outcome=Outcome(data["outcome"]) if data.get("outcome") else None,
        details=details_from_json(data),
        salesperson_name=_name(data),
        nudged_at=_parse(data.get("nudged_at")),
        deposit=deposit_from_json(data),
        house=bool(data.get("house", False)),
    )


def _item_from_json(data: dict[str, Any]) -> HoldItem:
    return HoldItem(
        room_id=data["room_id"],
        room_name=data["room_name"],
        parts=frozenset(data["parts"]),
        start_at=datetime.fromisoformat(data["start_at"]),
        end_at=datetime.fromisoformat(data["end_at"]),
        span_end=datetime.fromisoformat(data["span_end"]),
        rank=data["rank"],
    )


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _parse(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _name(data: dict[str, Any]) -> str:
    """The name as read: JSON shows the id where no name is known, which reads back as none."""
    name = str(data.get("salesperson_name") or "")
    return "" if name == data["salesperson"] else name
