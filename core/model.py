"""The hold engine's vocabulary: venues, rooms, holds, policy (docs/rules.md, Vocabulary)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from enum import StrEnum
from types import MappingProxyType
from zoneinfo import ZoneInfo


class Kind(StrEnum):
    WEDDING = "wedding"  # 婚礼
    BANQUET = "banquet"  # 一般宴会


class Status(StrEnum):
    TENTATIVE = "tentative"  # 仮
    CONFIRMED = "confirmed"  # 本予約
    RELEASED = "released"  # 取り下げ / lost to another's confirmation
    EXPIRED = "expired"  # 期限切れ
    CANCELLED = "cancelled"  # 本予約の取消


LIVE = frozenset({Status.TENTATIVE, Status.CONFIRMED})


def _default_hold_days() -> Mapping[Kind, int]:
    return MappingProxyType({Kind.WEDDING: 7, Kind.BANQUET: 3})


@dataclass(frozen=True)
class Policy:
    """A venue's rules; every field's default is the one docs/rules.md states."""

    max_rank: int = 2
    hold_days: Mapping[Kind, int] = field(default_factory=_default_hold_days)
    banquet_open_days: int = 90
    priority_days: tuple[str, ...] = ("weekends", "jp_holidays")
    max_extensions: int = 1
    horizon_days: int = 730
    show_rokuyo: bool = True  # 六曜 beside dates; a venue may turn the display off

    def days_for(self, kind: Kind) -> int:
        return self.hold_days[kind]


@dataclass(frozen=True)
class Room:
    id: str
    name: str
    parts: frozenset[str]
    turnover_min: int = 60
    position: int = 0  # order in the venue file, for menus
    active: bool = True  # False once the venue file no longer lists it


@dataclass(frozen=True)
class Venue:
    id: str
    name: str
    timezone: str
    managers: frozenset[str]
    policy: Policy
    rooms: Mapping[str, Room]
    revision: int = 0  # the stored row's save counter (0: not stored yet)

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def is_manager(self, user: str) -> bool:
        return user in self.managers


@dataclass(frozen=True)
class Hold:
    """One hold as stored, with its room's name and parts for display and rules."""

    id: int
    venue_id: str
    room_id: str
    room_name: str
    parts: frozenset[str]
    local_date: date
    start_at: datetime
    end_at: datetime
    span_end: datetime  # end_at + the room's turnover at request time
    kind: Kind
    customer: str
    note: str
    salesperson: str
    creator: str
    status: Status
    rank: int | None  # tentative holds only
    expires_at: datetime | None  # 1st holds only
    extensions_used: int
    created_at: datetime
    updated_at: datetime

    @property
    def is_first(self) -> bool:
        return self.status is Status.TENTATIVE and self.rank == 1

    @property
    def is_blocking(self) -> bool:
        """Confirmed and 1st holds: the ones the EXCLUDE constraint keeps apart."""
        return self.status is Status.CONFIRMED or self.is_first

    def is_due(self, now: datetime) -> bool:
        """A 1st hold whose deadline has come: from ``now == expires_at`` on, confirm and
        extend are refused and the sweep expires it (docs/rules.md, Deadlines)."""
        return self.is_first and self.expires_at is not None and now >= self.expires_at

    def left(self, status: Status, now: datetime) -> Hold:
        """This hold as ``leave`` stores it: no longer live, no rank, no deadline."""
        return replace(self, status=status, rank=None, expires_at=None, updated_at=now)

    def may_act(self, user: str, venue: Venue) -> bool:
        """Confirm / release / extend: its salesperson, its creator or a manager."""
        return user in (self.salesperson, self.creator) or venue.is_manager(user)


@dataclass(frozen=True)
class HoldRequest:
    """What a salesperson asks for, in venue-local terms.

    ``start_min`` counts minutes from the local midnight of ``local_date``; ``end_min`` too, so
    an event that runs past midnight has ``end_min`` above 1440 (see ``rules.times``).
    """

    room_id: str
    local_date: date
    start_min: int
    end_min: int
    kind: str
    customer: str
    salesperson: str
    creator: str
    note: str = ""
