"""Edits of a hold: a version that counts every change of a hold's row.

A form opened on a hold carries the version it saw; an edit with another version is
refused as stale. Every hold already stored starts at version 1; nothing else changes.

Revision ID: 0003_edit
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_edit"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "holds",
        sa.Column("version", sa.BigInteger, nullable=False, server_default=sa.text("1")),
    )


def downgrade() -> None:
    op.drop_column("holds", "version")
