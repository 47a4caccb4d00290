"""The Alembic migrations create exactly the tables core/store/schema.py describes, and
0002 carries a database full of single-room holds over (and back) without losing any."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import date

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore

from cli import migrate
from core.db import create_engine, database_url
from core.model import EventKind, ItemRequest, Kind, Outcome, Policy, Venue
from core.results import RequestAnswer
from core.store.schema import metadata
from migrations import MigrationRefused
from tests.support import factories, invariants
from tests.support.engines import EngineForTests
from tests.support.factories import NOW

HEAD = "0014_house_holds"  # the newest revision in migrations/versions


def tables(url: str) -> set[str]:
    engine = sa.create_engine(database_url(url))
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_migrations_match_the_schema_the_code_uses(db_url: str) -> None:
    engine = sa.create_engine(database_url(db_url))
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), with_slack_stores())
    engine.dispose()
    assert diff == []


def with_slack_stores() -> sa.MetaData:
    """osae's tables and those slack_sdk's SQLAlchemy stores use (0008 makes them)."""
    both = sa.MetaData()
    for table in metadata.tables.values():
        table.to_metadata(both)
    SQLAlchemyInstallationStore.build_bots_table(both, "slack_bots")
    SQLAlchemyInstallationStore.build_installations_table(both, "slack_installations")
    SQLAlchemyOAuthStateStore.build_oauth_states_table(both, "slack_oauth_states")
    return both


def test_downgrade_to_base_and_upgrade_again(fresh_db: str) -> None:
    assert "holds" in tables(fresh_db)
    migrate.downgrade(fresh_db, "base")
    assert tables(fresh_db) == {"alembic_version"}
    migrate.upgrade(fresh_db)
    assert set(metadata.tables) <= tables(fresh_db)
    assert migrate.current(fresh_db) == HEAD


def test_the_final_gate_exists_as_an_exclusion_constraint(db_url: str) -> None:
    engine = sa.create_engine(database_url(db_url))
    with engine.connect() as conn:
        found = conn.execute(
            sa.text(
                "SELECT pg_get_constraintdef(oid) FROM pg_constraint"
                " WHERE conname = 'ex_hold_spans_blocking'"
            )
        ).scalar_one()
    engine.dispose()
    assert found.startswith("EXCLUDE USING gist (venue_id WITH =, part_id WITH =")
    assert "WHERE (blocking)" in found


# -- 0002: holds of several rooms, candidate dates ---------------------------------------------
JST = "Asia/Tokyo"
# (room, local start, local end in March 2027, status, rank, deadline, extensions, customer)
OLD_HOLDS = [
    ("hoo", "10 11:00", "10 15:00", "tentative", 1, "08 09:00", 0, "山田様"),
    ("hoo", "10 11:00", "10 15:00", "tentative", 2, None, 0, "佐藤様"),
    ("sakura", "10 18:00", "10 21:00", "confirmed", None, None, 1, "鈴木様"),
    ("hoo-a", "10 18:00", "10 20:00", "released", None, None, 0, "田中様"),
    ("chapel", "10 10:00", "10 11:00", "expired", None, None, 0, "伊藤様"),
    ("sakura", "11 11:00", "11 13:00", "cancelled", None, None, 0, "高橋様"),
    ("hoo-b", "10 22:00", "11 02:00", "tentative", 1, "09 09:00", 1, "ﾔﾏﾀﾞ 様"),
]
# What a hold keeps over the upgrade, as 0001's columns name it.
KEPT = (
    "status", "rank", "expires_at", "extensions_used", "room_id", "local_date", "start_at",
    "end_at", "span_end", "kind", "customer", "note", "salesperson", "creator", "created_at",
    "updated_at",
)  # fmt: skip
_OLD_HOLD = sa.text(
    """
    INSERT INTO holds (venue_id, room_id, local_date, start_at, end_at, span_end, kind,
                       customer, note, salesperson, creator, status, rank, expires_at,
                       extensions_used, created_at, updated_at)
    VALUES (:venue, :room, CAST(CAST(:start AS timestamp) AS date),
            CAST(:start AS timestamp) AT TIME ZONE :tz, CAST(:end AS timestamp) AT TIME ZONE :tz,
            (CAST(:end AS timestamp) AT TIME ZONE :tz) + interval '60 minutes', 'wedding',
            :customer, 'メモ', 'U0SALES001', 'U0CREATOR1', :status, :rank,
            CAST(:deadline AS timestamp) AT TIME ZONE :tz, :extensions,
            CAST('2027-03-01 09:00' AS timestamp) AT TIME ZONE :tz,
            CAST('2027-03-02 09:00' AS timestamp) AT TIME ZONE :tz)
    RETURNING id, start_at, span_end
    """
)


def rows(db: sa.Engine, query: str) -> list[dict[str, object]]:
    with db.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(sa.text(query))]


def fill_at_0001(db: sa.Engine, venue: Venue) -> None:
    """Holds of every status as revision 0001 stored them, span rows and counts included."""
    with db.begin() as conn:
        for room, start, end, status, rank, deadline, extensions, customer in OLD_HOLDS:
            made = conn.execute(
                _OLD_HOLD,
                {
                    "venue": venue.id,
                    "room": room,
                    "start": f"2027-03-{start}",
                    "end": f"2027-03-{end}",
                    "tz": JST,
                    "customer": customer,
                    "status": status,
                    "rank": rank,
                    "deadline": f"2027-03-{deadline}" if deadline else None,
                    "extensions": extensions,
                },
            ).one()
            if status not in ("tentative", "confirmed"):
                continue
            for part in sorted(venue.rooms[room].parts):
                conn.execute(
                    sa.text(
                        "INSERT INTO hold_spans VALUES (:v, :h, :p, :s, :e, :blocking, :confirmed)"
                    ),
                    {
                        "v": venue.id,
                        "h": made.id,
                        "p": part,
                        "s": made.start_at,
                        "e": made.span_end,
                        "blocking": status == "confirmed" or rank == 1,
                        "confirmed": status == "confirmed",
                    },
                )
                conn.execute(
                    sa.text(
                        "UPDATE part_days SET version = version + 1, live_spans = live_spans + 1"
                        " WHERE venue_id = :v AND part_id = :p"
                        " AND day BETWEEN CAST(:s AT TIME ZONE :tz AS date)"
                        " AND CAST((:e - interval '1 microsecond') AT TIME ZONE :tz AS date)"
                    ),
                    {"v": venue.id, "p": part, "s": made.start_at, "e": made.span_end, "tz": JST},
                )


@pytest.fixture
def at_0001(fresh_db: str) -> Iterator[tuple[str, sa.Engine, Venue]]:
    """A database back at revision 0001 with a venue and holds of every status in it."""
    # The venue is saved by today's code at 0002 (whose venue tables are 0001's), with the
    # later columns it writes added for the save and dropped again; then back to 0001.
    migrate.downgrade(fresh_db, "0002")
    db = create_engine(fresh_db, pool_size=2)
    with db.begin() as conn:
        conn.execute(sa.text("ALTER TABLE rooms ADD COLUMN capacity integer"))
        conn.execute(sa.text("ALTER TABLE venues ADD COLUMN slots jsonb DEFAULT '[]'"))
        conn.execute(sa.text("ALTER TABLE venues ADD COLUMN sales_channel text"))
        conn.execute(sa.text("ALTER TABLE venues ADD COLUMN language text"))
    venue = EngineForTests(db).save_venue(factories.venue(), now=NOW)
    with db.begin() as conn:
        conn.execute(sa.text("ALTER TABLE rooms DROP COLUMN capacity"))
        conn.execute(sa.text("ALTER TABLE venues DROP COLUMN slots"))
        conn.execute(sa.text("ALTER TABLE venues DROP COLUMN sales_channel, DROP COLUMN language"))
    db.dispose()
    migrate.downgrade(fresh_db, "0001")
    db = create_engine(fresh_db, pool_size=2)
    fill_at_0001(db, venue)
    yield fresh_db, db, venue
    db.dispose()


def test_upgrading_keeps_every_hold_rank_deadline_and_span(
    at_0001: tuple[str, sa.Engine, Venue],
) -> None:
    url, db, venue = at_0001
    old = rows(db, "SELECT * FROM holds ORDER BY id")
    old_spans = rows(db, "SELECT * FROM hold_spans ORDER BY hold_id, part_id")
    ledger = rows(db, "SELECT * FROM part_days ORDER BY part_id, day")
    assert {h["status"] for h in old} == {
        "tentative",
        "confirmed",
        "released",
        "expired",
        "cancelled",
    }

    migrate.upgrade(url)
    db.dispose()
    engine = EngineForTests(db)
    by_id = {h.id: h for h in engine.holds(venue.id)}
    assert sorted(by_id) == [h["id"] for h in old]
    for was in old:
        hold = by_id[was["id"]]
        kept = {name: getattr(hold, name) for name in KEPT}
        kept["status"], kept["kind"] = hold.status.value, hold.kind.value
        assert kept == {name: was[name] for name in KEPT}, was["id"]
        assert hold.enquiry_id == hold.id, "each hold is the one candidate of its own enquiry"
        assert [i.rank for i in hold.items] == [was["rank"]]
        assert hold.version == 1, "0003: every stored hold starts at version 1"
    spans = rows(db, "SELECT * FROM hold_spans ORDER BY hold_id, part_id")
    assert [{k: v for k, v in s.items() if k != "item_no"} for s in spans] == old_spans
    assert {s["item_no"] for s in spans} == {1}
    ledger_now = "SELECT venue_id, part_id, day, version, live_spans FROM part_days"
    assert rows(db, f"{ledger_now} ORDER BY part_id, day") == ledger  # spans: invariants
    invariants.check(db, venue)

    # The engine carries on from there: new ids after the old ones, promotion across them,
    # and customer names compared as the engine compares them.
    first, second = old[0]["id"], old[1]["id"]
    released = engine.release(venue.id, first, actor="U0SALES001", now=NOW)
    assert [h.id for h in released.promoted] == [second]  # type: ignore[union-attr]
    new = engine.request(venue.id, factories.request(room="sakura", customer="ヤマダ"), now=NOW)
    assert isinstance(new, RequestAnswer)
    assert new.hold.id > max(h["id"] for h in old)
    assert new.hold.enquiry_id > max(h["id"] for h in old)
    assert [h.id for w in new.warnings for h in w.holds] == [old[-1]["id"]]
    invariants.check(db, venue)


def test_downgrading_restores_single_holds_and_refuses_packages(
    at_0001: tuple[str, sa.Engine, Venue],
) -> None:
    url, db, venue = at_0001
    old = rows(db, "SELECT * FROM holds ORDER BY id")
    old_spans = rows(db, "SELECT * FROM hold_spans ORDER BY hold_id, part_id")
    migrate.upgrade(url)
    migrate.downgrade(url, "0001")
    assert rows(db, "SELECT * FROM holds ORDER BY id") == old
    assert rows(db, "SELECT * FROM hold_spans ORDER BY hold_id, part_id") == old_spans

    migrate.upgrade(url)
    db.dispose()
    package = replace(
        factories.request(room="hoo", day=date(2027, 3, 12)),
        also=(ItemRequest("chapel", 600, 630),),
    )
    assert isinstance(EngineForTests(db).request(venue.id, package, now=NOW), RequestAnswer)
    before = rows(db, "SELECT * FROM hold_items ORDER BY hold_id, item_no")
    with pytest.raises(MigrationRefused, match="1 hold\\(s\\) have several rooms"):
        migrate.downgrade(url, "0001")
    assert migrate.current(url) == HEAD
    assert rows(db, "SELECT * FROM hold_items ORDER BY hold_id, item_no") == before


# -- 0004_ledger: kinds, guests, contact, why a hold was released -------------------------------
def test_0004_reads_why_stored_holds_were_released_and_refuses_to_lose_what_they_carry(
    fresh_db: str,
) -> None:
    db = create_engine(fresh_db, pool_size=2)
    engine = EngineForTests(db)
    venue = engine.save_venue(factories.venue(), now=NOW)
    won, lost, gone = (
        engine.request(venue.id, factories.request(room=room), now=NOW)
        for room in ("hoo", "hoo", "sakura")
    )
    assert isinstance(won, RequestAnswer) and isinstance(lost, RequestAnswer)
    assert isinstance(gone, RequestAnswer)
    engine.release(venue.id, gone.hold.id, actor=factories.SALES, now=NOW)
    engine.confirm(venue.id, won.hold.id, actor=factories.SALES, now=NOW)
    before = {h.id: h.outcome for h in engine.holds(venue.id)}
    assert before[lost.hold.id] is Outcome.LOST and before[gone.hold.id] is Outcome.WITHDRAWN

    migrate.downgrade(fresh_db, "0004_search")
    migrate.upgrade(fresh_db)
    db.dispose()
    engine = EngineForTests(db)
    assert {h.id: h.outcome for h in engine.holds(venue.id)} == before

    kinds = (*Policy().kinds, EventKind("nijikai", "二次会", Kind.BANQUET))
    venue = engine.save_venue(replace(venue, policy=Policy(kinds=kinds)), now=NOW)
    made = engine.request(venue.id, factories.request(room="chapel", kind="nijikai"), now=NOW)
    assert isinstance(made, RequestAnswer)
    with pytest.raises(MigrationRefused, match="1 enquiry\\(ies\\) carry a venue kind"):
        migrate.downgrade(fresh_db, "0004_search")
    assert migrate.current(fresh_db) == HEAD
    db.dispose()
