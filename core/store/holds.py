"""Reading holds, their items and their per-part span rows (their writes: ``hold_writes``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY, aggregate_order_by

from core.deposits import Deposit
from core.model import Hold, HoldItem, Kind, Outcome, Status, Venue
from core.rules.requests import Occupant
from core.rules.spans import MAX_SPAN, Span
from core.store import details
from core.store.schema import enquiries, hold_items, holds, staff_names


def _agg(column: sa.ColumnElement[Any], label: str) -> sa.Label[Any]:
    ordered = aggregate_order_by(column, hold_items.c.item_no)
    return sa.func.array_agg(ordered, type_=ARRAY(column.type)).label(label)


# Its booking's deposit (予約金, 0015): shown on its confirmed hold (``_deposit``).
DEPOSIT_COLUMNS = (
    enquiries.c.deposit_due,
    enquiries.c.deposit_paid_at,
    enquiries.c.deposit_paid_by,
    enquiries.c.deposit_amount,
)

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
    *DEPOSIT_COLUMNS,
    staff_names.c.name.label("salesperson_name"),
    *_ITEMS.c,
).select_from(
    holds.join(
        enquiries,
        sa.and_(enquiries.c.venue_id == holds.c.venue_id, enquiries.c.id == holds.c.enquiry_id),
    )
    .join(_ITEMS, sa.true())
    .outerjoin(
        staff_names,
        sa.and_(
            staff_names.c.venue_id == enquiries.c.venue_id,
            staff_names.c.user_id == enquiries.c.salesperson,
        ),
    )
)


def from_row(row: sa.Row[tuple[object, ...]], venue: Venue) -> Hold:
    m = row._mapping
    return assemble(m, items_of(m, venue), m, venue)


def items_of(m: Any, venue: Venue) -> tuple[HoldItem, ...]:
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
        reason=hold.get("reason"),
        reason_note=hold.get("reason_note") or "",
        details=details.from_mapping(enquiry),
        salesperson_name=enquiry.get("salesperson_name")
        or venue.policy.person(enquiry["salesperson"]),
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
        deposit=_deposit(Status(hold["status"]), enquiry),
        house=bool(hold.get("house")),
    )


def _deposit(status: Status, m: Any) -> Deposit:
    """The deposit a hold shows: its booking's while confirmed; once cancelled, only what was
    paid (no longer due); none for any other hold or a row without ``DEPOSIT_COLUMNS``."""
    if status not in (Status.CONFIRMED, Status.CANCELLED) or "deposit_due" not in m:
        return Deposit()
    due = m["deposit_due"] if status is Status.CONFIRMED else None
    return Deposit(due, m["deposit_paid_at"], m["deposit_paid_by"] or "", m["deposit_amount"])


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
