"""House holds (社内押さえ): a manager's hold for the venue's own use, with no deadline.

Invariant 4 becomes "a tentative non-house hold has a deadline iff it is 1st", and a
tentative house hold is always 1st (docs/rules.md, House holds).

Revision ID: 0014_house_holds
Revises: 0016_window_pings
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_house_holds"
down_revision = "0016_window_pings"
branch_labels = None
depends_on = None

_DEADLINE = "(expires_at IS NOT NULL) = (status = 'tentative' AND rank = 1)"


def upgrade() -> None:
    op.add_column(
        "holds", sa.Column("house", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.drop_constraint("ck_holds_deadline", "holds", type_="check")
    op.create_check_constraint(
        "ck_holds_deadline",
        "holds",
        "(expires_at IS NOT NULL) = (status = 'tentative' AND rank = 1 AND NOT house)",
    )
    op.create_check_constraint(
        "ck_holds_house_first", "holds", "NOT house OR status <> 'tentative' OR rank = 1"
    )


def downgrade() -> None:
    op.drop_constraint("ck_holds_house_first", "holds", type_="check")
    op.drop_constraint("ck_holds_deadline", "holds", type_="check")
    # A house hold still held becomes an ordinary 1st whose deadline is its first start.
    op.execute(
        "UPDATE holds h SET expires_at = (SELECT min(i.start_at) FROM hold_items i"
        " WHERE i.venue_id = h.venue_id AND i.hold_id = h.id)"
        " WHERE h.house AND h.status = 'tentative'"
    )
    op.create_check_constraint("ck_holds_deadline", "holds", _DEADLINE)
    op.drop_column("holds", "house")
