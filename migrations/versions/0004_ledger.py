"""What a hold carries, as the ledger row carried it: the venue's event kind (its id, and
its class the rules use), guests (人数), a contact (連絡先), and why a released hold was
released (withdrawn, lost to another's confirmation, or its enquiry's other date chosen).

Stored holds keep everything: an enquiry's kind is its kind id and its class; guests and
contact are empty; a released hold's reason is read from its audit trail. Downgrading is
refused while an enquiry has a kind other than wedding / banquet, guests or a contact: the
older schema has no place for them.

Revision ID: 0004_ledger
Revises: 0004_search
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from migrations import MigrationRefused

revision = "0004_ledger"
down_revision = "0004_search"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("enquiries", sa.Column("kind_class", sa.Text))
    op.execute("UPDATE enquiries SET kind_class = kind")
    op.alter_column("enquiries", "kind_class", nullable=False)
    op.drop_constraint("ck_enquiries_kind", "enquiries", type_="check")
    op.create_check_constraint("ck_enquiries_kind", "enquiries", "kind <> ''")
    op.create_check_constraint(
        "ck_enquiries_kind_class", "enquiries", "kind_class IN ('wedding', 'banquet')"
    )
    op.add_column("enquiries", sa.Column("guests", sa.Integer))
    op.create_check_constraint("ck_enquiries_guests", "enquiries", "guests BETWEEN 1 AND 100000")
    op.add_column(
        "enquiries", sa.Column("contact", sa.Text, nullable=False, server_default=sa.text("''"))
    )
    op.alter_column("enquiries", "contact", server_default=None)
    op.add_column("holds", sa.Column("outcome", sa.Text))
    # The newest of the actions that release a hold names why it was released.
    op.execute(
        """
        UPDATE holds h SET outcome = CASE a.action WHEN 'released' THEN 'withdrawn'
                                                   ELSE a.action END
        FROM (SELECT DISTINCT ON (venue_id, hold_id) venue_id, hold_id, action
              FROM audit_events
              WHERE action IN ('released', 'lost', 'other_date_chosen')
              ORDER BY venue_id, hold_id, id DESC) AS a
        WHERE h.status = 'released' AND a.venue_id = h.venue_id AND a.hold_id = h.id
        """
    )
    op.create_check_constraint(
        "ck_holds_outcome",
        "holds",
        "outcome IS NULL"
        " OR (outcome IN ('withdrawn', 'lost', 'other_date_chosen') AND status = 'released')",
    )


def downgrade() -> None:
    conn = op.get_bind()
    carried = conn.execute(
        sa.text(
            "SELECT count(*) FROM enquiries"
            " WHERE kind NOT IN ('wedding', 'banquet') OR guests IS NOT NULL OR contact <> ''"
        )
    ).scalar_one()
    if carried:
        raise MigrationRefused(
            f"cannot go back below revision 0004_ledger: {carried} enquiry(ies) carry a venue "
            "kind, guests or a contact, which the older schema cannot store. Nothing was changed."
        )
    op.drop_constraint("ck_holds_outcome", "holds", type_="check")
    op.drop_column("holds", "outcome")
    op.drop_constraint("ck_enquiries_guests", "enquiries", type_="check")
    op.drop_column("enquiries", "guests")
    op.drop_column("enquiries", "contact")
    op.drop_constraint("ck_enquiries_kind_class", "enquiries", type_="check")
    op.drop_constraint("ck_enquiries_kind", "enquiries", type_="check")
    op.drop_column("enquiries", "kind_class")
    op.create_check_constraint("ck_enquiries_kind", "enquiries", "kind IN ('wedding', 'banquet')")
