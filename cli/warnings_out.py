"""A request's or an edit's warnings in the terminal (never refusals): the same customer
elsewhere, guests over a room's capacity (with the room and its ``capacity``)."""

from __future__ import annotations

from typing import Any

from bot.texts.refusals import describe_warning
from cli.context import locale
from core.model import Hold, HoldEdit, Venue
from core.results import RequestWarning, WarningCode
from core.rules.capacity import over_capacity


def warning_json(warning: RequestWarning, message: str) -> dict[str, Any]:
    """``{"code", "message", "holds"}``, and for ``over_capacity`` the room, its capacity
    and the guests."""
    said: dict[str, Any] = {
        "code": warning.code.value,
        "message": message,
        "holds": [h.id for h in warning.holds],
    }
    if warning.code is WarningCode.OVER_CAPACITY:
        said |= {"room": warning.room, "capacity": warning.capacity, "guests": warning.guests}
    return said


def edit_warnings(
    hold: Hold, venue: Venue, change: HoldEdit | None = None
) -> tuple[list[dict[str, Any]], list[str]]:
    """An edited hold's guests over any of its rooms' capacity: JSON and the lines. With
    ``change`` (a dry run), the rooms and guests the hold as it stands would have after it."""
    rooms = [i.room_id for i in hold.items]
    guests = hold.guests
    if change is not None:
        which = change.item_room or (rooms[0] if len(rooms) == 1 else None)
        rooms = [change.room_id if change.room_id and r == which else r for r in rooms]
        guests = change.guests if change.guests is not None else guests
    found = over_capacity(venue.rooms, rooms, guests)
    messages = [describe_warning(w, venue.tz, locale()) for w in found]
    said = [warning_json(w, m) for w, m in zip(found, messages, strict=True)]
    return said, [f"! {m}" for m in messages]
