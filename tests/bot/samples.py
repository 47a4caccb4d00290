"""Holds and outbox rows made in memory, for the pure message builders."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from core.model import Hold, Kind, Status
from core.notices import Notice, NoticeKind
from core.serialize import hold_to_json
from tests.support.factories import DAY, JST, NOW, SALES

_ids = itertools.count(100)


def hold(**changes: Any) -> Hold:
    start = datetime(DAY.year, DAY.month, DAY.day, 11, 0, tzinfo=JST)
    base = Hold(
        id=next(_ids),
        venue_id="v-test",
        room_id="hoo",
        room_name="鳳凰の間",
        parts=frozenset({"A1", "A2"}),
        local_date=DAY,
        start_at=start,
        end_at=start + timedelta(hours=4),
        span_end=start + timedelta(hours=5),
        kind=Kind.WEDDING,
        customer="山田様",
        note="",
        salesperson=SALES,
        creator=SALES,
        status=Status.TENTATIVE,
        rank=1,
        expires_at=NOW + timedelta(days=7),
        extensions_used=0,
        created_at=NOW,
        updated_at=NOW,
    )
    return replace(base, **changes)


def waiting(**changes: Any) -> Hold:
    return hold(**({"rank": 2, "expires_at": None} | changes))


def notice(kind: NoticeKind, payload: dict[str, Any], **changes: Any) -> Notice:
    held = payload.get("hold")
    base = Notice(
        venue_id="v-test",
        id=next(_ids),
        kind=kind.value,
        hold_id=held["id"] if isinstance(held, dict) else None,
        recipient=SALES,
        payload=payload,
        status="pending",
        attempts=0,
        available_at=NOW,
        last_error=None,
        sent_at=None,
        sent_channel=None,
        sent_ref=None,
        created_at=NOW,
    )
    return replace(base, **changes)


def about(kind: NoticeKind, held: Hold, **extra: Hold) -> Notice:
    """An outbox row as core.notices.notice writes it."""
    payload = {"hold": hold_to_json(held)} | {k: hold_to_json(v) for k, v in extra.items()}
    return notice(kind, payload)


def digest(holds: list[Hold]) -> Notice:
    payload = {
        "holds": [hold_to_json(h) for h in holds],
        "week": "2027-W09",
        "from": NOW.isoformat(),
        "until": (NOW + timedelta(days=7)).isoformat(),
    }
    return notice(NoticeKind.DIGEST, payload)
