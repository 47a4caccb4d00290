"""Holds of several rooms and candidate dates: enquiries, hold items, span rows per item.

Every hold already stored becomes a one-item hold of its own one-candidate enquiry, with
its id, status, rank, deadline, extensions and span rows unchanged (the enquiry takes the
hold's id). Downgrading is refused while any hold has several rooms or any enquiry several
holds: the older schema has no place for them.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from core.rules.customers import customer_key
from migrations import MigrationRefused

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)
# The single-hold columns that move to enquiries and items, as 0001 made them.
_MOVED = [
    ("room_id", sa.Text),
    ("start_at", TS),
    ("end_at", TS),
    ("span_end", TS),
    ("kind", sa.Text),
    ("customer", sa.Text),
    ("note", sa.Text),
    ("salesperson", sa.Text),
    ("creator", sa.Text),
]


def upgrade() -> None:
    _create_enquiries()
    op.execute(
        """
        INSERT INTO enquiries (venue_id, id, customer, customer_key, kind, salesperson, creator,
                               note, version, created_at, updated_at)
        SELECT venue_id, id, customer, '', kind, salesperson, creator, note, 0, created_at,
               updated_at
        FROM holds
        """
    )
    _fill_customer_keys()
    op.execute("SELECT setval('enquiries_id_seq', max(id)) FROM enquiries HAVING count(*) > 0")
    _create_items()
    op.execute(
        """
        INSERT INTO hold_items (venue_id, hold_id, item_no, room_id, start_at, end_at, span_end,
                                rank)
        SELECT venue_id, id, 1, room_id, start_at, end_at, span_end,
               CASE WHEN status = 'tentative' THEN rank END
        FROM holds
        """
    )
    _spans_by_item()
    op.add_column("holds", sa.Column("enquiry_id", sa.BigInteger))
    op.execute("UPDATE holds SET enquiry_id = id")
    op.alter_column("holds", "enquiry_id", nullable=False)
    op.drop_constraint("fk_holds_venue_id_room_id", "holds", type_="foreignkey")
    op.drop_constraint("ck_holds_kind", "holds", type_="check")
    op.drop_constraint("ck_holds_times", "holds", type_="check")
    op.drop_index("ix_holds_salesperson", "holds")
    for name, _ in _MOVED:
        op.drop_column("holds", name)
    op.create_index("ix_holds_enquiry", "holds", ["venue_id", "enquiry_id"])


def downgrade() -> None:
    _refuse_if_grouped()
    for name, kind in _MOVED:
        op.add_column("holds", sa.Column(name, kind))
    op.execute(
        """
        UPDATE holds h
        SET room_id = i.room_id, start_at = i.start_at, end_at = i.end_at,
            span_end = i.span_end, kind = e.kind, customer = e.customer, note = e.note,
            salesperson = e.salesperson, creator = e.creator
        FROM hold_items i, enquiries e
        WHERE i.venue_id = h.venue_id AND i.hold_id = h.id
          AND e.venue_id = h.venue_id AND e.id = h.enquiry_id
        """
    )
    for name, _ in _MOVED:
        op.alter_column("holds", name, nullable=False)
    op.create_foreign_key(
        "fk_holds_venue_id_room_id", "holds", "rooms", ["venue_id", "room_id"], ["venue_id", "id"]
    )
    op.create_check_constraint("ck_holds_kind", "holds", "kind IN ('wedding', 'banquet')")
    op.create_check_constraint(
        "ck_holds_times", "holds", "end_at > start_at AND span_end >= end_at"
    )
    op.create_index("ix_holds_salesperson", "holds", ["venue_id", "salesperson", "local_date"])
    op.drop_index("ix_holds_enquiry", "holds")
    op.drop_column("holds", "enquiry_id")
    _spans_by_hold()
    op.drop_table("hold_items")
    op.drop_table("enquiries")  # its sequence goes with it (OWNED BY)


def _create_enquiries() -> None:
    op.execute("CREATE SEQUENCE enquiries_id_seq")
    op.create_table(
        "enquiries",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column(
            "id",
            sa.BigInteger,
            nullable=False,
            server_default=sa.text("nextval('enquiries_id_seq')"),
        ),
        sa.Column("customer", sa.Text, nullable=False),
        sa.Column("customer_key", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("salesperson", sa.Text, nullable=False),
        sa.Column("creator", sa.Text, nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("version", sa.BigInteger, nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.PrimaryKeyConstraint("venue_id", "id", name="pk_enquiries"),
        sa.CheckConstraint("kind IN ('wedding', 'banquet')", name="ck_enquiries_kind"),
    )
    op.execute("ALTER SEQUENCE enquiries_id_seq OWNED BY enquiries.id")
    op.create_index("ix_enquiries_customer_key", "enquiries", ["venue_id", "customer_key"])
    op.create_index("ix_enquiries_salesperson", "enquiries", ["venue_id", "salesperson"])


def _fill_customer_keys() -> None:
    """The key is computed in Python, by the function the engine compares names with."""
    conn = op.get_bind()
    names = list(conn.execute(sa.text("SELECT DISTINCT customer FROM enquiries")).scalars())
    if names:
        conn.execute(
            sa.text(
                """
                UPDATE enquiries e SET customer_key = m.key
                FROM unnest(CAST(:names AS text[]), CAST(:keys AS text[])) AS m(name, key)
                WHERE e.customer = m.name
                """
            ),
            {"names": names, "keys": [customer_key(n) for n in names]},
        )


def _create_items() -> None:
    op.create_table(
        "hold_items",
        sa.Column("venue_id", sa.Text, nullable=False),
        sa.Column("hold_id", sa.BigInteger, nullable=False),
        sa.Column("item_no", sa.SmallInteger, nullable=False),
        sa.Column("room_id", sa.Text, nullable=False),
        sa.Column("start_at", TS, nullable=False),
        sa.Column("end_at", TS, nullable=False),
        sa.Column("span_end", TS, nullable=False),
        sa.Column("rank", sa.SmallInteger),
        sa.PrimaryKeyConstraint("venue_id", "hold_id", "item_no", name="pk_hold_items"),
        sa.ForeignKeyConstraint(
            ["venue_id", "room_id"],
            ["rooms.venue_id", "rooms.id"],
            name="fk_hold_items_venue_id_room_id",
        ),
        sa.CheckConstraint("end_at > start_at AND span_end >= end_at", name="ck_hold_items_times"),
        sa.CheckConstraint("rank >= 1", name="ck_hold_items_rank"),
    )


def _spans_by_item() -> None:
    """Span rows name their item: existing rows are item 1 of their hold."""
    op.add_column(
        "hold_spans",
        sa.Column("item_no", sa.SmallInteger, nullable=False, server_default=sa.text("1")),
    )
    op.alter_column("hold_spans", "item_no", server_default=None)
    _span_keys(["venue_id", "hold_id", "item_no", "part_id"], ["hold_id", "item_no"])


def _spans_by_hold() -> None:
    op.drop_column("hold_spans", "item_no")  # its key and index go with it
    _span_keys(["venue_id", "hold_id", "part_id"], ["hold_id"])


def _span_keys(key: list[str], owner: list[str]) -> None:
    """The primary key and the covering index of ``hold_spans``, with or without item_no."""
    op.execute("ALTER TABLE hold_spans DROP CONSTRAINT IF EXISTS pk_hold_spans")
    op.execute("DROP INDEX IF EXISTS ix_hold_spans_part_start")
    op.create_primary_key("pk_hold_spans", "hold_spans", key)
    op.create_index(
        "ix_hold_spans_part_start",
        "hold_spans",
        ["venue_id", "part_id", "starts_at"],
        postgresql_include=["ends_at", *owner, "blocking", "confirmed"],
    )


def _refuse_if_grouped() -> None:
    conn = op.get_bind()
    packages = conn.execute(
        sa.text(
            "SELECT count(*) FROM (SELECT 1 FROM hold_items"
            " GROUP BY venue_id, hold_id HAVING count(*) > 1) AS p"
        )
    ).scalar_one()
    shared = conn.execute(
        sa.text(
            "SELECT count(*) FROM (SELECT 1 FROM holds"
            " GROUP BY venue_id, enquiry_id HAVING count(*) > 1) AS e"
        )
    ).scalar_one()
    if packages or shared:
        raise MigrationRefused(
            f"cannot go back below revision 0002: {packages} hold(s) have several rooms and "
            f"{shared} enquiry(ies) have several holds, which the older schema cannot store. "
            "Nothing was changed."
        )
