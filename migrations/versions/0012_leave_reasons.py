"""Why a hold left (issue 25): a released hold's reason code and note, and a hold replaced by
an edit's swap told apart from one the customer withdrew (its outcome ``replaced``).

Revision ID: 0012_leave_reasons
Revises: 0011_booking_details
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_leave_reasons"
down_revision = "0011_booking_details"
branch_labels = None
depends_on = None

_OLD = (
    "outcome IS NULL OR (outcome IN ('withdrawn', 'lost', 'other_date_chosen')"
    " AND status = 'released')"
)
_NEW = (
    "outcome IS NULL OR (outcome IN ('withdrawn', 'lost', 'other_date_chosen', 'replaced')"
    " AND status = 'released')"
)


def upgrade() -> None:
    op.add_column("holds", sa.Column("reason", sa.Text))
    op.add_column("holds", sa.Column("reason_note", sa.Text, nullable=False, server_default=""))
    # The old holds a swap released: their audit trail's "edited" names them.
    op.execute(
        """
        UPDATE holds h SET outcome = 'replaced'
        WHERE h.status = 'released' AND h.outcome IS NULL AND EXISTS (
          SELECT 1 FROM audit_events a
          WHERE a.venue_id = h.venue_id AND a.hold_id = h.id AND a.action = 'edited'
            AND (a.detail ->> 'kept_place') = 'false')
        """
    )
    op.drop_constraint("ck_holds_outcome", "holds", type_="check")
    op.create_check_constraint("ck_holds_outcome", "holds", _NEW)


def downgrade() -> None:
    op.execute("UPDATE holds SET outcome = NULL WHERE outcome = 'replaced'")
    op.drop_constraint("ck_holds_outcome", "holds", type_="check")
    op.create_check_constraint("ck_holds_outcome", "holds", _OLD)
    op.drop_column("holds", "reason_note")
    op.drop_column("holds", "reason")
