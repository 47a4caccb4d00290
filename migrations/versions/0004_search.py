"""Finding a slot: rooms may declare a capacity (seated guests), venues named slots.

Both are what the venue file says; rows stored before have neither (no capacity, no slots),
which is what a venue file without them means. Downgrading drops them: the venue file
still has them and a later load stores them again.

Revision ID: 0004_search
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0004_search"
down_revision = "0003_edit"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("capacity", sa.Integer, nullable=True))
    op.create_check_constraint("ck_rooms_capacity", "rooms", "capacity BETWEEN 1 AND 100000")
    op.add_column(
        "venues",
        sa.Column("slots", JSONB, nullable=False, server_default=sa.text("'[]'::jsonb")),
    )


def downgrade() -> None:
    op.drop_column("venues", "slots")
    op.drop_constraint("ck_rooms_capacity", "rooms", type_="check")
    op.drop_column("rooms", "capacity")
