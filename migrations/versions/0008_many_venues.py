"""Many venues in one deployment (issue 29): a venue's own sales channel and language, the
workspace each venue is used from, and the tables of slack_sdk's SQLAlchemy installation and
OAuth state stores (Bolt's OAuth flow keeps installations and state there).

The slack tables are written out as slack_sdk 3.x builds them (``SQLAlchemyInstallationStore.
build_bots_table`` / ``build_installations_table``, ``SQLAlchemyOAuthStateStore.
build_oauth_states_table``), so that osae's PostgreSQL is made by its migrations alone and
nothing calls ``create_tables()`` at run time; tests/engine/test_migrations.py compares them
with the library's.

Revision ID: 0008_many_venues
Revises: 0007_part_day_dates
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_many_venues"
down_revision = "0007_part_day_dates"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def _bot_columns() -> list[sa.Column[object]]:
    """Columns slack_bots and slack_installations share, in slack_sdk's order."""
    return [
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("client_id", sa.String(32), nullable=False),
        sa.Column("app_id", sa.String(32), nullable=False),
        sa.Column("enterprise_id", sa.String(32)),
        sa.Column("enterprise_name", sa.String(200)),
    ]


def upgrade() -> None:
    op.add_column("venues", sa.Column("sales_channel", sa.Text))
    op.add_column("venues", sa.Column("language", sa.Text))
    op.create_table(
        "venue_workspaces",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("workspace_id", sa.Text, nullable=False),
        sa.Column("enterprise_id", sa.Text),
        sa.Column("org_wide", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("linked_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", name="pk_venue_workspaces"),
        sa.ForeignKeyConstraint(["venue_id"], ["venues.id"], name="fk_venue_workspaces_venue_id"),
    )
    op.create_index("ix_venue_workspaces_workspace", "venue_workspaces", ["workspace_id"])
    _slack_tables()


def _slack_tables() -> None:
    op.create_table(
        "slack_bots",
        *_bot_columns(),
        sa.Column("team_id", sa.String(32)),
        sa.Column("team_name", sa.String(200)),
        sa.Column("bot_token", sa.String(200)),
        sa.Column("bot_id", sa.String(32)),
        sa.Column("bot_user_id", sa.String(32)),
        sa.Column("bot_scopes", sa.String(1000)),
        sa.Column("bot_refresh_token", sa.String(200)),
        sa.Column("bot_token_expires_at", sa.DateTime),
        sa.Column("is_enterprise_install", sa.Boolean, nullable=False),
        sa.Column("installed_at", sa.DateTime, nullable=False),
    )
    op.create_index(
        "slack_bots_idx", "slack_bots", ["client_id", "enterprise_id", "team_id", "installed_at"]
    )
    op.create_table(
        "slack_installations",
        *_bot_columns(),
        sa.Column("enterprise_url", sa.String(200)),
        sa.Column("team_id", sa.String(32)),
        sa.Column("team_name", sa.String(200)),
        sa.Column("bot_token", sa.String(200)),
        sa.Column("bot_id", sa.String(32)),
        sa.Column("bot_user_id", sa.String(32)),
        sa.Column("bot_scopes", sa.String(1000)),
        sa.Column("bot_refresh_token", sa.String(200)),
        sa.Column("bot_token_expires_at", sa.DateTime),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("user_token", sa.String(200)),
        sa.Column("user_scopes", sa.String(1000)),
        sa.Column("user_refresh_token", sa.String(200)),
        sa.Column("user_token_expires_at", sa.DateTime),
        sa.Column("incoming_webhook_url", sa.String(200)),
        sa.Column("incoming_webhook_channel", sa.String(200)),
        sa.Column("incoming_webhook_channel_id", sa.String(200)),
        sa.Column("incoming_webhook_configuration_url", sa.String(200)),
        sa.Column("is_enterprise_install", sa.Boolean, nullable=False),
        sa.Column("token_type", sa.String(32)),
        sa.Column("installed_at", sa.DateTime, nullable=False),
    )
    op.create_index(
        "slack_installations_idx",
        "slack_installations",
        ["client_id", "enterprise_id", "team_id", "user_id", "installed_at"],
    )
    op.create_table(
        "slack_oauth_states",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("state", sa.String(200), nullable=False),
        sa.Column("expire_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("slack_oauth_states")
    op.drop_index("slack_installations_idx", table_name="slack_installations")
    op.drop_table("slack_installations")
    op.drop_index("slack_bots_idx", table_name="slack_bots")
    op.drop_table("slack_bots")
    op.drop_index("ix_venue_workspaces_workspace", table_name="venue_workspaces")
    op.drop_table("venue_workspaces")
    op.drop_column("venues", "language")
    op.drop_column("venues", "sales_channel")
