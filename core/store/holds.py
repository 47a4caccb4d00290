"""Reading and writing holds and their per-part spans."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY

from core.events import AuditEvent
from core.model import Hold, Kind, Status, Venue
from core.rules.requests import Occupant
from core.rules.spans import MAX_SPAN, Span
from core.store.schema import hold_spans, holds


def from_row(row: sa.Row[tuple[object, ...]], venue: Venue) -> Hold:
    m = row._mapping
    room = venue.rooms[m["room_id"]]
    return Hold(
        id=m["id"],
        venue_id=m["venue_id"],
        room_id=room.id,
        room_name=room.name,
        parts=room.parts,
        local_date=m["local_date"],
        start_at=m["start_at"],
        end_at=m["end_at"],
        span_end=m["span_end"],
        kind=Kind(m["kind"]),
        customer=m["customer"],
        note=m["note"],
        salesperson=m["salesperson"],
        creator=m["creator"],
        status=Status(m["status"]),
        rank=m["rank"],
        expires_at=m["expires_at"],
        extensions_used=m["extensions_used"],
        created_at=m["created_at"],
        updated_at=m["updated_at"],
    )


def get(conn: sa.Connection, venue: Venue, hold_id: int) -> Hold | None:
    row = conn.execute(
        sa.select(holds).where(holds.c.venue_id == venue.id, holds.c.id == hold_id)
    ).first()
    return from_row(row, venue) if row else None


def get_many(conn: sa.Connection, venue: Venue, ids: Iterable[int]) -> list[Hold]:
    wanted = sorted(set(ids))
    if not wanted:
        return []
    rows = conn.execute(
        sa.select(holds)
        .where(holds.c.venue_id == venue.id, holds.c.id == sa.any_(_ids(wanted)))
        .order_by(holds.c.id)
    )
    return [from_row(r, venue) for r in rows]


# A span overlapping [s, e) starts before e and after s - MAX_SPAN, and ends after s: a range
# scan of the B-tree on (venue, part, start), index-only (it covers every column read). Span
# rows alone decide a rank, so requests read no hold rows: under SERIALIZABLE, fewer pages
# read means fewer false serialization failures. One fixed statement for any number of
# probes, so it is compiled once and psycopg prepares it on the server.
_OCCUPANTS = sa.text(
    """
    SELECT DISTINCT s.hold_id, s.part_id, s.starts_at, s.ends_at, s.blocking, s.confirmed
    FROM unnest(CAST(:parts AS text[]), CAST(:starts AS timestamptz[]),
                CAST(:ends AS timestamptz[])) AS probe(part_id, s, e)
    -- LATERAL ... OFFSET 0: one index range scan per probe. Joined plainly, the planner
    -- hashes many probes against a sequential scan of the venue's spans, which is slower
    -- and takes a relation-wide predicate lock under SERIALIZABLE.
    CROSS JOIN LATERAL (
      SELECT * FROM hold_spans s
      WHERE s.venue_id = :venue AND s.part_id = probe.part_id
        AND s.starts_at < probe.e AND s.starts_at > probe.s - CAST(:max_span AS interval)
        AND s.ends_at > probe.s
      OFFSET 0
    ) AS s
    """
)


def occupants(conn: sa.Connection, venue: Venue, spans: Sequence[Span]) -> list[Occupant]:
    """The live holds whose spans conflict with one of ``spans``, on those spans' parts."""
    probes = [(p, s.start, s.end) for s in spans for p in sorted(s.parts)]
    if not probes:
        return []
    rows = conn.execute(
        _OCCUPANTS,
        {
            "venue": venue.id,
            "parts": [p[0] for p in probes],
            "starts": [p[1] for p in probes],
            "ends": [p[2] for p in probes],
            "max_span": MAX_SPAN,
        },
    ).all()
    found: dict[int, list[sa.Row[tuple[object, ...]]]] = {}
    for row in rows:
        found.setdefault(row.hold_id, []).append(row)
    return [
        Occupant(
            hold_id=hold_id,
            span=Span(frozenset(r.part_id for r in mine), mine[0].starts_at, mine[0].ends_at),
            confirmed=mine[0].confirmed,
            first=mine[0].blocking and not mine[0].confirmed,
        )
        for hold_id, mine in sorted(found.items())
    ]


def live_conflicting(conn: sa.Connection, venue: Venue, spans: Sequence[Span]) -> list[Hold]:
    """Live holds that conflict with at least one of ``spans``, in arrival order."""
    return get_many(conn, venue, [o.hold_id for o in occupants(conn, venue, spans)])


_COLUMNS = [c.name for c in holds.c]
# The hold, its span rows and its audit event in one fixed statement (compiled once,
# prepared by psycopg); its id (arrival order) comes from the sequence here, after the
# caller's ledger bump.
_INSERT = sa.text(
    f"""
    WITH new_hold AS (
      INSERT INTO holds ({", ".join(_COLUMNS)})
      VALUES ({", ".join("nextval('holds_id_seq')" if c == "id" else f":{c}" for c in _COLUMNS)})
      RETURNING *
    ), new_spans AS (
      INSERT INTO hold_spans (venue_id, hold_id, part_id, starts_at, ends_at, blocking,
                              confirmed)
      SELECT h.venue_id, h.id, p, :span_start, :span_end, :blocking, :confirmed
      FROM new_hold h, unnest(CAST(:parts AS text[])) AS p
    ), new_event AS (
      INSERT INTO audit_events (venue_id, hold_id, actor, action, at, detail)
      SELECT h.venue_id, h.id, :actor, :action, :created_at, CAST(:detail AS jsonb)
      FROM new_hold h
    )
    SELECT * FROM new_hold
    """  # noqa: S608 - the names put in are our own schema's columns, never input
)


