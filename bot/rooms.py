"""Rooms as the modal's menu groups them: whole rooms, their partitions, and the others; and
the rooms a few typed letters find, for the type-ahead menu of a venue with many rooms."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from core.model import Room


@dataclass(frozen=True)
class RoomGroups:
    whole: tuple[Room, ...]  # sold whole, and also in parts (鳳凰の間)
    partitions: tuple[Room, ...]  # a strict part of another room (鳳凰A, 鳳凰B)
    others: tuple[Room, ...]  # neither (桜の間, チャペル)

    @property
    def count(self) -> int:
        return len(self.whole) + len(self.partitions) + len(self.others)

    def labelled(self) -> list[tuple[str, tuple[Room, ...]]]:
        """(catalog key of the group's label, its rooms) for the groups that have rooms."""
        named = [
            ("rooms.whole", self.whole),
            ("rooms.partition", self.partitions),
            ("rooms.other", self.others),
        ]
        return [(key, rooms) for key, rooms in named if rooms]

    def matching(self, typed: str, limit: int) -> RoomGroups:
        """The rooms whose name or id contains ``typed`` (width and case folded), names that
        begin with it first, at most ``limit`` in all."""
        query = fold(typed.strip())
        ranked = sorted(
            (
                (0 if fold(r.name).startswith(query) or fold(r.id).startswith(query) else 1, i, r)
                for i, r in enumerate((*self.whole, *self.partitions, *self.others))
                if query in fold(r.name) or query in fold(r.id)
            ),
            key=lambda found: found[:2],
        )
        kept = {r.id for _, _, r in ranked[:limit]}
        return RoomGroups(
            tuple(r for r in self.whole if r.id in kept),
            tuple(r for r in self.partitions if r.id in kept),
            tuple(r for r in self.others if r.id in kept),
        )


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


def fold(text: str) -> str:
    """Full-width and half-width alike, case ignored: how typed names are compared."""
    return unicodedata.normalize("NFKC", text).casefold()
