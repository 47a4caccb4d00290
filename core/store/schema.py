"""Tables. Every one carries ``venue_id`` and leads its keys with it (distributable by venue).

The Alembic migrations in ``migrations/`` create exactly this; a test compares the two.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, ExcludeConstraint

metadata = sa.MetaData(
    naming_convention={
        "pk": "pk_%(table_name)s",
        "fk": "fk_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "ix": "ix_%(table_name)s_%(column_0_name)s",
    }
)

TS = sa.DateTime(timezone=True)

venues = sa.Table(
    "venues",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("timezone", sa.Text, nullable=False),
    sa.Column("policy", JSONB, nullable=False),
    sa.Column("managers", ARRAY(sa.Text), nullable=False),
    sa.Column("revision", sa.Integer, nullable=False),  # +1 on every save: cache validation
    sa.Column("updated_at", TS, nullable=False),
    # named slots ([{"name", "start_min", "end_min"}], file order): what a search uses
    sa.Column("slots", JSONB, nullable=False, server_default=sa.text("'[]'::jsonb")),
    sa.Column("sales_channel", sa.Text),  # the channel of its cards and reports (0008)
    sa.Column("language", sa.Text),  # the language of that channel (0008)
)

# Where each venue is used from (0008): a workspace, or an org (Enterprise Grid) for an
# org-wide install. A workspace may hold several venues (a hotel group).
venue_workspaces = sa.Table(
    "venue_workspaces",
    metadata,
    sa.Column("venue_id", sa.Text, sa.ForeignKey("venues.id"), primary_key=True),
    sa.Column("workspace_id", sa.Text, nullable=False),  # the team id, or the org's id
    sa.Column("enterprise_id", sa.Text),
    sa.Column("org_wide", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("linked_at", TS, nullable=False),
)
sa.Index("ix_venue_workspaces_workspace", venue_workspaces.c.workspace_id)

# Which venue a person works in when their workspace has several (0010): the latest chosen.
user_venues = sa.Table(
    "user_venues",
    metadata,
    sa.Column("venue_id", sa.Text, sa.ForeignKey("venues.id"), primary_key=True),
    sa.Column("user_id", sa.Text, primary_key=True),
    sa.Column("chosen_at", TS, nullable=False),
)
sa.Index("ix_user_venues_user", user_venues.c.user_id)

parts = sa.Table(
    "parts",
    metadata,
    sa.Column("venue_id", sa.Text, sa.ForeignKey("venues.id"), primary_key=True),
    sa.Column("id", sa.Text, primary_key=True),
)

rooms = sa.Table(
    "rooms",
    metadata,
    sa.Column("venue_id", sa.Text, sa.ForeignKey("venues.id"), primary_key=True),
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("turnover_min", sa.Integer, nullable=False),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Column("active", sa.Boolean, nullable=False),
    sa.Column("capacity", sa.Integer),  # seated guests, when the venue file says
    sa.CheckConstraint("turnover_min BETWEEN 0 AND 1440", name="turnover"),
    sa.CheckConstraint("capacity BETWEEN 1 AND 100000", name="capacity"),
)

room_parts = sa.Table(
    "room_parts",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("room_id", sa.Text, primary_key=True),
    sa.Column("part_id", sa.Text, primary_key=True),
    sa.ForeignKeyConstraint(["venue_id", "room_id"], ["rooms.venue_id", "rooms.id"]),
    sa.ForeignKeyConstraint(["venue_id", "part_id"], ["parts.venue_id", "parts.id"]),
)

# One customer's case with one salesperson; its holds are candidate dates (docs/rules.md).
enquiry_id_seq = sa.Sequence("enquiries_id_seq", metadata=metadata)

enquiries = sa.Table(
    "enquiries",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("id", sa.BigInteger, enquiry_id_seq, primary_key=True),
    sa.Column("customer", sa.Text, nullable=False),
    sa.Column("customer_key", sa.Text, nullable=False),  # rules.customers.customer_key
    sa.Column("kind", sa.Text, nullable=False),  # the venue's kind id (wedding, nijikai, ...)
    sa.Column("kind_class", sa.Text, nullable=False),  # its class when requested: the rules'
    sa.Column("salesperson", sa.Text, nullable=False),
    sa.Column("creator", sa.Text, nullable=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.Column("guests", sa.Integer),  # 人数
    sa.Column("contact", sa.Text, nullable=False),  # 連絡先: salesperson and managers only
    # What else the ledger row carries (0011): 見積金額 in yen, plan, 媒体 code, next action
    sa.Column("estimate", sa.BigInteger),
    sa.Column("plan", sa.Text, nullable=False, server_default=""),
    sa.Column("source", sa.Text, nullable=False, server_default=""),
    sa.Column("next_action", sa.Date),
    sa.Column("next_action_note", sa.Text, nullable=False, server_default=""),
    # 予約金 (0015): due date, who recorded it paid, when and how much; the reminder's and
    # the past-due notice's markers (each queued once, with its outbox row)
    sa.Column("deposit_due", sa.Date),
    sa.Column("deposit_paid_at", TS),
    sa.Column("deposit_paid_by", sa.Text),
    sa.Column("deposit_amount", sa.BigInteger),
    sa.Column("deposit_reminded_at", TS),
    sa.Column("deposit_overdue_at", TS),
    # +1 by every write that reads or changes its set of candidates (a new candidate, a
    # confirmation): two such writes conflict on this row and are serialised.
    sa.Column("version", sa.BigInteger, nullable=False),
    sa.Column("created_at", TS, nullable=False),
    sa.Column("updated_at", TS, nullable=False),
    sa.CheckConstraint("kind <> ''", name="kind"),
    sa.CheckConstraint("kind_class IN ('wedding', 'banquet')", name="kind_class"),
    sa.CheckConstraint("guests BETWEEN 1 AND 100000", name="guests"),
)
sa.Index("ix_enquiries_customer_key", enquiries.c.venue_id, enquiries.c.customer_key)
sa.Index("ix_enquiries_salesperson", enquiries.c.venue_id, enquiries.c.salesperson)
sa.Index(
    "ix_enquiries_next_action",
    enquiries.c.next_action,
    postgresql_where=enquiries.c.next_action.isnot(None),
)
sa.Index(
    "ix_enquiries_deposit_due",
    enquiries.c.venue_id,
    enquiries.c.deposit_due,
    postgresql_where=sa.text("deposit_due IS NOT NULL AND deposit_paid_at IS NULL"),
)

# Arrival order: ids come from one sequence, taken after the part-day bump (see part_days.py),
# once per hold, for all its items together.
hold_id_seq = sa.Sequence("holds_id_seq", metadata=metadata)

holds = sa.Table(
    "holds",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("id", sa.BigInteger, hold_id_seq, primary_key=True),
    # No foreign keys between enquiries, holds and items: a key check reads the parent's
    # primary-key page, a page-level conflict under SERIALIZABLE with every concurrent
    # request (see hold_spans). They are written in one statement; tests check they match.
    sa.Column("enquiry_id", sa.BigInteger, nullable=False),
    sa.Column("local_date", sa.Date, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("rank", sa.SmallInteger),
    sa.Column("expires_at", TS),
    sa.Column("extensions_used", sa.SmallInteger, nullable=False),
    sa.Column("created_at", TS, nullable=False),
    sa.Column("updated_at", TS, nullable=False),
    # +1 on every change of this row (an edit, a promotion, a decision): a form opened at
    # one version and submitted at another is stale (docs/rules.md, Changing a hold).
    sa.Column("version", sa.BigInteger, nullable=False, server_default=sa.text("1")),
    sa.Column("outcome", sa.Text),  # why a released hold was released
    sa.Column("reason", sa.Text),  # a released hold's reason code (core.rules.reasons, 0011)
    sa.Column("reason_note", sa.Text, nullable=False, server_default=""),  # and its note
    sa.Column("nudged_at", TS),  # a waiting 2nd asked this 1st to answer (once per hold)
    sa.Column("house", sa.Boolean, nullable=False, server_default=sa.false()),  # 社内押さえ
    sa.CheckConstraint(
        "status IN ('tentative', 'confirmed', 'released', 'expired', 'cancelled')", name="status"
    ),
    sa.CheckConstraint(
        "outcome IS NULL OR (outcome IN ('withdrawn', 'lost', 'other_date_chosen', 'replaced')"
        " AND status = 'released')",
        name="outcome",
    ),
    # Invariants 3 and 4 as one row tells them (items: the tests); a house hold: 1st, no deadline
    sa.CheckConstraint("(status = 'tentative') = (rank IS NOT NULL) AND rank >= 1", name="rank"),
    sa.CheckConstraint(
        "(expires_at IS NOT NULL) = (status = 'tentative' AND rank = 1 AND NOT house)",
        name="deadline",
    ),
    sa.CheckConstraint("NOT house OR status <> 'tentative' OR rank = 1", name="house_first"),
)
sa.Index(
    "ix_holds_due",
    holds.c.venue_id,
    holds.c.expires_at,
    postgresql_where=sa.text("status = 'tentative' AND rank = 1"),
)
sa.Index("ix_holds_enquiry", holds.c.venue_id, holds.c.enquiry_id)
sa.Index("ix_holds_date", holds.c.venue_id, holds.c.local_date)

# One room on one span of a hold (1 to max_items a hold), numbered in the order asked.
hold_items = sa.Table(
    "hold_items",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("hold_id", sa.BigInteger, primary_key=True),
    sa.Column("item_no", sa.SmallInteger, primary_key=True),
    sa.Column("room_id", sa.Text, nullable=False),
    sa.Column("start_at", TS, nullable=False),
    sa.Column("end_at", TS, nullable=False),
    sa.Column("span_end", TS, nullable=False),
    sa.Column("rank", sa.SmallInteger),  # while its hold is tentative
    sa.ForeignKeyConstraint(["venue_id", "room_id"], ["rooms.venue_id", "rooms.id"]),
    sa.CheckConstraint("end_at > start_at AND span_end >= end_at", name="times"),
    sa.CheckConstraint("rank >= 1", name="rank"),
)

# One row per part of each item of each live hold. Rows exist only while the hold is live.
hold_spans = sa.Table(
    "hold_spans",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("hold_id", sa.BigInteger, primary_key=True),
    sa.Column("item_no", sa.SmallInteger, primary_key=True),
    sa.Column("part_id", sa.Text, primary_key=True),
    sa.Column("starts_at", TS, nullable=False),
    sa.Column("ends_at", TS, nullable=False),
    sa.Column("blocking", sa.Boolean, nullable=False),  # confirmed, or an item of rank 1
    sa.Column("confirmed", sa.Boolean, nullable=False),
    # No foreign key to holds: its check reads the primary-key page every new hold lands on,
    # a page-level conflict under SERIALIZABLE with every concurrent request. The rows are
    # written in the same statement as their hold; tests check that they match.
)
# The final gate (invariant 1; docs/concurrency.md): confirmed items and
# items of rank 1 never share a part-instant.
hold_spans.append_constraint(
    ExcludeConstraint(
        (hold_spans.c.venue_id, "="),
        (hold_spans.c.part_id, "="),
        (sa.func.tstzrange(hold_spans.c.starts_at, hold_spans.c.ends_at, "[)"), "&&"),
        name="ex_hold_spans_blocking",
        using="gist",
        where=sa.text("blocking"),
    )
)
# Conflict reads use a B-tree: a span overlapping [s, e) starts in (s - MAX_SPAN, e).
sa.Index(
    "ix_hold_spans_part_start",
    hold_spans.c.venue_id,
    hold_spans.c.part_id,
    hold_spans.c.starts_at,
    postgresql_include=["ends_at", "hold_id", "item_no", "blocking", "confirmed"],
)

# The part-day rows: bumped before any read (docs/concurrency.md).
part_days = sa.Table(
    "part_days",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("part_id", sa.Text, primary_key=True),
    sa.Column("day", sa.Date, primary_key=True),
    sa.Column("version", sa.BigInteger, nullable=False),
    sa.Column("live_spans", sa.Integer, nullable=False, server_default="0"),  # live spans here
    # The live spans touching this part-day, kept by triggers on hold_spans (migration
    # 0006): {"<hold id>:<item no>": [start µs, end µs, blocking, confirmed]}. A request
    # reads what is in its way from the rows its bump writes (see part_days.py).
    sa.Column("spans", JSONB, nullable=False, server_default=sa.text("'{}'::jsonb")),
    # No CHECK (live_spans >= 0): PostgreSQL checks the proposed row of INSERT ... ON CONFLICT
    # before it sees the conflict, so a decrement would trip it. Tests check the counts.
    postgresql_with={"fillfactor": 50},  # room for HOT updates of hot days
)

outbox = sa.Table(
    "outbox",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("hold_id", sa.BigInteger),
    sa.Column("recipient", sa.Text, nullable=False),
    sa.Column("payload", JSONB, nullable=False),
    sa.Column("dedupe_key", sa.Text),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("available_at", TS, nullable=False),
    sa.Column("lease_owner", sa.Text),
    sa.Column("lease_until", TS),
    sa.Column("last_error", sa.Text),
    sa.Column("sent_at", TS),
    sa.Column("sent_channel", sa.Text),
    sa.Column("sent_ref", sa.Text),
    sa.Column("failure_reported_at", TS),
    sa.Column("created_at", TS, nullable=False),
    sa.CheckConstraint("status IN ('pending', 'sent', 'failed')", name="status"),
    sa.UniqueConstraint("venue_id", "dedupe_key", name="uq_outbox_dedupe"),
)
sa.Index(
    "ix_outbox_pending",
    outbox.c.venue_id,
    outbox.c.available_at,
    postgresql_where=sa.text("status = 'pending'"),
)

audit_events = sa.Table(
    "audit_events",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("hold_id", sa.BigInteger),
    sa.Column("actor", sa.Text, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("at", TS, nullable=False),
    sa.Column("detail", JSONB, nullable=False),
)
sa.Index("ix_audit_events_hold", audit_events.c.venue_id, audit_events.c.hold_id)

idempotency_records = sa.Table(
    "idempotency_records",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("request_hash", sa.Text, nullable=False),
    sa.Column("response", JSONB, nullable=False),
    sa.Column("created_at", TS, nullable=False),
)

# Where each hold's card sits in Slack (the channel message its state changes redraw).
hold_cards = sa.Table(
    "hold_cards",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("hold_id", sa.BigInteger, primary_key=True),
    sa.Column("channel", sa.Text, nullable=False),
    sa.Column("ts", sa.Text, nullable=False),
    sa.Column("posted_at", TS, nullable=False),
    # the outbox rows whose line is in its thread: a redelivered row adds none again
    sa.Column("lines", ARRAY(sa.BigInteger), nullable=False, server_default="{}"),
)

# Calendar feeds (issue 27): one secret URL per salesperson and per venue. Only the token's
# hash is kept; the token itself is derived again (``core.exports.feed_tokens``) from the key
# below (or the deployment's own secret) and the generation, which a rotation bumps.
calendar_feeds = sa.Table(
    "calendar_feeds",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("scope", sa.Text, primary_key=True),  # "venue" or "salesperson"
    sa.Column("subject", sa.Text, primary_key=True),  # the salesperson's Slack id; "" for venue
    sa.Column("generation", sa.Integer, nullable=False),
    sa.Column("token_hash", sa.Text, nullable=False, unique=True),  # sha256 hex of the token
    sa.Column("created_at", TS, nullable=False),
)

# A feed's stamp (ETag) is one aggregate over the venue's live holds: read from this index
# alone (an index-only scan), not from the holds' rows.
sa.Index(
    "ix_holds_live_stamp",
    holds.c.venue_id,
    holds.c.status,
    postgresql_include=["id", "version", "updated_at"],
)

# A venue's key for its feed tokens, when the deployment gives none (OSAE_FEED_SECRET).
feed_keys = sa.Table(
    "feed_keys",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("secret", sa.Text, nullable=False),
    sa.Column("created_at", TS, nullable=False),
)

# People's names as Slack gives them (users.info), read again once they are a day old.
staff_names = sa.Table(
    "staff_names",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("user_id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("fetched_at", TS, nullable=False),
)

# The window ping (0016): who asked to be told when a date's banquet window opens, and what.
window_pings = sa.Table(
    "window_pings",
    metadata,
    sa.Column("venue_id", sa.Text, primary_key=True),
    sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
    sa.Column("asker", sa.Text, nullable=False),
    sa.Column("local_date", sa.Date, nullable=False),
    sa.Column("request", JSONB, nullable=False),
    sa.Column("asked_at", TS, nullable=False),
    sa.Column("status", sa.Text, nullable=False),  # waiting, sent, dropped
    sa.Column("done_at", TS),
    sa.Column("dropped_by", sa.Text),
)
sa.Index(
    "ix_window_pings_waiting",
    window_pings.c.venue_id,
    window_pings.c.local_date,
    postgresql_where=sa.text("status = 'waiting'"),
)
