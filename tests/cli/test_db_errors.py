"""What `osae` answers when the database is away or was never upgraded: core's errors,
turned into a code and a sentence (cli catches no SQLAlchemy error of its own)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.cli.test_cli import run
from tests.support import databases

AWAY = "postgresql://postgres@127.0.0.1:1/none"


@pytest.fixture
def empty_db(pg_server: str) -> Iterator[str]:
    """A database with no osae tables: never upgraded."""
    name = databases.create_database(pg_server)
    yield databases.with_database(pg_server, name)
    databases.drop_database(pg_server, name)


@pytest.mark.parametrize("action", ["current", "upgrade", "downgrade"])
def test_a_database_that_does_not_answer_is_said_so_by_every_db_command(action: str) -> None:
    code, answer = run(AWAY, "db", action)
    assert (code, answer["ok"], answer["code"]) == (3, False, "database_unreachable")
    assert answer["message"].startswith("cannot reach the database: ")
    assert "Connection refused" in answer["message"] or "port 1" in answer["message"]


def test_a_database_never_upgraded_says_to_upgrade_it(empty_db: str) -> None:
    code, answer = run(empty_db, "hold", "list")
    assert (code, answer["code"]) == (3, "no_schema")
    assert "osae db upgrade" in answer["message"]
    code, answer = run(empty_db, "db", "current")
    assert (code, answer["revision"]) == (0, None)
