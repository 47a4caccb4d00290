"""Reading and writing holds, their items and their per-part span rows."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY, aggregate_order_by

from core.events import AuditEvent
from core.model import Details, Hold, HoldItem, Kind, Outcome, Status, Venue
from core.rules.requests import Occupant
from core.rules.spans import MAX_SPAN, Span
from core.store import details
from core.store.schema import enquiries, hold_items, holds


def _agg(column: sa.ColumnElement[Any], label: str) -> sa.Label[Any]:
    ordered = aggregate_order_by(column, hold_items.c.item_no)
    return sa.func.array_agg(ordered, type_=ARRAY(column.type)).label(label)


# A hold with its enquiry's customer and people and its items as arrays, in one row.
_ITEMS = (
    sa.select(
        _agg(hold_items.c.room_id, "item_rooms"),
        _agg(hold_items.c.start_at, "item_starts"),
        _agg(hold_items.c.end_at, "item_ends"),
        _agg(hold_items.c.span_end, "item_span_ends"),
        _agg(hold_items.c.rank, "item_ranks"),
        sa.func.min(hold_items.c.start_at).label("first_start"),
    )
    .where(hold_items.c.venue_id == holds.c.venue_id, hold_items.c.hold_id == holds.c.id)
    .lateral("i")
)
_HOLDS = sa.select(
    holds,
    enquiries.c.customer,
    enquiries.c.kind,
    enquiries.c.kind_class,
    enquiries.c.note,
    enquiries.c.salesperson,
    enquiries.c.creator,
    enquiries.c.guests,
    enquiries.c.contact,
    *details.COLUMNS,
    *_ITEMS.c,
).select_from(
    holds.join(
        enquiries,
        sa.and_(enquiries.c.venue_id == holds.c.venue_id, enquiries.c.id == holds.c.enquiry_id),
    ).join(_ITEMS, sa.true())
)


def from_row(row: sa.Row[tuple[object, ...]], venue: Venue) -> Hold:
    m = row._mapping
    return assemble(m, _items(m, venue), m, venue)


def _items(m: Any, venue: Venue) -> tuple[HoldItem, ...]:
    """A row's item arrays (``item_rooms``, ``item_starts``, ...) as items, in item order."""
    columns = ("item_rooms", "item_starts", "item_ends", "item_span_ends", "item_ranks")
    return tuple(
        _item(venue, room_id, start, end, span_end, rank)
        for room_id, start, end, span_end, rank in zip(*(m[c] for c in columns), strict=True)
    )


def assemble(hold: Any, items: tuple[HoldItem, ...], enquiry: Any, venue: Venue) -> Hold:
    """A ``Hold`` from a holds row (mapping), its items and its enquiry's fields (mapping);
    its kind named as the venue names it now (a kind the venue no longer lists: its id)."""
    first = items[0]
    kind = venue.policy.kind(enquiry["kind"])
    outcome = hold.get("outcome")
    return Hold(
        id=hold["id"],
        venue_id=hold["venue_id"],
        room_id=first.room_id,
        room_name=first.room_name,
        parts=first.parts,
        local_date=hold["local_date"],
        start_at=first.start_at,
        end_at=first.end_at,
        span_end=first.span_end,
        kind=Kind(enquiry["kind_class"]),
        kind_id=enquiry["kind"],
        kind_name=kind.name if kind else enquiry["kind"],
        guests=enquiry["guests"],
        contact=enquiry["contact"],
        outcome=Outcome(outcome) if outcome else None,
        details=details.from_mapping(enquiry),
        customer=enquiry["customer"],
        note=enquiry["note"],
        salesperson=enquiry["salesperson"],
        creator=enquiry["creator"],
        status=Status(hold["status"]),
        rank=hold["rank"],
        expires_at=hold["expires_at"],
        extensions_used=hold["extensions_used"],
        created_at=hold["created_at"],
        updated_at=hold["updated_at"],
        enquiry_id=hold["enquiry_id"],
        items=items,
        version=hold["version"],
        nudged_at=hold.get("nudged_at"),
    )


