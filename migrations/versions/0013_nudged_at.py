"""The nudge (回答の催促): when a waiting 2nd asked a 1st hold to answer, once per hold.

Revision ID: 0013_nudged_at
Revises: 0012_leave_reasons
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_nudged_at"
down_revision = "0012_leave_reasons"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("holds", sa.Column("nudged_at", sa.DateTime(timezone=True)))


def downgrade() -> None:
    op.drop_column("holds", "nudged_at")
