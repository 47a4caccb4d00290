"""Calendar feeds: a secret URL per salesperson and per venue, kept as a hash (issue 27).

Revision ID: 0009_calendar_feeds
Revises: 0008_many_venues
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_calendar_feeds"
down_revision = "0008_many_venues"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "calendar_feeds",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("scope", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("generation", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.Text, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "scope", "subject", name="pk_calendar_feeds"),
        sa.UniqueConstraint("token_hash", name="uq_calendar_feeds_token_hash"),
    )
    op.create_table(
        "feed_keys",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("secret", sa.Text, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", name="pk_feed_keys"),
    )
    # A feed's ETag from the index alone (an index-only scan of the venue's live holds).
    op.create_index(
        "ix_holds_live_stamp",
        "holds",
        ["venue_id", "status"],
        postgresql_include=["id", "version", "updated_at"],
    )


def downgrade() -> None:
    op.drop_index("ix_holds_live_stamp", table_name="holds")
    op.drop_table("feed_keys")
    op.drop_table("calendar_feeds")