def insert(
    conn: sa.Connection,
    venue: Venue,
    values: dict[str, object],
    span: Span,
    now: datetime,
    event: AuditEvent,
) -> Hold:
    """A new hold, its span rows and ``event`` (its hold id filled in) in one statement."""
    confirmed = values["status"] == Status.CONFIRMED
    params = {
        **values,
        "venue_id": venue.id,
        "created_at": now,
        "updated_at": now,
        "span_start": span.start,
        "span_end": span.end,
        "blocking": confirmed or values["rank"] == 1,
        "confirmed": confirmed,
        "parts": sorted(span.parts),
        "actor": event.actor,
        "action": event.action,
        "detail": json.dumps(dict(event.detail), ensure_ascii=False),
    }
    return from_row(conn.execute(_INSERT, params).one(), venue)


def leave(
    conn: sa.Connection, venue: Venue, ids: Sequence[int], status: Status, now: datetime
) -> None:
    """Holds stop being live: released, expired or cancelled; their spans go."""
    if not ids:
        return
    conn.execute(
        holds.update()
        .where(holds.c.venue_id == venue.id, holds.c.id == sa.any_(_ids(ids)))
        .values(status=status, rank=None, expires_at=None, updated_at=now)
    )
    conn.execute(
        hold_spans.delete().where(
            hold_spans.c.venue_id == venue.id, hold_spans.c.hold_id == sa.any_(_ids(ids))
        )
    )


_SET_RANKS = sa.text(
    """
    UPDATE holds h SET rank = m.rank, expires_at = m.expires_at, updated_at = :now
    FROM unnest(CAST(:ids AS bigint[]), CAST(:ranks AS smallint[]),
                CAST(:expires AS timestamptz[])) AS m(id, rank, expires_at)
    WHERE h.venue_id = :venue AND h.id = m.id
    """
)


def set_ranks(
    conn: sa.Connection,
    venue: Venue,
    moves: Sequence[tuple[int, int, datetime | None]],
    now: datetime,
) -> None:
    """Waiting holds move up (id, new rank, deadline); at rank 1 they start blocking."""
    if not moves:
        return
    conn.execute(
        _SET_RANKS,
        {
            "venue": venue.id,
            "now": now,
            "ids": [m[0] for m in moves],
            "ranks": [m[1] for m in moves],
            "expires": [m[2] for m in moves],
        },
    )
    firsts = [hold_id for hold_id, rank, _ in moves if rank == 1]
    if firsts:
        conn.execute(
            hold_spans.update()
            .where(hold_spans.c.venue_id == venue.id, hold_spans.c.hold_id == sa.any_(_ids(firsts)))
            .values(blocking=True)
        )


def confirm(conn: sa.Connection, venue: Venue, hold_id: int, now: datetime) -> None:
    conn.execute(
        holds.update()
        .where(holds.c.venue_id == venue.id, holds.c.id == hold_id)
        .values(status=Status.CONFIRMED, rank=None, expires_at=None, updated_at=now)
    )
    conn.execute(
        hold_spans.update()
        .where(hold_spans.c.venue_id == venue.id, hold_spans.c.hold_id == hold_id)
        .values(confirmed=True)
    )


def extend(
    conn: sa.Connection, venue: Venue, hold: Hold, expires_at: datetime, now: datetime
) -> None:
    conn.execute(
        holds.update()
        .where(holds.c.venue_id == venue.id, holds.c.id == hold.id)
        .values(expires_at=expires_at, extensions_used=hold.extensions_used + 1, updated_at=now)
    )


def firsts_due(
    conn: sa.Connection,
    venue: Venue,
    by: datetime,
    *,
    after: datetime | None = None,
    limit: int | None = None,
) -> list[Hold]:
    """1st holds due by ``by`` (``expires_at <= by``: ``Hold.is_due``'s boundary), earliest
    first; with ``after``, only those not due yet at ``after`` (reminders, digests)."""
    query = sa.select(holds).where(
        holds.c.venue_id == venue.id,
        holds.c.status == Status.TENTATIVE,
        holds.c.rank == 1,
        holds.c.expires_at <= by,
    )
    if after is not None:
        query = query.where(holds.c.expires_at > after)
    query = query.order_by(holds.c.expires_at, holds.c.id).limit(limit)
    return [from_row(r, venue) for r in conn.execute(query)]


def listing(
    conn: sa.Connection,
    venue: Venue,
    *,
    on: date | None = None,
    salesperson: str | None = None,
    statuses: Iterable[Status] | None = None,
    updated_since: datetime | None = None,
    limit: int = 500,
) -> list[Hold]:
    query = sa.select(holds).where(holds.c.venue_id == venue.id)
    if on is not None:
        query = query.where(holds.c.local_date == on)
    if salesperson is not None:
        query = query.where(holds.c.salesperson == salesperson)
    if statuses is not None:
        query = query.where(holds.c.status.in_([s.value for s in statuses]))
    if updated_since is not None:
        query = query.where(holds.c.updated_at >= updated_since)
    query = query.order_by(holds.c.local_date, holds.c.start_at, holds.c.id).limit(limit)
    return [from_row(r, venue) for r in conn.execute(query)]


def _ids(ids: Iterable[int]) -> sa.BindParameter[Any]:
    """Ids as one array parameter: one plan, one value to send, however many ids."""
    return sa.bindparam("ids", list(ids), type_=cast(Any, ARRAY(sa.BigInteger)))
