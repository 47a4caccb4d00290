"""Test data with defaults, so a test says only what matters to it."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from core.model import HoldRequest, Kind, Policy, Room, Venue
from core.notices import Notice, NoticeKind

JST = ZoneInfo("Asia/Tokyo")
NOW = datetime(2027, 3, 1, 9, 0, tzinfo=JST)  # a Monday morning
DAY = date(2027, 3, 10)  # a Wednesday, not a holiday: banquets open at any distance
MANAGER = "U0MANAGER1"
SALES = "U0SALES001"

_counter = itertools.count(1)


def rooms(**turnover: int) -> dict[str, Room]:
    """A ballroom 鳳凰 sold whole {A1, A2} or as halves, a room 桜 and a chapel."""
    spec = [
        ("hoo", "鳳凰の間", {"A1", "A2"}),
        ("hoo-a", "鳳凰A", {"A1"}),
        ("hoo-b", "鳳凰B", {"A2"}),
        ("sakura", "桜の間", {"S1"}),
        ("chapel", "チャペル", {"C1"}),
    ]
    return {
        rid: Room(rid, name, frozenset(parts), turnover.get(rid.replace("-", "_"), 60), i)
        for i, (rid, name, parts) in enumerate(spec)
    }


def venue(policy: Policy | None = None, **fields: Any) -> Venue:
    values: dict[str, Any] = {
        "id": f"v-{uuid.uuid4().hex[:10]}",
        "name": "Grand Test Hotel",
        "timezone": "Asia/Tokyo",
        "managers": frozenset({MANAGER}),
        "policy": policy or Policy(),
        "rooms": rooms(),
    }
    values.update(fields)
    return Venue(**values)


def request(
    room: str = "hoo",
    day: date = DAY,
    start: str = "11:00",
    end: str = "15:00",
    kind: Kind | str = Kind.WEDDING,
    customer: str | None = None,
    salesperson: str = SALES,
    creator: str | None = None,
    note: str = "",
) -> HoldRequest:
    start_min, end_min = minutes(start), minutes(end)
    if end_min <= start_min:
        end_min += 1440
    return HoldRequest(
        room_id=room,
        local_date=day,
        start_min=start_min,
        end_min=end_min,
        kind=str(kind),
        customer=customer or f"顧客{next(_counter)}様",
        salesperson=salesperson,
        creator=creator or salesperson,
        note=note,
    )


def minutes(clock: str) -> int:
    hours, mins = clock.split(":")
    return int(hours) * 60 + int(mins)


def later(now: datetime = NOW, **delta: float) -> datetime:
    return now + timedelta(**delta)


class HandClock:
    """A seconds clock (like ``time.monotonic``) that only moves when the test moves it."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def decision_dms(notices: Iterable[Notice]) -> list[Notice]:
    """The outbox rows that tell a salesperson of a decision, without the cards' redraws and
    the "a 2nd queued behind you" notes (tests of their own check those)."""
    return [n for n in notices if n.kind not in (NoticeKind.CARD, NoticeKind.QUEUED)]
