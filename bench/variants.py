"""Other ways to take a hold, for comparison with the engine in the same process.

All reuse the engine's pure rules and store queries; only isolation and locking differ:
- ``naive_read_committed``: read the conflicts, decide, insert, at READ COMMITTED, no locks.
  Its span rows are written non-blocking, so the EXCLUDE gate does not hide its races (the
  seed's SQLite had no such gate): its outcome table shows what the race does.
- ``for_update_baseline``: READ COMMITTED, but first ``SELECT ... FOR UPDATE`` on the same
  part-day rows, in the same order. Correct, and the usual design this engine is measured
  against: no serialization failures, no retries. It does the work the engine's request
  does around the decision, as a pessimistic osae would have to: after the commit the
  answer's reads (the same customer elsewhere, the holds in the way, the 1sts a 2nd waits
  behind among them: like the engine, it leaves whom to tell to delivery); a refusal reads
  its holders and offers alternatives.
- ``bare_for_update``: the same locking with none of that work: the decision and the insert
  only (the baseline of the earlier benches).
- ``for_update_decision``: a confirm, release or extend at READ COMMITTED, the hold's
  part-day rows locked first, then the engine's own operation.

The two pessimistic variants run on ``pessimistic_engine``'s pool, with triggers off: the
spans that the engine's ledger rows carry (migration 0006) are the engine's way to read
nothing under SERIALIZABLE, and a pessimistic design would not pay for keeping them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

import sqlalchemy as sa

from core.db import create_engine
from core.events import Action, AuditEvent
from core.journal import Journal
from core.model import HoldRequest, Venue
from core.operations import answering, decisions, search
from core.operations.request import new_hold, ranked_items
from core.operations.tx import Snapshot, Tx
from core.results import Refused
from core.rules.requests import Blocked, Ranked, check_request, decide_rank, spans_of
from core.rules.spans import part_day_keys
from core.store import audit, hold_writes, holds, schema
from core.store.hold_writes import NewHold

_ENSURE = sa.text(
    """
    INSERT INTO part_days (venue_id, part_id, day, version)
    SELECT :venue, k.part_id, k.day, 1
    FROM unnest(CAST(:parts AS text[]), CAST(:days AS date[])) AS k(part_id, day)
    ON CONFLICT DO NOTHING
    """
)
_LOCK = sa.text(
    """
    SELECT version FROM part_days
    WHERE venue_id = :venue AND (part_id, day) IN (
      SELECT * FROM unnest(CAST(:parts AS text[]), CAST(:days AS date[])))
    ORDER BY part_id, day
    FOR UPDATE
    """
)


def pessimistic_engine(url: str, pool_size: int) -> sa.Engine:
    """The baseline's own pool, whose sessions run with triggers off: a pessimistic design
    has no use for the spans the engine's ledger rows carry (migration 0006), so it is not
    charged for keeping them. Only for the baseline's own venues: their rows go stale."""
    options = {"options": "-c session_replication_role=replica"}
    return create_engine(url, pool_size=pool_size, connect_args=options)


def naive_read_committed(db: sa.Engine, venue: Venue, req: HoldRequest, now: datetime) -> object:
    with db.connect() as conn, conn.begin():
        return _decide_and_insert(conn, venue, req, now, blocking=False)


def for_update_baseline(db: sa.Engine, venue: Venue, req: HoldRequest, now: datetime) -> object:
    """As the engine's request: the answer's reads after the commit on the same connection,
    a refusal's alternatives on a read-only snapshot of their own."""
    with db.connect() as raw:
        answer = _locked(raw, venue, req, now, shown=True)
        if isinstance(answer, Ranked):
            after = raw.execution_options(isolation_level="AUTOCOMMIT")
            if answer.in_way:
                holds.get_many(after, venue, answer.in_way)
            answering.same_customer(after, venue.id, req.customer, None)
    if isinstance(answer, Blocked):
        with db.connect() as raw:
            snap = raw.execution_options(
                isolation_level="REPEATABLE READ", postgresql_readonly=True
            )
            with snap.begin():
                search.alternatives(Snapshot(snap, venue), req, now)
    return answer


def bare_for_update(db: sa.Engine, venue: Venue, req: HoldRequest, now: datetime) -> object:
    with db.connect() as raw:
        return _locked(raw, venue, req, now, shown=False)


