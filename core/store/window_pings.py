"""Window pings (0016): who asked to be told when a date's banquet window opens. Every
statement is scoped by the venue."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa

from core.model import HoldRequest
from core.pings import PingStatus, WindowPing, request_from_json, request_to_json
from core.store.schema import window_pings

_T = window_pings.c


def add(
    conn: sa.Connection, venue_id: str, asker: str, req: HoldRequest, now: datetime
) -> WindowPing:
    row = conn.execute(
        window_pings.insert()
        .values(
            venue_id=venue_id,
            asker=asker,
            local_date=req.local_date,
            request=request_to_json(req),
            asked_at=now,
            status=PingStatus.WAITING.value,
        )
        .returning(*window_pings.c)
    ).one()
    return _ping(row)


def get(conn: sa.Connection, venue_id: str, ping_id: int) -> WindowPing | None:
    row = conn.execute(
        sa.select(window_pings).where(_T.venue_id == venue_id, _T.id == ping_id)
    ).first()
    return _ping(row) if row is not None else None


def waiting(
    conn: sa.Connection, venue_id: str, *, asker: str | None = None, lock: bool = False
) -> list[WindowPing]:
    """The pings not yet told nor dropped, in the order they were asked."""
    query = sa.select(window_pings).where(
        _T.venue_id == venue_id, _T.status == PingStatus.WAITING.value
    )
    if asker is not None:
        query = query.where(_T.asker == asker)
    query = query.order_by(_T.asked_at, _T.id)
    if lock:
        query = query.with_for_update()
    return [_ping(r) for r in conn.execute(query)]


def listing(conn: sa.Connection, venue_id: str, *, limit: int = 500) -> list[WindowPing]:
    """Every ping of the venue, the waiting first, each in the order asked."""
    waiting_first = sa.case((_T.status == PingStatus.WAITING.value, 0), else_=1)
    query = (
        sa.select(window_pings)
        .where(_T.venue_id == venue_id)
        .order_by(waiting_first, _T.asked_at, _T.id)
        .limit(limit)
    )
    return [_ping(r) for r in conn.execute(query)]


def mark_sent(conn: sa.Connection, venue_id: str, ids: list[int], now: datetime) -> None:
    if ids:
        conn.execute(
            window_pings.update()
            .where(_T.venue_id == venue_id, _T.id.in_(ids), _T.status == PingStatus.WAITING.value)
            .values(status=PingStatus.SENT.value, done_at=now)
        )


def mark_dropped(conn: sa.Connection, venue_id: str, ping_id: int, by: str, now: datetime) -> None:
    conn.execute(
        window_pings.update()
        .where(_T.venue_id == venue_id, _T.id == ping_id, _T.status == PingStatus.WAITING.value)
        .values(status=PingStatus.DROPPED.value, done_at=now, dropped_by=by)
    )


def _ping(row: sa.Row[tuple[object, ...]]) -> WindowPing:
    m = row._mapping
    return WindowPing(
        id=int(m["id"]),
        venue_id=str(m["venue_id"]),
        asker=str(m["asker"]),
        request=request_from_json(dict(m["request"])),
        asked_at=m["asked_at"],
        status=PingStatus(m["status"]),
        done_at=m["done_at"],
        dropped_by=m["dropped_by"],
    )
