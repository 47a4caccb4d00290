"""Where each hold's card sits in Slack: the channel and ts its state changes redraw.

Revision ID: 0005_cards
Revises: 0004_search
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY

revision = "0005_cards"
down_revision = "0004_ledger"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hold_cards",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("hold_id", sa.BigInteger, nullable=False),
        sa.Column("channel", sa.Text, nullable=False),
        sa.Column("ts", sa.Text, nullable=False),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lines", ARRAY(sa.BigInteger), nullable=False, server_default="{}"),
        sa.PrimaryKeyConstraint("venue_id", "hold_id", name="pk_hold_cards"),
    )


def downgrade() -> None:
    op.drop_table("hold_cards")