def _item(
    venue: Venue, room_id: str, start: datetime, end: datetime, span_end: datetime, rank: int | None
) -> HoldItem:
    room = venue.rooms[room_id]
    return HoldItem(room.id, room.name, room.parts, start, end, span_end, rank)


def get(conn: sa.Connection, venue: Venue, hold_id: int) -> Hold | None:
    row = conn.execute(_HOLDS.where(holds.c.venue_id == venue.id, holds.c.id == hold_id)).first()
    return from_row(row, venue) if row else None


def get_many(conn: sa.Connection, venue: Venue, ids: Iterable[int]) -> list[Hold]:
    wanted = sorted(set(ids))
    if not wanted:
        return []
    rows = conn.execute(
        _HOLDS.where(holds.c.venue_id == venue.id, holds.c.id == sa.any_(_ids(wanted))).order_by(
            holds.c.id
        )
    )
    return [from_row(r, venue) for r in rows]


def of_enquiry(conn: sa.Connection, venue: Venue, enquiry_id: int) -> list[Hold]:
    """Every hold of an enquiry (its candidate dates, live or decided), in arrival order."""
    rows = conn.execute(
        _HOLDS.where(holds.c.venue_id == venue.id, holds.c.enquiry_id == enquiry_id).order_by(
            holds.c.id
        )
    )
    return [from_row(r, venue) for r in rows]


# Live holds of other enquiries of one customer (by the compared name), through the
# enquiries' name index: one fixed statement, prepared by psycopg.
_SAME_CUSTOMER = sa.text(
    """
    SELECT h.id
    FROM enquiries e
    JOIN holds h ON h.venue_id = e.venue_id AND h.enquiry_id = e.id
    WHERE e.venue_id = :venue AND e.customer_key = :key
      AND e.id <> coalesce(CAST(:besides AS bigint), -1)
      AND h.status IN ('tentative', 'confirmed')
    ORDER BY h.id
    LIMIT 20
    """
)


def same_customer(conn: sa.Connection, venue_id: str, key: str, besides: int | None) -> list[int]:
    """Ids of live holds of enquiries other than ``besides`` whose customer compares as
    ``key`` (at most 20, the earliest)."""
    found = conn.execute(_SAME_CUSTOMER, {"venue": venue_id, "key": key, "besides": besides})
    return list(found.scalars())


