"""The window ping (開放日に知らせる): who asked to be told when a date's banquet window opens.

Revision ID: 0016_window_pings
Revises: 0015_deposits
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0016_window_pings"
down_revision = "0015_deposits"
branch_labels = None
depends_on = None


def upgrade() -> None:
    ts = sa.DateTime(timezone=True)
    op.create_table(
        "window_pings",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("id", sa.BigInteger, sa.Identity(), nullable=False),
        sa.Column("asker", sa.Text, nullable=False),
        sa.Column("local_date", sa.Date, nullable=False),
        sa.Column("request", JSONB, nullable=False),
        sa.Column("asked_at", ts, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("done_at", ts),
        sa.Column("dropped_by", sa.Text),
        sa.PrimaryKeyConstraint("venue_id", "id", name="pk_window_pings"),
    )
    op.create_index(
        "ix_window_pings_waiting",
        "window_pings",
        ["venue_id", "local_date"],
        postgresql_where=sa.text("status = 'waiting'"),
    )


def downgrade() -> None:
    op.drop_index("ix_window_pings_waiting", table_name="window_pings")
    op.drop_table("window_pings")
