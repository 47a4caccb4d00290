"""Requesting a hold, and previewing what a request would get."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from datetime import datetime

import sqlalchemy as sa

from core.model import HoldRequest, Status, Venue
from core.results import Code, Preview, Refused, Requested
from core.rules.requests import Blocked, Checked, Occupant, check_request, decide_rank
from core.rules.spans import part_days, span_counts
from core.store import holds, idempotency, ledger, venues
from core.store.audit import Event


def request_hold(
    conn: sa.Connection,
    venue: Venue,
    req: HoldRequest,
    now: datetime,
    key: str | None,
    *,
    look_up_key: bool = True,
) -> Requested | Refused:
    """``look_up_key=False`` defers the idempotency lookup to where a twin would show.

    Under SERIALIZABLE that lookup locks the index page every concurrent submission inserts
    its key into, so two unrelated submissions would abort each other. Without it a twin is
    still caught: the unique key at ``idempotency.save`` (Retry: the next attempt looks it
    up), and before any refusal (the twin's own hold may be in the way, and a reused key
    with another request is refused as such whatever else is wrong with it).
    """
    digest = request_hash(req)
    if key and look_up_key:
        replayed = _answered_before(conn, venue, key, digest)
        if replayed is not None:
            return replayed
    answer = _request(conn, venue, req, now, key, digest)
    if key and not look_up_key and isinstance(answer, Refused):
        return _answered_before(conn, venue, key, digest) or answer
    return answer


def _request(
    conn: sa.Connection, venue: Venue, req: HoldRequest, now: datetime, key: str | None, digest: str
) -> Requested | Refused:
    # ``venue`` may be a cached copy: the first ledger read checks its revision, and every
    # answer given before that read checks it on its own.
    checked = check_request(req, venue, now)
    if isinstance(checked, Refused):
        venues.ensure_current(conn, venue)
        return checked
    ranked = decide_rank(checked, _occupants(conn, venue, checked), venue, now)
    if isinstance(ranked, Blocked):
        # Rolled back, nothing written: a snapshot that already shows the slot taken is an
        # answer some serial order gives, so a refusal needs no bump and waits for nobody.
        return _refusal(conn, venue, ranked)
    # Before anything is written: a conflicting commit since this transaction's snapshot
    # makes the bump fail with 40001, and one after it must wait for this transaction.
    # The hold's id (its arrival order) is taken after the bump, so it follows theirs.
    ledger.bump(conn, venue.id, span_counts([checked.span], venue.tz))
    requested = Event(
        hold_id=None,  # the insert fills in the new hold's id
        actor=req.creator,
        action="requested",
        at=now,
        detail={
            "rank": ranked.rank,
            "expires_at": ranked.expires_at.isoformat() if ranked.expires_at else None,
        },
    )
    values = hold_row(req, checked, ranked.rank, ranked.expires_at)
    hold = holds.insert(conn, venue, values, checked.span, now, requested)
    if key:
        answer = {
            "hold_id": hold.id,
            "rank": ranked.rank,
            "expires_at": ranked.expires_at.isoformat() if ranked.expires_at else None,
        }
        idempotency.save(conn, venue.id, key, digest, answer, now)
    ahead = tuple(holds.get_many(conn, venue, ranked.ahead))
    return Requested(hold, ranked.rank, ranked.expires_at, ahead)


def preview(
    conn: sa.Connection, venue: Venue, req: HoldRequest, now: datetime
) -> Preview | Refused:
    """The same decision as ``request_hold``, read-only: nothing is bumped or written."""
    checked = check_request(req, venue, now)
    if isinstance(checked, Refused):
        venues.ensure_current(conn, venue)
        return checked
    ranked = decide_rank(checked, _occupants(conn, venue, checked), venue, now)
    if isinstance(ranked, Blocked):
        return _refusal(conn, venue, ranked)
    return Preview(ranked.rank, ranked.expires_at, tuple(holds.get_many(conn, venue, ranked.ahead)))


def _occupants(conn: sa.Connection, venue: Venue, checked: Checked) -> list[Occupant]:
    """The live holds in the way; the ledger's span counts say when there cannot be any."""
    if not ledger.live_spans(conn, venue, part_days([checked.span], venue.tz)):
        return []
    return holds.occupants(conn, venue, [checked.span])


def _refusal(conn: sa.Connection, venue: Venue, blocked: Blocked) -> Refused:
    """The refusal with the holds in the way, read only now that they are needed."""
    return Refused(
        blocked.code,
        holders=tuple(holds.get_many(conn, venue, blocked.holders)),
        rank=blocked.rank,
        limit=blocked.limit,
    )


def request_hash(req: HoldRequest) -> str:
    fields = asdict(req)
    fields["local_date"] = req.local_date.isoformat()
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def _answered_before(
    conn: sa.Connection, venue: Venue, key: str, digest: str
) -> Requested | Refused | None:
    first = idempotency.find(conn, venue.id, key)
    if first is None:
        return None
    venues.ensure_current(conn, venue)
    return _replay(conn, venue, first, digest)


def _replay(
    conn: sa.Connection, venue: Venue, first: idempotency.Record, digest: str
) -> Requested | Refused:
    if first.request_hash != digest:
        return Refused(Code.IDEMPOTENCY_MISMATCH)
    hold = holds.get(conn, venue, first.response["hold_id"])
    if hold is None:  # pragma: no cover - holds are never deleted
        return Refused(Code.HOLD_NOT_FOUND, detail=str(first.response["hold_id"]))
    expires = first.response["expires_at"]
    return Requested(
        hold,
        first.response["rank"],
        datetime.fromisoformat(expires) if expires else None,
        ahead=(),
        replayed=True,
    )


def hold_row(
    req: HoldRequest, checked: Checked, rank: int, expires: datetime | None
) -> dict[str, object]:
    """The stored columns of a new tentative hold."""
    return {
        "room_id": checked.room.id,
        "local_date": req.local_date,
        "start_at": checked.start,
        "end_at": checked.end,
        "span_end": checked.span.end,
        "kind": checked.kind.value,
        "customer": checked.customer,
        "note": checked.note,
        "salesperson": req.salesperson.strip(),
        "creator": req.creator,
        "status": Status.TENTATIVE.value,
        "rank": rank,
        "expires_at": expires,
        "extensions_used": 0,
    }
