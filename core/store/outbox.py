"""Outbox rows: notices written with the change, delivered after commit by a worker."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta

import sqlalchemy as sa

from core.notices import NewNotice, Notice
from core.store.schema import outbox

# One fixed statement for any number of rows: multi-row VALUES recompiles for every count,
# and one JSON document is much cheaper to send than arrays of long strings.
_ADD = sa.text(
    """
    INSERT INTO outbox (venue_id, kind, hold_id, recipient, payload, dedupe_key, status,
                        attempts, available_at, created_at)
    SELECT :venue, n.doc ->> 'kind', CAST(n.doc ->> 'hold_id' AS bigint), n.doc ->> 'recipient',
           n.doc -> 'payload', n.doc ->> 'dedupe_key', 'pending', 0, :now, :now
    FROM jsonb_array_elements(CAST(:notices AS jsonb)) WITH ORDINALITY AS n(doc, i)
    ORDER BY n.i
    ON CONFLICT DO NOTHING
    RETURNING id
    """
)


def add(conn: sa.Connection, venue_id: str, notices: Sequence[NewNotice], now: datetime) -> int:
    """Write notices; a row whose dedupe key is already taken is skipped. Returns rows written."""
    if not notices:
        return 0
    result = conn.execute(
        _ADD,
        {
            "venue": venue_id,
            "now": now,
            "notices": json.dumps(
                [
                    {
                        "kind": n.kind,
                        "hold_id": n.hold_id,
                        "recipient": n.recipient,
                        "payload": dict(n.payload),
                        "dedupe_key": n.dedupe_key,
                    }
                    for n in notices
                ],
                ensure_ascii=False,
            ),
        },
    )
    return len(result.all())


def claim(
    conn: sa.Connection, venue_id: str, owner: str, now: datetime, lease: timedelta, limit: int
) -> list[Notice]:
    """Lease up to ``limit`` due rows; rows another worker holds are skipped, not waited for."""
    due = (
        sa.select(outbox.c.id)
        .where(
            outbox.c.venue_id == venue_id,
            outbox.c.status == "pending",
            outbox.c.available_at <= now,
            sa.or_(outbox.c.lease_until.is_(None), outbox.c.lease_until <= now),
        )
        .order_by(outbox.c.available_at, outbox.c.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    rows = conn.execute(
        outbox.update()
        .where(outbox.c.venue_id == venue_id, outbox.c.id.in_(due.scalar_subquery()))
        .values(lease_owner=owner, lease_until=now + lease, attempts=outbox.c.attempts + 1)
        .returning(*outbox.c)
    )
    return sorted((_notice(r) for r in rows), key=lambda n: n.id)


def locked_pending(conn: sa.Connection, venue_id: str, notice_id: int) -> Notice | None:
    """The row if it is still pending, locked until the transaction ends (so that two
    workers resolving it take turns, and the second finds it done)."""
    row = conn.execute(
        sa.select(outbox)
        .where(
            outbox.c.venue_id == venue_id, outbox.c.id == notice_id, outbox.c.status == "pending"
        )
        .with_for_update()
    ).first()
    return _notice(row) if row is not None else None


def mark_sent(
    conn: sa.Connection, venue_id: str, notice_id: int, channel: str, ref: str, now: datetime
) -> None:
    conn.execute(
        outbox.update()
        .where(outbox.c.venue_id == venue_id, outbox.c.id == notice_id, outbox.c.status != "sent")
        .values(
            status="sent",
            sent_at=now,
            sent_channel=channel,
            sent_ref=ref,
            lease_owner=None,
            lease_until=None,
            last_error=None,
        )
    )


def mark_retry(
    conn: sa.Connection, venue_id: str, notice_id: int, error: str, available_at: datetime
) -> None:
    conn.execute(
        outbox.update()
        .where(
            outbox.c.venue_id == venue_id, outbox.c.id == notice_id, outbox.c.status == "pending"
        )
        .values(available_at=available_at, lease_owner=None, lease_until=None, last_error=error)
    )


def mark_failed(conn: sa.Connection, venue_id: str, notice_id: int, error: str) -> None:
    conn.execute(
        outbox.update()
        .where(
            outbox.c.venue_id == venue_id, outbox.c.id == notice_id, outbox.c.status == "pending"
        )
        .values(status="failed", lease_owner=None, lease_until=None, last_error=error)
    )


def unreported_failures(conn: sa.Connection, venue_id: str) -> list[Notice]:
    rows = conn.execute(
        sa.select(outbox)
        .where(
            outbox.c.venue_id == venue_id,
            outbox.c.status == "failed",
            outbox.c.failure_reported_at.is_(None),
        )
        .order_by(outbox.c.id)
        .with_for_update(skip_locked=True)
    )
    return [_notice(r) for r in rows]


def mark_reported(conn: sa.Connection, venue_id: str, ids: Sequence[int], now: datetime) -> None:
    conn.execute(
        outbox.update()
        .where(outbox.c.venue_id == venue_id, outbox.c.id.in_(ids))
        .values(failure_reported_at=now)
    )


def listing(
    conn: sa.Connection, venue_id: str, status: str | None, limit: int = 200
) -> list[Notice]:
    query = sa.select(outbox).where(outbox.c.venue_id == venue_id)
    if status is not None:
        query = query.where(outbox.c.status == status)
    rows = conn.execute(query.order_by(outbox.c.id.desc()).limit(limit))
    return [_notice(r) for r in rows]


def requeue_failed(
    conn: sa.Connection, venue_id: str, ids: Sequence[int] | None, now: datetime
) -> list[int]:
    """Failed rows go back to pending (all of them, or just ``ids``)."""
    query = outbox.update().where(outbox.c.venue_id == venue_id, outbox.c.status == "failed")
    if ids is not None:
        query = query.where(outbox.c.id.in_(ids))
    rows = conn.execute(
        query.values(
            status="pending", available_at=now, failure_reported_at=None, lease_until=None
        ).returning(outbox.c.id)
    )
    return sorted(r.id for r in rows)


def _notice(row: sa.Row[tuple[object, ...]]) -> Notice:
    m = row._mapping
    return Notice(
        venue_id=m["venue_id"],
        id=m["id"],
        kind=m["kind"],
        hold_id=m["hold_id"],
        recipient=m["recipient"],
        payload=m["payload"],
        status=m["status"],
        attempts=m["attempts"],
        available_at=m["available_at"],
        last_error=m["last_error"],
        sent_at=m["sent_at"],
        sent_channel=m["sent_channel"],
        sent_ref=m["sent_ref"],
        created_at=m["created_at"],
    )
