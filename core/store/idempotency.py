"""Idempotency records: a submission key, the request's hash and the first answer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert

from core.store.schema import idempotency_records


@dataclass(frozen=True)
class Record:
    request_hash: str
    response: dict[str, Any]


# Built once: every refused submission looks its key up (``answering.answered``).
_FIND = sa.select(idempotency_records.c.request_hash, idempotency_records.c.response).where(
    idempotency_records.c.venue_id == sa.bindparam("venue"),
    idempotency_records.c.key == sa.bindparam("key"),
)


def find(conn: sa.Connection, venue_id: str, key: str) -> Record | None:
    row = conn.execute(_FIND, {"venue": venue_id, "key": key}).first()
    return Record(row.request_hash, row.response) if row else None


def save(
    conn: sa.Connection,
    venue_id: str,
    key: str,
    request_hash: str,
    response: dict[str, Any],
    now: datetime,
) -> bool:
    """Store the first answer; False if a twin submission's answer is stored already."""
    stored = conn.execute(
        insert(idempotency_records)
        .values(
            venue_id=venue_id, key=key, request_hash=request_hash, response=response, created_at=now
        )
        .on_conflict_do_nothing()
        .returning(idempotency_records.c.key)
    ).first()
    return stored is not None
