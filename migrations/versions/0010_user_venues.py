"""A hotel group: one workspace, several venues. Which venue each person works in when their
workspace has more than one (chosen in the /hold form or App Home).

Revision ID: 0010_user_venues
Revises: 0009_calendar_feeds
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_user_venues"
down_revision = "0009_calendar_feeds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "user_venues",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("chosen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "user_id", name="pk_user_venues"),
        sa.ForeignKeyConstraint(["venue_id"], ["venues.id"], name="fk_user_venues_venue_id"),
    )
    op.create_index("ix_user_venues_user", "user_venues", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_user_venues_user", table_name="user_venues")
    op.drop_table("user_venues")
