"""The triggers that keep ``part_days.spans`` (0006) find their rows by key, not by a scan.

0006's trigger statements listed a span's local dates with ``generate_series``, which the
planner takes to return 1,000 rows a span. A statement that moved a few hundred spans (a
sweep's batch, a confirmation that releases a package) was planned as a join of 100,000s of
part-days and read the whole ``part_days`` table: a sweep of 10,000 due holds spent 2.5 s of
its 7 s there at 1,000,000 holds. ``part_day_dates`` lists the same dates and tells the
planner to expect two (a span lasts at most ``MAX_SPAN``, 48 hours: it touches one to three
dates), so the rows are found through the primary key. It is PL/pgSQL because a one-query
SQL function would be inlined and its row estimate forgotten.

The trigger function is the same as 0006's but for that call.

Revision ID: 0007_part_day_dates
Revises: 0006_ledger_spans
"""

from __future__ import annotations

from alembic import op

revision = "0007_part_day_dates"
down_revision = "0006_ledger_spans"
branch_labels = None
depends_on = None

_DATES = """
CREATE FUNCTION part_day_dates(starts timestamptz, ends timestamptz, tz text)
RETURNS SETOF date LANGUAGE plpgsql STABLE STRICT ROWS 2 AS $$
BEGIN
  RETURN QUERY SELECT CAST(d.day AS date) FROM generate_series(
    CAST(starts AT TIME ZONE tz AS date),
    CAST((ends - interval '1 microsecond') AT TIME ZONE tz AS date),
    interval '1 day') AS d(day);
END
$$
"""


def _function(dates: str) -> str:
    """0006's ``part_day_spans()``, with ``dates`` listing a span row's local dates."""
    touched = f"""
        FROM {{rows}} s JOIN venues v ON v.id = s.venue_id
        CROSS JOIN LATERAL {dates} AS d(day)
    """
    entry = """
        jsonb_object_agg(s.hold_id || ':' || s.item_no, jsonb_build_array(
            CAST(extract(epoch FROM s.starts_at) * 1000000 AS bigint),
            CAST(extract(epoch FROM s.ends_at) * 1000000 AS bigint),
            s.blocking, s.confirmed))
    """
    return f"""
    CREATE OR REPLACE FUNCTION part_day_spans() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE part_days p SET spans = p.spans - g.keys
        FROM (SELECT s.venue_id, s.part_id, CAST(d.day AS date) AS day,
                     array_agg(s.hold_id || ':' || s.item_no) AS keys
              {touched.format(rows="old_spans")}
              GROUP BY 1, 2, 3) AS g
        WHERE p.venue_id = g.venue_id AND p.part_id = g.part_id AND p.day = g.day;
      END IF;
      IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO part_days AS p (venue_id, part_id, day, version, live_spans, spans)
        SELECT s.venue_id, s.part_id, CAST(d.day AS date), 1, 0, {entry}
        {touched.format(rows="new_spans")}
        GROUP BY 1, 2, 3
        ORDER BY 1, 2, 3
        ON CONFLICT (venue_id, part_id, day) DO UPDATE SET spans = p.spans || EXCLUDED.spans;
      END IF;
      RETURN NULL;
    END
    $$
    """  # noqa: S608 - constants of this module, no input


_OLD_DATES = """generate_series(
            CAST(s.starts_at AT TIME ZONE v.timezone AS date),
            CAST((s.ends_at - interval '1 microsecond') AT TIME ZONE v.timezone AS date),
            interval '1 day')"""


def upgrade() -> None:
    op.execute(_DATES)
    op.execute(_function("part_day_dates(s.starts_at, s.ends_at, v.timezone)"))


def downgrade() -> None:
    op.execute(_function(_OLD_DATES))
    op.execute("DROP FUNCTION part_day_dates(timestamptz, timestamptz, text)")
