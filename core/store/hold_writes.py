"""Writing holds: a new hold with its items, spans and audit event in one statement, and
what decisions change (leaving, ranks, confirmation, a new deadline)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

import sqlalchemy as sa

from core.events import AuditEvent
from core.model import Details, Hold, HoldItem, Kind, Outcome, Status, Venue
from core.store import details
from core.store.holds import assemble, items_of
from core.store.schema import holds


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
    house: bool = False  # 社内押さえ: 1st with no deadline


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
                         extensions_used, created_at, updated_at, house)
      SELECT :venue, nextval('holds_id_seq'),
             coalesce((SELECT id FROM new_enquiry), CAST(:enquiry_id AS bigint)),
             :local_date, 'tentative', :rank, :expires_at, 0, :now, :now, :house
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
        "house": new.house,
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
    return assemble(row, items_of(row, venue), fields, venue)


_LEAVE = sa.text(
    """
    WITH left_holds AS (
      UPDATE holds SET status = :status, rank = NULL, expires_at = NULL, updated_at = :now,
                       version = version + 1, outcome = :outcome, reason = :reason,
                       reason_note = :note
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
    reason: str | None = None,
    note: str = "",
) -> None:
    """Holds stop being live, every item at once: released (``outcome`` says why, with a
    withdrawal's ``reason`` code and ``note``), expired or cancelled; their spans go."""
    if ids:
        params = {
            "venue": venue.id,
            "ids": list(ids),
            "status": status.value,
            "now": now,
            "outcome": outcome.value if outcome else None,
            "reason": reason,
            "note": note,
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
