"""What a ledger row carries for a booking: the estimate (見積金額), the plan, the source
(媒体), the next appointment and its note, on the enquiry; and the names of staff as Slack
gave them (users.info), cached.

Revision ID: 0011_booking_details
Revises: 0010_user_venues
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_booking_details"
down_revision = "0010_user_venues"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("enquiries", sa.Column("estimate", sa.BigInteger))
    op.add_column("enquiries", sa.Column("plan", sa.Text, nullable=False, server_default=""))
    op.add_column("enquiries", sa.Column("source", sa.Text, nullable=False, server_default=""))
    op.add_column("enquiries", sa.Column("next_action", sa.Date))
    op.add_column(
        "enquiries",
        sa.Column("next_action_note", sa.Text, nullable=False, server_default=""),
    )
    op.create_index(
        "ix_enquiries_next_action",
        "enquiries",
        ["next_action"],
        postgresql_where=sa.text("next_action IS NOT NULL"),
    )
    op.create_table(
        "staff_names",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "user_id", name="pk_staff_names"),
    )


def downgrade() -> None:
    op.drop_table("staff_names")
    op.drop_index("ix_enquiries_next_action", table_name="enquiries")
    for column in ("next_action_note", "next_action", "source", "plan", "estimate"):
        op.drop_column("enquiries", column)
