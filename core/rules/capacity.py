"""More guests than a room seats (docs/rules.md, Requests): a warning, never a refusal (the
salesperson may know better: a standing reception, a room set theatre-style)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from core.model import Room
from core.results import RequestWarning, WarningCode


def over_capacity(
    rooms: Mapping[str, Room], room_ids: Iterable[str], guests: int | None
) -> tuple[RequestWarning, ...]:
    """One warning per room of a hold (a package: each room on its own) whose capacity the
    venue file gives and ``guests`` exceed, in the hold's order."""
    if guests is None:
        return ()
    warned: list[RequestWarning] = []
    for room_id in dict.fromkeys(room_ids):
        room = rooms.get(room_id)
        if room is None or room.capacity is None or guests <= room.capacity:
            continue
        warned.append(
            RequestWarning(
                WarningCode.OVER_CAPACITY,
                "",
                (),
                room=room.id,
                room_name=room.name,
                capacity=room.capacity,
                guests=guests,
            )
        )
    return tuple(warned)
