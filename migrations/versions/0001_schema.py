"""The hold engine's schema: venues, rooms, holds, per-part spans with the EXCLUDE gate,
the part-day ledger, outbox, audit events, idempotency records.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, ExcludeConstraint

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS btree_gist")
    op.create_table(
        "venues",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("timezone", sa.Text, nullable=False),
        sa.Column("policy", JSONB, nullable=False),
        sa.Column("managers", ARRAY(sa.Text), nullable=False),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_venues"),
    )
    op.create_table(
        "parts",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("id", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "id", name="pk_parts"),
        sa.ForeignKeyConstraint(["venue_id"], ["venues.id"], name="fk_parts_venue_id"),
    )
    op.create_table(
        "rooms",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("id", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("turnover_min", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "id", name="pk_rooms"),
        sa.ForeignKeyConstraint(["venue_id"], ["venues.id"], name="fk_rooms_venue_id"),
        sa.CheckConstraint("turnover_min BETWEEN 0 AND 1440", name="ck_rooms_turnover"),
    )
    op.create_table(
        "room_parts",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("room_id", sa.Text, nullable=False),
        sa.Column("part_id", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "room_id", "part_id", name="pk_room_parts"),
        sa.ForeignKeyConstraint(
            ["venue_id", "room_id"],
            ["rooms.venue_id", "rooms.id"],
            name="fk_room_parts_venue_id_room_id",
        ),
        sa.ForeignKeyConstraint(
            ["venue_id", "part_id"],
            ["parts.venue_id", "parts.id"],
            name="fk_room_parts_venue_id_part_id",
        ),
    )
    op.execute("CREATE SEQUENCE holds_id_seq")
    op.create_table(
        "holds",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column(
            "id", sa.BigInteger, nullable=False, server_default=sa.text("nextval('holds_id_seq')")
        ),
        sa.Column("room_id", sa.Text, nullable=False),
        sa.Column("local_date", sa.Date, nullable=False),
        sa.Column("start_at", TS, nullable=False),
        sa.Column("end_at", TS, nullable=False),
        sa.Column("span_end", TS, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("customer", sa.Text, nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("salesperson", sa.Text, nullable=False),
        sa.Column("creator", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("rank", sa.SmallInteger),
        sa.Column("expires_at", TS),
        sa.Column("extensions_used", sa.SmallInteger, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "id", name="pk_holds"),
        sa.ForeignKeyConstraint(
            ["venue_id", "room_id"],
            ["rooms.venue_id", "rooms.id"],
            name="fk_holds_venue_id_room_id",
        ),
        sa.CheckConstraint("kind IN ('wedding', 'banquet')", name="ck_holds_kind"),
        sa.CheckConstraint(
            "status IN ('tentative', 'confirmed', 'released', 'expired', 'cancelled')",
            name="ck_holds_status",
        ),
        sa.CheckConstraint("end_at > start_at AND span_end >= end_at", name="ck_holds_times"),
        sa.CheckConstraint(
            "(status = 'tentative') = (rank IS NOT NULL) AND rank >= 1", name="ck_holds_rank"
        ),
        sa.CheckConstraint(
            "(expires_at IS NOT NULL) = (status = 'tentative' AND rank = 1)",
            name="ck_holds_deadline",
        ),
    )
    op.execute("ALTER SEQUENCE holds_id_seq OWNED BY holds.id")
    op.create_index(
        "ix_holds_due",
        "holds",
        ["venue_id", "expires_at"],
        postgresql_where=sa.text("status = 'tentative' AND rank = 1"),
    )
    op.create_index("ix_holds_salesperson", "holds", ["venue_id", "salesperson", "local_date"])
    op.create_index("ix_holds_date", "holds", ["venue_id", "local_date"])
    op.create_table(
        "hold_spans",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("hold_id", sa.BigInteger, nullable=False),
        sa.Column("part_id", sa.Text, nullable=False),
        sa.Column("starts_at", TS, nullable=False),
        sa.Column("ends_at", TS, nullable=False),
        sa.Column("blocking", sa.Boolean, nullable=False),
        sa.Column("confirmed", sa.Boolean, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "hold_id", "part_id", name="pk_hold_spans"),
        ExcludeConstraint(
            (sa.column("venue_id"), "="),
            (sa.column("part_id"), "="),
            (sa.text("tstzrange(starts_at, ends_at, '[)')"), "&&"),
            name="ex_hold_spans_blocking",
            using="gist",
            where=sa.text("blocking"),
        ),
    )
    op.create_index(
        "ix_hold_spans_part_start",
        "hold_spans",
        ["venue_id", "part_id", "starts_at"],
        postgresql_include=["ends_at", "hold_id", "blocking", "confirmed"],
    )
    op.create_table(
        "part_days",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("part_id", sa.Text, nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("version", sa.BigInteger, nullable=False),
        sa.Column("live_spans", sa.Integer, nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("venue_id", "part_id", "day", name="pk_part_days"),
        postgresql_with={"fillfactor": 50},
    )
    op.create_table(
        "outbox",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("id", sa.BigInteger, sa.Identity(), nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("hold_id", sa.BigInteger),
        sa.Column("recipient", sa.Text, nullable=False),
        sa.Column("payload", JSONB, nullable=False),
        sa.Column("dedupe_key", sa.Text),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("available_at", TS, nullable=False),
        sa.Column("lease_owner", sa.Text),
        sa.Column("lease_until", TS),
        sa.Column("last_error", sa.Text),
        sa.Column("sent_at", TS),
        sa.Column("sent_channel", sa.Text),
        sa.Column("sent_ref", sa.Text),
        sa.Column("failure_reported_at", TS),
        sa.Column("created_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "id", name="pk_outbox"),
        sa.CheckConstraint("status IN ('pending', 'sent', 'failed')", name="ck_outbox_status"),
        sa.UniqueConstraint("venue_id", "dedupe_key", name="uq_outbox_dedupe"),
    )
    op.create_index(
        "ix_outbox_pending",
        "outbox",
        ["venue_id", "available_at"],
        postgresql_where=sa.text("status = 'pending'"),
    )
    op.create_table(
        "audit_events",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("id", sa.BigInteger, sa.Identity(), nullable=False),
        sa.Column("hold_id", sa.BigInteger),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("at", TS, nullable=False),
        sa.Column("detail", JSONB, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "id", name="pk_audit_events"),
    )
    op.create_index("ix_audit_events_hold", "audit_events", ["venue_id", "hold_id"])
    op.create_table(
        "idempotency_records",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("request_hash", sa.Text, nullable=False),
        sa.Column("response", JSONB, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "key", name="pk_idempotency_records"),
    )


def downgrade() -> None:
    for table in (
        "idempotency_records",
        "audit_events",
        "outbox",
        "part_days",
        "hold_spans",
        "holds",
        "room_parts",
        "rooms",
        "parts",
        "venues",
    ):
        op.drop_table(table)
    # btree_gist stays: other schemas in the database may use it.
