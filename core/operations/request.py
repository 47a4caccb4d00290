"""Requesting a hold, and previewing what a request would get."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from datetime import datetime

from core.admission import Key
from core.events import Requested as HoldRequested
from core.journal import audit_event
from core.model import HoldRequest, Status, Venue
from core.operations.tx import Snapshot, Tx
from core.results import Code, Preview, Refused, Requested
from core.rules.requests import Blocked, Checked, Occupant, Ranked, check_request, decide_rank
from core.rules.spans import part_days, span_counts
from core.store import holds, idempotency, ledger, venues
from core.uow import Retry


class Check:
    """A request checked against one copy of its venue, once: checked again only if the
    transaction gets another copy (a cached venue found stale)."""

    def __init__(self, req: HoldRequest, now: datetime) -> None:
        self.req = req
        self.now = now
        self._last: tuple[Venue, Checked | Refused] | None = None

    def against(self, venue: Venue) -> Checked | Refused:
        if self._last is None or self._last[0] is not venue:
            self._last = (venue, check_request(self.req, venue, self.now))
        return self._last[1]

    def part_days(self, venue: Venue | None) -> list[Key]:
        """The part-days the request would bump, from ``venue`` if there is one (admission)."""
        checked = self.against(venue) if venue is not None else None
        if venue is None or not isinstance(checked, Checked):
            return []
        return part_days([checked.span], venue.tz)


def request_hold(tx: Tx, check: Check, key: str | None) -> Requested | Refused:
    """Only a retry (``tx.attempt > 1``) looks the idempotency key up first.

    Under SERIALIZABLE that lookup locks the index page every concurrent submission inserts
    its key into, so two unrelated submissions would abort each other. Without it a twin is
    still caught: the unique key at ``idempotency.save`` (Retry: the next attempt looks it
    up), and before any refusal (the twin's own hold may be in the way, and a reused key
    with another request is refused as such whatever else is wrong with it).
    """
    digest = request_hash(check.req)
    if key and tx.attempt > 1:
        replayed = _answered_before(tx, key, digest)
        if replayed is not None:
            return replayed
    answer = _request(tx, check, key, digest)
    if key and tx.attempt == 1 and isinstance(answer, Refused):
        return _answered_before(tx, key, digest) or answer
    return answer


def _request(tx: Tx, check: Check, key: str | None, digest: str) -> Requested | Refused:
    conn, venue, now = tx.conn, tx.venue, tx.now
    decided = _decide(tx, check.against(venue), now)
    if isinstance(decided, Refused):
        # Rolled back, nothing written: a snapshot that already shows the slot taken is an
        # answer some serial order gives, so a refusal needs no bump and waits for nobody.
        return decided
    checked, ranked = decided
    # Before anything is written: a conflicting commit since this transaction's snapshot
    # makes the bump fail with 40001, and one after it must wait for this transaction.
    # The hold's id (its arrival order) is taken after the bump, so it follows theirs.
    ledger.bump(conn, venue.id, span_counts([checked.span], venue.tz))
    # Its audit event goes in with the insert (one statement), as the journal words it.
    requested = audit_event(HoldRequested(check.req.creator, ranked.rank, ranked.expires_at), now)
    assert requested is not None  # noqa: S101 - every request leaves one
    values = hold_row(check.req, checked, ranked.rank, ranked.expires_at)
    hold = holds.insert(conn, venue, values, checked.span, now, requested)
    if key:
        answer = {
            "hold_id": hold.id,
            "rank": ranked.rank,
            "expires_at": ranked.expires_at.isoformat() if ranked.expires_at else None,
        }
        if not idempotency.save(conn, venue.id, key, digest, answer, now):
            raise Retry  # a twin's answer is stored: the next attempt reads and replays it
    ahead = tuple(holds.get_many(conn, venue, ranked.ahead))
    return Requested(hold, ranked.rank, ranked.expires_at, ahead)


def preview(snap: Snapshot, req: HoldRequest, now: datetime) -> Preview | Refused:
    """The same decision as ``request_hold``, read-only: nothing is bumped or written."""
    decided = _decide(snap, check_request(req, snap.venue, now), now)
    if isinstance(decided, Refused):
        return decided
    _, ranked = decided
    ahead = holds.get_many(snap.conn, snap.venue, ranked.ahead)
    return Preview(ranked.rank, ranked.expires_at, tuple(ahead))


def _decide(
    snap: Snapshot, checked: Checked | Refused, now: datetime
) -> tuple[Checked, Ranked] | Refused:
    """The rank a checked request gets now, or why not.

    ``snap.venue`` may be a cached copy: the first ledger read checks its revision, and a
    refusal given before that read checks it on its own.
    """
    if isinstance(checked, Refused):
        venues.ensure_current(snap.conn, snap.venue)
        return checked
    ranked = decide_rank(checked, _occupants(snap, checked), snap.venue, now)
    if isinstance(ranked, Blocked):
        return _refusal(snap, ranked)
    return checked, ranked


def _occupants(snap: Snapshot, checked: Checked) -> list[Occupant]:
    """The live holds in the way; the ledger's span counts say when there cannot be any."""
    if not ledger.live_spans(snap.conn, snap.venue, part_days([checked.span], snap.venue.tz)):
        return []
    return holds.occupants(snap.conn, snap.venue, [checked.span])


def _refusal(snap: Snapshot, blocked: Blocked) -> Refused:
    """The refusal with the holds in the way, read only now that they are needed."""
    return Refused(
        blocked.code,
        holders=tuple(holds.get_many(snap.conn, snap.venue, blocked.holders)),
        rank=blocked.rank,
        limit=blocked.limit,
    )


def request_hash(req: HoldRequest) -> str:
    fields = asdict(req)
    fields["local_date"] = req.local_date.isoformat()
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def _answered_before(tx: Tx, key: str, digest: str) -> Requested | Refused | None:
    first = idempotency.find(tx.conn, tx.venue.id, key)
    if first is None:
        return None
    venues.ensure_current(tx.conn, tx.venue)
    return _replay(tx, first, digest)


def _replay(tx: Tx, first: idempotency.Record, digest: str) -> Requested | Refused:
    if first.request_hash != digest:
        return Refused(Code.IDEMPOTENCY_MISMATCH)
    hold = holds.get(tx.conn, tx.venue, first.response["hold_id"])
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