def _locked(
    raw: sa.Connection, venue: Venue, req: HoldRequest, now: datetime, *, shown: bool
) -> object:
    conn = raw.execution_options(isolation_level="READ COMMITTED")
    with conn.begin():
        checked = check_request(req, venue, now)
        if isinstance(checked, Refused):
            return checked
        keys = part_day_keys(checked.spans, venue.tz)
        params = {
            "venue": venue.id,
            "parts": [k[0] for k in keys],
            "days": [k[1] for k in keys],
        }
        conn.execute(_ENSURE, params)
        conn.execute(_LOCK, params).all()
        return _decide_and_insert(conn, venue, req, now, blocking=True, shown=shown)


def _decide_and_insert(
    conn: sa.Connection,
    venue: Venue,
    req: HoldRequest,
    now: datetime,
    *,
    blocking: bool,
    shown: bool = False,
) -> object:
    checked = check_request(req, venue, now)
    if isinstance(checked, Refused):
        return checked
    ranked = decide_rank(checked, holds.occupants(conn, venue, checked.spans), venue, now)
    if isinstance(ranked, Blocked):
        if shown:
            holds.get_many(conn, venue, {*ranked.holders, *ranked.in_way})
        return ranked
    new = new_hold(req, checked, ranked, ranked_items(checked, ranked), None)
    requested = AuditEvent(None, req.creator, Action.REQUESTED, now, {})
    if blocking:
        hold_writes.insert(conn, venue, new, now, requested)
    else:
        hold_id = _insert_unguarded(conn, venue, new, now)
        audit.record(conn, venue.id, [replace(requested, hold_id=hold_id)])
    return ranked


def _insert_unguarded(conn: sa.Connection, venue: Venue, new: NewHold, now: datetime) -> int:
    """The naive variant's rows: span rows never blocking, so the gate never sees them."""
    enquiry_id: int = conn.execute(
        schema.enquiries.insert()
        .values(
            venue_id=venue.id,
            customer=new.customer,
            customer_key=new.customer_key,
            kind=new.kind_id or new.kind.value,
            kind_class=new.kind.value,
            salesperson=new.salesperson,
            creator=new.creator,
            note=new.note,
            guests=new.guests,
            contact=new.contact,
            version=0,
            created_at=now,
            updated_at=now,
        )
        .returning(schema.enquiries.c.id)
    ).scalar_one()
    hold_id: int = conn.execute(
        schema.holds.insert()
        .values(
            venue_id=venue.id,
            enquiry_id=enquiry_id,
            local_date=new.local_date,
            status="tentative",
            rank=new.rank,
            expires_at=new.expires_at,
            extensions_used=0,
            created_at=now,
            updated_at=now,
        )
        .returning(schema.holds.c.id)
    ).scalar_one()
    rows = [(n, item) for n, item in enumerate(new.items, start=1)]
    conn.execute(
        schema.hold_items.insert(),
        [
            {
                "venue_id": venue.id,
                "hold_id": hold_id,
                "item_no": n,
                "room_id": item.room_id,
                "start_at": item.start_at,
                "end_at": item.end_at,
                "span_end": item.span_end,
                "rank": item.rank,
            }
            for n, item in rows
        ],
    )
    conn.execute(
        schema.hold_spans.insert(),
        [
            {
                "venue_id": venue.id,
                "hold_id": hold_id,
                "item_no": n,
                "part_id": p,
                "starts_at": item.start_at,
                "ends_at": item.span_end,
                "blocking": False,
                "confirmed": False,
            }
            for n, item in rows
            for p in sorted(item.parts)
        ],
    )
    return hold_id


# issue 26: decisions (confirm, release, extend) as a pessimistic osae would take them.
DECISIONS: dict[str, Callable[[Tx, int, str], object]] = {
    "confirm": decisions.confirm,
    "release": decisions.release,
    "extend": decisions.extend,
}


def for_update_decision(
    db: sa.Engine, venue: Venue, kind: str, hold_id: int, actor: str, now: datetime
) -> object:
    """READ COMMITTED, the part-day rows of the hold locked ``FOR UPDATE`` in sorted order
    first (a decision on the hold, or on one in its way, waits for this one), then the
    engine's own operation, with its journal; a refusal commits (it wrote nothing)."""
    with db.connect() as raw:
        conn = raw.execution_options(isolation_level="READ COMMITTED")
        with conn.begin():
            hold = holds.get(conn, venue, hold_id)
            if hold is None:
                return None
            keys = part_day_keys(spans_of(hold), venue.tz)
            params = {
                "venue": venue.id,
                "parts": [k[0] for k in keys],
                "days": [k[1] for k in keys],
            }
            conn.execute(_LOCK, params).all()
            tx = Tx(conn, venue, now, 1, Journal(conn, venue.id, now))
            answer = DECISIONS[kind](tx, hold_id, actor)
            if not isinstance(answer, Refused):
                tx.journal.flush()
            return answer
