"""Each part-day row carries the live spans that touch it, so a request reads what is in its
way from the rows its bump writes, not from ``hold_spans``' index (docs/architecture.md,
Concurrency: the ledger carries the spans).

``part_days.spans`` is a JSON object keyed ``"<hold id>:<item no>"``, each value
``[start, end, blocking, confirmed]`` with start and end in microseconds since the epoch.
Triggers on ``hold_spans`` keep it: every statement that inserts, updates or deletes span
rows changes the part-day rows those spans touch, in the venue's time zone, in the same
statement's transaction. Stored spans are copied in on upgrade.

Revision ID: 0006_ledger_spans
Revises: 0005_cards
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0006_ledger_spans"
down_revision = "0005_cards"
branch_labels = None
depends_on = None

# The part-days a span row touches: the venue-local dates of [starts_at, ends_at).
_TOUCHED = """
    FROM {rows} s JOIN venues v ON v.id = s.venue_id
    CROSS JOIN LATERAL generate_series(
        CAST(s.starts_at AT TIME ZONE v.timezone AS date),
        CAST((s.ends_at - interval '1 microsecond') AT TIME ZONE v.timezone AS date),
        interval '1 day') AS d(day)
"""
_ENTRY = """
    jsonb_object_agg(s.hold_id || ':' || s.item_no, jsonb_build_array(
        CAST(extract(epoch FROM s.starts_at) * 1000000 AS bigint),
        CAST(extract(epoch FROM s.ends_at) * 1000000 AS bigint),
        s.blocking, s.confirmed))
"""
# Entries arrive through INSERT ... ON CONFLICT, in the bump's key order: its arbiter check
# takes no predicate lock, so a request's write of its own spans adds no SERIALIZABLE
# conflict beyond the rows its bump already wrote. A new row (only written by code that
# did not bump first) starts as the bump would have made it.
_ENTER = f"""
    INSERT INTO part_days AS p (venue_id, part_id, day, version, live_spans, spans)
    SELECT s.venue_id, s.part_id, CAST(d.day AS date), 1, 0, {_ENTRY}
    {_TOUCHED.format(rows="new_spans")}
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
    ON CONFLICT (venue_id, part_id, day) DO UPDATE SET spans = p.spans || EXCLUDED.spans;
"""
_LEAVE = f"""
    UPDATE part_days p SET spans = p.spans - g.keys
    FROM (SELECT s.venue_id, s.part_id, CAST(d.day AS date) AS day,
                 array_agg(s.hold_id || ':' || s.item_no) AS keys
          {_TOUCHED.format(rows="old_spans")}
          GROUP BY 1, 2, 3) AS g
    WHERE p.venue_id = g.venue_id AND p.part_id = g.part_id AND p.day = g.day;
"""  # noqa: S608 - constants of this module, no input
_FUNCTION = f"""
CREATE FUNCTION part_day_spans() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    {_LEAVE}
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    {_ENTER}
  END IF;
  RETURN NULL;
END
$$
"""
_TRIGGERS = {
    "hold_spans_enter": "AFTER INSERT ON hold_spans REFERENCING NEW TABLE AS new_spans",
    "hold_spans_change": (
        "AFTER UPDATE ON hold_spans REFERENCING OLD TABLE AS old_spans NEW TABLE AS new_spans"
    ),
    "hold_spans_leave": "AFTER DELETE ON hold_spans REFERENCING OLD TABLE AS old_spans",
}


def upgrade() -> None:
    op.add_column(
        "part_days",
        sa.Column("spans", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
    )
    op.execute(_FUNCTION)
    for name, when in _TRIGGERS.items():
        op.execute(
            f"CREATE TRIGGER {name} {when} FOR EACH STATEMENT EXECUTE FUNCTION part_day_spans()"
        )
    op.execute(
        f"""
        INSERT INTO part_days AS p (venue_id, part_id, day, version, live_spans, spans)
        SELECT s.venue_id, s.part_id, CAST(d.day AS date), 1, 0, {_ENTRY}
        {_TOUCHED.format(rows="hold_spans")}
        GROUP BY 1, 2, 3
        ON CONFLICT (venue_id, part_id, day) DO UPDATE SET spans = EXCLUDED.spans
        """
    )


def downgrade() -> None:
    for name in _TRIGGERS:
        op.execute(f"DROP TRIGGER {name} ON hold_spans")
    op.execute("DROP FUNCTION part_day_spans()")
    op.drop_column("part_days", "spans")