# A span overlapping [s, e) starts before e and after s - MAX_SPAN, and ends after s: a range
# scan of the B-tree on (venue, part, start), index-only (it covers every column read). Span
# rows alone decide a rank, so requests read no hold rows: under SERIALIZABLE, fewer pages
# read means fewer false serialization failures. One fixed statement for any number of
# probes, so it is compiled once and psycopg prepares it on the server.
_OCCUPANTS = sa.text(
    """
    SELECT DISTINCT s.hold_id, s.item_no, s.part_id, s.starts_at, s.ends_at, s.blocking,
                    s.confirmed
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
    """The live items whose spans conflict with one of ``spans``, on those spans' parts."""
    probes = sorted({(p, s.start, s.end) for s in spans for p in s.parts})
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
    found: dict[tuple[int, int], list[sa.Row[tuple[object, ...]]]] = {}
    for row in rows:
        found.setdefault((row.hold_id, row.item_no), []).append(row)
    return [
        Occupant(
            hold_id=hold_id,
            item=item_no,
            span=Span(frozenset(r.part_id for r in mine), mine[0].starts_at, mine[0].ends_at),
            confirmed=mine[0].confirmed,
            first=mine[0].blocking and not mine[0].confirmed,
        )
        for (hold_id, item_no), mine in sorted(found.items())
    ]


def live_conflicting(conn: sa.Connection, venue: Venue, spans: Sequence[Span]) -> list[Hold]:
    """Live holds with an item that conflicts with one of ``spans``, in arrival order."""
    return get_many(conn, venue, [o.hold_id for o in occupants(conn, venue, spans)])


@dataclass(frozen=True)
class NewHold:
    """A tentative hold to write: its items (with their ranks) and its enquiry, an existing
    one (``enquiry_id``) or a new one made of the fields here."""

    enquiry_id: int | None
    customer: str
    customer_key: str
    kind: Kind  # the class
    salesperson: str
    creator: str
    note: str
    local_date: date
    rank: int
    expires_at: datetime | None
    items: tuple[HoldItem, ...]
    kind_id: str = ""  # the venue's kind ("" : the class's default kind)
    guests: int | None = None
    contact: str = field(default="", repr=False)
    details: Details = field(default_factory=Details)


# The enquiry (when new), the hold, its items, their span rows and its audit event in one
# fixed statement (compiled once, prepared by psycopg). Ids come from the sequences here,
# after the caller's part-day bump: one hold id (its arrival order) for all its items.
_INSERT = sa.text(
    """
    WITH new_enquiry AS (
      INSERT INTO enquiries (venue_id, id, customer, customer_key, kind, kind_class,
                             salesperson, creator, note, guests, contact, estimate, plan, source,
                             next_action, next_action_note, version, created_at, updated_at)
      SELECT :venue, nextval('enquiries_id_seq'), :customer, :customer_key, :kind_id, :kind,
             :salesperson, :creator, :note, CAST(:guests AS integer), :contact,
             CAST(:estimate AS bigint), :plan, :source, CAST(:next_action AS date),
             :next_action_note, 0, :now, :now
      WHERE CAST(:enquiry_id AS bigint) IS NULL
      RETURNING id
    ), joined AS (  -- what a candidate brings (note, guests, contact, details) is the enquiry's
      UPDATE enquiries SET note = :note, guests = CAST(:guests AS integer), contact = :contact,
                           estimate = CAST(:estimate AS bigint), plan = :plan, source = :source,
                           next_action = CAST(:next_action AS date),
                           next_action_note = :next_action_note, updated_at = :now
      WHERE venue_id = :venue AND id = CAST(:enquiry_id AS bigint)
        AND (note, guests, contact, estimate, plan, source, next_action, next_action_note)
            IS DISTINCT FROM (CAST(:note AS text), CAST(:guests AS integer), CAST(:contact AS text),
                              CAST(:estimate AS bigint), CAST(:plan AS text),
                              CAST(:source AS text), CAST(:next_action AS date),
                              CAST(:next_action_note AS text))
    ), new_hold AS (
      INSERT INTO holds (venue_id, id, enquiry_id, local_date, status, rank, expires_at,
                         extensions_used, created_at, updated_at)
      SELECT :venue, nextval('holds_id_seq'),
             coalesce((SELECT id FROM new_enquiry), CAST(:enquiry_id AS bigint)),
             :local_date, 'tentative', :rank, :expires_at, 0, :now, :now
      RETURNING *
    ), new_items AS (
      INSERT INTO hold_items (venue_id, hold_id, item_no, room_id, start_at, end_at, span_end,
                              rank)
      SELECT h.venue_id, h.id, i.n, i.room_id, i.start_at, i.end_at, i.span_end, i.rank
      FROM new_hold h,
           unnest(CAST(:rooms AS text[]), CAST(:starts AS timestamptz[]),
                  CAST(:ends AS timestamptz[]), CAST(:span_ends AS timestamptz[]),
                  CAST(:ranks AS smallint[]))
             WITH ORDINALITY AS i(room_id, start_at, end_at, span_end, rank, n)
      RETURNING item_no, room_id, start_at, end_at, span_end, rank
    ), new_spans AS (
      INSERT INTO hold_spans (venue_id, hold_id, item_no, part_id, starts_at, ends_at,
                              blocking, confirmed)
      SELECT h.venue_id, h.id, s.n, s.part_id, s.starts_at, s.ends_at, s.blocking, false
      FROM new_hold h,
           unnest(CAST(:span_items AS smallint[]), CAST(:span_parts AS text[]),
                  CAST(:span_starts AS timestamptz[]), CAST(:span_stops AS timestamptz[]),
                  CAST(:span_blocking AS boolean[])) AS s(n, part_id, starts_at, ends_at, blocking)
    ), new_event AS (
      INSERT INTO audit_events (venue_id, hold_id, actor, action, at, detail)
      SELECT h.venue_id, h.id, :actor, :action, :now,
             CAST(:detail AS jsonb) || jsonb_build_object('enquiry', h.enquiry_id)
      FROM new_hold h
    )
    -- The items as stored (as every read gives them), like the hold row itself.
    SELECT h.*, i.*
    FROM new_hold h,
         (SELECT array_agg(room_id ORDER BY item_no) AS item_rooms,
                 array_agg(start_at ORDER BY item_no) AS item_starts,
                 array_agg(end_at ORDER BY item_no) AS item_ends,
                 array_agg(span_end ORDER BY item_no) AS item_span_ends,
                 array_agg(rank ORDER BY item_no) AS item_ranks
          FROM new_items) AS i
    """
)


def insert(
    conn: sa.Connection, venue: Venue, new: NewHold, now: datetime, event: AuditEvent
) -> Hold:
    """A new hold, its items, their span rows and ``event`` (its hold id filled in) in one
    statement; an item of rank 1 blocks its parts from the start."""
    spans = [
        (n, part, item.start_at, item.span_end, item.rank == 1)
        for n, item in enumerate(new.items, start=1)
        for part in sorted(item.parts)
    ]
    params = {
        "venue": venue.id,
        "now": now,
        "enquiry_id": new.enquiry_id,
        "customer": new.customer,
        "customer_key": new.customer_key,
        "kind": new.kind.value,
        "kind_id": new.kind_id or new.kind.value,
        "salesperson": new.salesperson,
        "creator": new.creator,
        "note": new.note,
        "guests": new.guests,
        "contact": new.contact,
        **details.params(new.details),
        "local_date": new.local_date,
        "rank": new.rank,
        "expires_at": new.expires_at,
        "rooms": [i.room_id for i in new.items],
        "starts": [i.start_at for i in new.items],
        "ends": [i.end_at for i in new.items],
        "span_ends": [i.span_end for i in new.items],
        "ranks": [i.rank for i in new.items],
        "span_items": [s[0] for s in spans],
        "span_parts": [s[1] for s in spans],
        "span_starts": [s[2] for s in spans],
        "span_stops": [s[3] for s in spans],
        "span_blocking": [s[4] for s in spans],
        "actor": event.actor,
        "action": event.action,
        "detail": json.dumps(dict(event.detail), ensure_ascii=False),
    }
    row = conn.execute(_INSERT, params).one()._mapping
    fields = {
        "customer": new.customer,
        "kind": new.kind_id or new.kind.value,
        "kind_class": new.kind.value,
        "note": new.note,
        "salesperson": new.salesperson,
        "creator": new.creator,
        "guests": new.guests,
        "contact": new.contact,
        **details.params(new.details),
    }
    return assemble(row, _items(row, venue), fields, venue)


_LEAVE = sa.text(
    """
    WITH left_holds AS (
      UPDATE holds SET status = :status, rank = NULL, expires_at = NULL, updated_at = :now,
                       version = version + 1, outcome = :outcome
      WHERE venue_id = :venue AND id = ANY(CAST(:ids AS bigint[]))
    ), left_items AS (
      UPDATE hold_items SET rank = NULL
      WHERE venue_id = :venue AND hold_id = ANY(CAST(:ids AS bigint[]))
    )
    DELETE FROM hold_spans WHERE venue_id = :venue AND hold_id = ANY(CAST(:ids AS bigint[]))
    """
)


def leave(
    conn: sa.Connection,
    venue: Venue,
    ids: Sequence[int],
    status: Status,
    now: datetime,
    outcome: Outcome | None = None,
) -> None:
    """Holds stop being live, every item at once: released (``outcome`` says why), expired
    or cancelled; their spans go."""
    if ids:
        params = {
            "venue": venue.id,
            "ids": list(ids),
            "status": status.value,
            "now": now,
            "outcome": outcome.value if outcome else None,
        }
        conn.execute(_LEAVE, params)


@dataclass(frozen=True)
class RankChange:
    """A waiting hold moves up: its new rank and deadline, and the items whose rank moved."""

    hold_id: int
    rank: int
    expires_at: datetime | None
    items: tuple[tuple[int, int], ...]  # (item number, new rank)


_SET_RANKS = sa.text(
    """
    WITH moved_holds AS (
      UPDATE holds h SET rank = m.rank, expires_at = m.expires_at, updated_at = :now,
                         version = h.version + 1
      FROM unnest(CAST(:ids AS bigint[]), CAST(:ranks AS smallint[]),
                  CAST(:expires AS timestamptz[])) AS m(id, rank, expires_at)
      WHERE h.venue_id = :venue AND h.id = m.id
    ), moved_items AS (
      UPDATE hold_items i SET rank = m.rank
      FROM unnest(CAST(:item_holds AS bigint[]), CAST(:item_nos AS smallint[]),
                  CAST(:item_ranks AS smallint[])) AS m(hold_id, item_no, rank)
      WHERE i.venue_id = :venue AND i.hold_id = m.hold_id AND i.item_no = m.item_no
    )
    UPDATE hold_spans s SET blocking = true
    FROM unnest(CAST(:item_holds AS bigint[]), CAST(:item_nos AS smallint[]),
                CAST(:item_ranks AS smallint[])) AS m(hold_id, item_no, rank)
    WHERE m.rank = 1
      AND s.venue_id = :venue AND s.hold_id = m.hold_id AND s.item_no = m.item_no
    """
)


def set_ranks(
    conn: sa.Connection, venue: Venue, moves: Sequence[RankChange], now: datetime
) -> None:
    """Waiting holds move up; an item that reaches rank 1 starts blocking its parts."""
    if not moves:
        return
    moved = [(m.hold_id, n, rank) for m in moves for n, rank in m.items]
    conn.execute(
        _SET_RANKS,
        {
            "venue": venue.id,
            "now": now,
            "ids": [m.hold_id for m in moves],
            "ranks": [m.rank for m in moves],
            "expires": [m.expires_at for m in moves],
            "item_holds": [i[0] for i in moved],
            "item_nos": [i[1] for i in moved],
            "item_ranks": [i[2] for i in moved],
        },
    )


_CONFIRM = sa.text(
    """
    WITH confirmed AS (
      UPDATE holds SET status = 'confirmed', rank = NULL, expires_at = NULL, updated_at = :now,
                       version = version + 1
      WHERE venue_id = :venue AND id = :id
    ), items AS (
      UPDATE hold_items SET rank = NULL WHERE venue_id = :venue AND hold_id = :id
    )
    UPDATE hold_spans SET confirmed = true, blocking = true
    WHERE venue_id = :venue AND hold_id = :id
    """
)


def confirm(conn: sa.Connection, venue: Venue, hold_id: int, now: datetime) -> None:
    conn.execute(_CONFIRM, {"venue": venue.id, "id": hold_id, "now": now})


def extend(
    conn: sa.Connection, venue: Venue, hold: Hold, expires_at: datetime, now: datetime
) -> None:
    conn.execute(
        holds.update()
        .where(holds.c.venue_id == venue.id, holds.c.id == hold.id)
        .values(
            expires_at=expires_at,
            extensions_used=hold.extensions_used + 1,
            updated_at=now,
            version=holds.c.version + 1,
        )
    )


def nudge(
    conn: sa.Connection, venue: Venue, hold: Hold, expires_at: datetime, now: datetime
) -> None:
    """A waiting hold asked this 1st to answer: its deadline (never later), once."""
    conn.execute(
        holds.update()
        .where(holds.c.venue_id == venue.id, holds.c.id == hold.id)
        .values(
            expires_at=expires_at,
            nudged_at=now,
            updated_at=now,
            version=holds.c.version + 1,
        )
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
    due = sa.select(holds.c.id).where(
        holds.c.venue_id == venue.id,
        holds.c.status == Status.TENTATIVE,
        holds.c.rank == 1,
        holds.c.expires_at <= by,
    )
    if after is not None:
        due = due.where(holds.c.expires_at > after)
    # The ids first, then the items of just those: else every due hold's items are gathered
    # before the sort keeps ``limit`` of them (a sweep's batches read 10,000 holds' items).
    due = due.order_by(holds.c.expires_at, holds.c.id).limit(limit)
    query = _HOLDS.where(holds.c.venue_id == venue.id, holds.c.id.in_(due.scalar_subquery()))
    query = query.order_by(holds.c.expires_at, holds.c.id)
    return [from_row(r, venue) for r in conn.execute(query)]


def listing(
    conn: sa.Connection,
    venue: Venue,
    *,
    on: date | None = None,
    salesperson: str | None = None,
    statuses: Iterable[Status] | None = None,
    updated_since: datetime | None = None,
    limit: int | None = 500,
    since: date | None = None,
) -> list[Hold]:
    query = _HOLDS.where(holds.c.venue_id == venue.id)
    if on is not None:
        query = query.where(holds.c.local_date == on)
    if since is not None:
        query = query.where(holds.c.local_date >= since)
    if salesperson is not None:
        query = query.where(enquiries.c.salesperson == salesperson)
    if statuses is not None:
        query = query.where(holds.c.status.in_([s.value for s in statuses]))
    if updated_since is not None:
        query = query.where(holds.c.updated_at >= updated_since)
    query = query.order_by(holds.c.local_date, _ITEMS.c.first_start, holds.c.id).limit(limit)
    return [from_row(r, venue) for r in conn.execute(query)]


def _ids(ids: Iterable[int]) -> sa.BindParameter[Any]:
    """Ids as one array parameter: one plan, one value to send, however many ids."""
    return sa.bindparam("ids", list(ids), type_=cast(Any, ARRAY(sa.BigInteger)))


def live_on(conn: sa.Connection, venue: Venue, days: Sequence[date]) -> list[Hold]:
    """Live holds of these local dates (one statement through the date index), in time order."""
    query = _HOLDS.where(
        holds.c.venue_id == venue.id,
        holds.c.local_date.in_(list(days)),
        holds.c.status.in_([Status.TENTATIVE.value, Status.CONFIRMED.value]),
    ).order_by(_ITEMS.c.first_start, holds.c.id)
    return [from_row(r, venue) for r in conn.execute(query)]


def live_between(conn: sa.Connection, venue: Venue, first: date, last: date) -> list[Hold]:
    """Live holds of the local dates ``first`` to ``last`` (both included), in one statement
    through the date index, by date, then start: what a diary of those days draws."""
    query = _HOLDS.where(
        holds.c.venue_id == venue.id,
        holds.c.local_date.between(first, last),
        holds.c.status.in_([Status.TENTATIVE.value, Status.CONFIRMED.value]),
    ).order_by(holds.c.local_date, _ITEMS.c.first_start, holds.c.id)
    return [from_row(r, venue) for r in conn.execute(query)]


def waiting(conn: sa.Connection, venue: Venue, since: date, limit: int = 500) -> list[Hold]:
    """Tentative holds behind another (rank 2 and more) from ``since`` on, soonest first."""
    query = (
        _HOLDS.where(
            holds.c.venue_id == venue.id,
            holds.c.status == Status.TENTATIVE.value,
            holds.c.rank > 1,
            holds.c.local_date >= since,
        )
        .order_by(holds.c.local_date, _ITEMS.c.first_start, holds.c.id)
        .limit(limit)
    )
    return [from_row(r, venue) for r in conn.execute(query)]
