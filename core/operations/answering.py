"""A request's answer as its reader gets it, read after its transaction ended: on its
connection, in autocommit, outside its turn in the admission queue (where a crowd for one
slot waits). Who it waits behind, who is in its way and the same customer elsewhere decide
nothing, so its transaction never reads them (docs/concurrency.md, What a request only
shows)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

import sqlalchemy as sa

from core.model import LIVE, HoldItem
from core.operations.request import Asked, Attempted, InWay, Replay
from core.operations.tx import Snapshot
from core.results import Code, Refused, RequestAnswer, RequestWarning, WarningCode
from core.rules.capacity import over_capacity
from core.rules.customers import customer_key
from core.rules.obstacles import in_the_way
from core.rules.requests import Blocked
from core.store import holds, idempotency


def answered(snap: Snapshot, attempted: Attempted, asked: Asked) -> RequestAnswer | Refused:
    """What ``attempted`` answers: a replay's first answer; a refusal with a key, its twin's
    answer if there is one (the twin's own hold may be in the way); a refusal the part-day
    rows decided, with the holds it names; and a hold, with what it shows."""
    answer: RequestAnswer | Refused
    if isinstance(attempted, Replay):
        answer = replayed(snap, attempted.first, asked.digest)
    elif isinstance(attempted, RequestAnswer):
        answer = attempted
    else:
        twin = _twin(snap, asked)
        answer = twin or (worded(snap, attempted) if isinstance(attempted, InWay) else attempted)
    if isinstance(answer, RequestAnswer):
        return shown(snap, answer, warn=asked.req.enquiry_id is None)
    return answer


def shown(snap: Snapshot, answer: RequestAnswer, *, warn: bool) -> RequestAnswer:
    """A committed request's answer with what it only shows: the holds ahead of it, guests
    over a room's capacity and, with ``warn`` (a new enquiry), the same customer elsewhere."""
    if answer.in_way_ids:
        around = holds.get_many(snap.conn, snap.venue, answer.in_way_ids)
        ahead = [h for h in around if h.id in answer.ahead_ids]
        in_way = in_the_way(answer.hold.items, around)
        answer = replace(answer, ahead=tuple(ahead), in_way=in_way)
    hold = answer.hold
    warnings = over_capacity(snap.venue.rooms, (i.room_id for i in hold.items), hold.guests)
    if warn:
        found = same_customer(snap.conn, snap.venue.id, hold.customer, hold.enquiry_id)
        warnings = customer_warnings(snap, hold.customer, found) + warnings
    return replace(answer, warnings=warnings) if warnings else answer


def worded(snap: Snapshot, refused: InWay) -> Refused:
    """The refusal with the holds it names read now, after the rollback: those still live
    (one that left since is no longer in the way)."""
    return blocked_by(snap, refused.blocked, refused.mine, live_only=True)


def blocked_by(
    snap: Snapshot, blocked: Blocked, mine: tuple[HoldItem, ...], *, live_only: bool = False
) -> Refused:
    """The refusal naming whoever is in the way; a package's names the room at fault."""
    room = snap.venue.rooms.get(blocked.room or "")
    around = holds.get_many(snap.conn, snap.venue, {*blocked.holders, *blocked.in_way})
    if live_only:
        around = [h for h in around if h.status in LIVE]
    return Refused(
        blocked.code,
        holders=tuple(h for h in around if h.id in blocked.holders),
        rank=blocked.rank,
        limit=blocked.limit,
        room=blocked.room,
        room_name=room.name if room and len(mine) > 1 else "",
        in_way=in_the_way(mine, [h for h in around if h.id in blocked.in_way]),
    )


def replayed(snap: Snapshot, first: idempotency.Record, digest: str) -> RequestAnswer | Refused:
    """The answer a key was first given; a reused key with another request is refused."""
    if first.request_hash != digest:
        return Refused(Code.IDEMPOTENCY_MISMATCH)
    hold = holds.get(snap.conn, snap.venue, first.response["hold_id"])
    if hold is None:  # pragma: no cover - holds are never deleted
        return Refused(Code.HOLD_NOT_FOUND, detail=str(first.response["hold_id"]))
    expires = first.response["expires_at"]
    # Answers stored before packages had one room: its rank was the hold's.
    item_ranks = first.response.get("item_ranks", [first.response["rank"]])
    return RequestAnswer(
        hold,
        first.response["rank"],
        datetime.fromisoformat(expires) if expires else None,
        ahead=(),
        replayed=True,
        item_ranks=tuple(item_ranks),
    )


def same_customer(
    conn: sa.Connection, venue_id: str, customer: str, enquiry_id: int | None
) -> list[int]:
    """Live holds of enquiries other than ``enquiry_id`` for a customer whose name compares
    equal. After a request this is read on its own, outside the write: under SERIALIZABLE,
    every request reading the name index would abort the others inserting into it."""
    return holds.same_customer(conn, venue_id, customer_key(customer), enquiry_id)


def customer_warnings(
    snap: Snapshot, customer: str, hold_ids: Sequence[int]
) -> tuple[RequestWarning, ...]:
    """The warning (never a refusal) naming those holds, if there are any."""
    if not hold_ids:
        return ()
    found = tuple(holds.get_many(snap.conn, snap.venue, hold_ids))
    return (RequestWarning(WarningCode.SAME_CUSTOMER, customer, found),)


def _twin(snap: Snapshot, asked: Asked) -> RequestAnswer | Refused | None:
    """A refused request's twin: the answer its key was first given, or None.

    It sees at least what the refused transaction's snapshot saw, and a twin that commits
    later was not in the way of this refusal either.
    """
    if not asked.key:
        return None
    first = idempotency.find(snap.conn, snap.venue.id, asked.key)
    return None if first is None else replayed(snap, first, asked.digest)
