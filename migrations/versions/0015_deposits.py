"""Deposits (予約金): a confirmed booking's deposit due date, who recorded it paid, when and
how much, and the markers that its reminder and its past-due notice were queued (once each).

Revision ID: 0015_deposits
Revises: 0013_nudged_at
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_deposits"
down_revision = "0013_nudged_at"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("enquiries", sa.Column("deposit_due", sa.Date))
    op.add_column("enquiries", sa.Column("deposit_paid_at", TS))
    op.add_column("enquiries", sa.Column("deposit_paid_by", sa.Text))
    op.add_column("enquiries", sa.Column("deposit_amount", sa.BigInteger))
    op.add_column("enquiries", sa.Column("deposit_reminded_at", TS))
    op.add_column("enquiries", sa.Column("deposit_overdue_at", TS))
    op.create_index(
        "ix_enquiries_deposit_due",
        "enquiries",
        ["venue_id", "deposit_due"],
        postgresql_where=sa.text("deposit_due IS NOT NULL AND deposit_paid_at IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_enquiries_deposit_due", table_name="enquiries")
    for column in (
        "deposit_overdue_at",
        "deposit_reminded_at",
        "deposit_amount",
        "deposit_paid_by",
        "deposit_paid_at",
        "deposit_due",
    ):
        op.drop_column("enquiries", column)
