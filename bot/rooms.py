"""Rooms as the modal's menu groups them: whole rooms, their partitions, and the others."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from core.model import Room


@dataclass(frozen=True)
class RoomGroups:
    whole: tuple[Room, ...]  # sold whole, and also in parts (鳳凰の間)
    partitions: tuple[Room, ...]  # a strict part of another room (鳳凰A, 鳳凰B)
    others: tuple[Room, ...]  # neither (桜の間, チャペル)


def group_rooms(rooms: Iterable[Room]) -> RoomGroups:
    """A room whose parts are a strict subset of another's is a partition; a room that has
    partitions is whole; the rest are others. Inactive rooms are left out; venue-file order.
    """
    active = sorted((r for r in rooms if r.active), key=lambda r: (r.position, r.id))
    partitions = [r for r in active if any(r.parts < other.parts for other in active)]
    whole = [
        r for r in active if r not in partitions and any(other.parts < r.parts for other in active)
    ]
    others = [r for r in active if r not in partitions and r not in whole]
    return RoomGroups(tuple(whole), tuple(partitions), tuple(others))
