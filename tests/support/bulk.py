"""Many consistent holds at once, written with set-based SQL (tests with thousands of rows,
the 1M-hold benchmark). Every hold written is a non-conflicting 1st or confirmed hold, so the
engine's invariants hold over the result; the tests check that they do."""

from __future__ import annotations

from datetime import date, datetime

import sqlalchemy as sa

from core.model import Venue

SLOTS = ((8 * 60, 11 * 60), (13 * 60, 16 * 60), (18 * 60, 21 * 60))  # 60 min turnover fits

_FILL = sa.text(
    """
    WITH g AS MATERIALIZED (
      SELECT n,
             nextval('enquiries_id_seq') AS enquiry_id,
             nextval('holds_id_seq') AS id,
             (CAST(:rooms AS text[]))[1 + n % cardinality(CAST(:rooms AS text[]))] AS room_id,
             CAST(:first_day AS date)
               + (n / cardinality(CAST(:rooms AS text[])) / 3) AS day,
             (n / cardinality(CAST(:rooms AS text[]))) % 3 AS slot
      FROM generate_series(0, :count - 1) AS n
    ), t AS MATERIALIZED (
      SELECT g.*, (g.day + make_interval(mins => (CAST(:starts AS int[]))[slot + 1]))
                    AT TIME ZONE :tz AS start_at,
                  (g.day + make_interval(mins => (CAST(:ends AS int[]))[slot + 1]))
                    AT TIME ZONE :tz AS end_at
      FROM g
    ), e AS (
      INSERT INTO enquiries (venue_id, id, customer, customer_key, kind, kind_class,
                             salesperson, creator, note, contact, version, created_at,
                             updated_at)
      SELECT :venue, enquiry_id, 'bulk ' || n, 'bulk' || n,
             CASE WHEN n % 2 = 0 THEN 'wedding' ELSE 'banquet' END,
             CASE WHEN n % 2 = 0 THEN 'wedding' ELSE 'banquet' END,
             :salesperson, :salesperson, '', '', 0, CAST(:now AS timestamptz),
             CAST(:now AS timestamptz)
      FROM t
    ), h AS (
      INSERT INTO holds (venue_id, id, enquiry_id, local_date, status, rank, expires_at,
                         extensions_used, created_at, updated_at)
      SELECT :venue, id, enquiry_id, day, :status,
             CASE WHEN :status = 'tentative' THEN CAST(:rank AS smallint) END,
             CASE WHEN :status = 'tentative' AND :rank = 1
                  THEN LEAST(CAST(:expires AS timestamptz), start_at) END,
             0, CAST(:now AS timestamptz), CAST(:now AS timestamptz)
      FROM t
    ), i AS (
      INSERT INTO hold_items (venue_id, hold_id, item_no, room_id, start_at, end_at, span_end,
                              rank)
      SELECT :venue, id, 1, room_id, start_at, end_at, end_at + interval '60 minutes',
             CASE WHEN :status = 'tentative' THEN CAST(:rank AS smallint) END
      FROM t
    ), s AS (
      INSERT INTO hold_spans (venue_id, hold_id, item_no, part_id, starts_at, ends_at,
                              blocking, confirmed)
      SELECT :venue, t.id, 1, rp.part_id, t.start_at, t.end_at + interval '60 minutes',
             :rank = 1 OR :status = 'confirmed', :status = 'confirmed'
      FROM t JOIN room_parts rp ON rp.venue_id = :venue AND rp.room_id = t.room_id
      WHERE :status IN ('tentative', 'confirmed')
      RETURNING part_id, starts_at
    )
    -- Every slot lies inside one local day, so each span counts on one part-day row.
    INSERT INTO part_days (venue_id, part_id, day, version, live_spans)
    SELECT :venue, part_id, CAST(starts_at AT TIME ZONE :tz AS date), 1, count(*)
    FROM s GROUP BY 2, 3
    ON CONFLICT (venue_id, part_id, day) DO UPDATE
      SET version = part_days.version + 1,
          live_spans = part_days.live_spans + EXCLUDED.live_spans
    """
)


def fill(
    conn: sa.Connection,
    venue: Venue,
    count: int,
    *,
    first_day: date,
    now: datetime,
    expires: datetime,
    rooms: list[str] | None = None,
    status: str = "tentative",
    rank: int = 1,
    salesperson: str = "U0BULK0001",
) -> None:
    """``count`` holds on ``rooms`` (parts pairwise disjoint), three slots a day from ``first_day``.

    Tentative ones are 1st holds with deadline ``min(expires, start)``, or with ``rank=2`` the
    2nds behind an earlier fill of the same layout; released, expired or cancelled ones have
    no span rows, like the engine's.
    """
    chosen = rooms or _disjoint_rooms(venue)
    conn.execute(
        _FILL,
        {
            "venue": venue.id,
            "rooms": chosen,
            "first_day": first_day,
            "count": count,
            "starts": [s for s, _ in SLOTS],
            "ends": [e for _, e in SLOTS],
            "tz": venue.timezone,
            "salesperson": salesperson,
            "status": status,
            "rank": rank,
            "expires": expires,
            "now": now,
        },
    )


def _disjoint_rooms(venue: Venue) -> list[str]:
    """Rooms whose parts no other chosen room shares (halves rather than the whole)."""
    chosen: list[str] = []
    used: set[str] = set()
    for room in sorted(venue.rooms.values(), key=lambda r: len(r.parts)):
        if not room.parts & used:
            chosen.append(room.id)
            used |= room.parts
    return chosen
