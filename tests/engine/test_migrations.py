"""The Alembic migrations create exactly the tables core/store/schema.py describes."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from cli import migrate
from core.db import database_url
from core.store.schema import metadata

HEAD = "0002"  # the newest revision in migrations/versions


def tables(url: str) -> set[str]:
    engine = sa.create_engine(database_url(url))
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_migrations_match_the_schema_the_code_uses(db_url: str) -> None:
    engine = sa.create_engine(database_url(db_url))
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
    engine.dispose()
    assert diff == []


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
