"""`osae db backup|restore` round trip a database with PostgreSQL's own programs; `osae db
downgrade` says what it drops and changes nothing without --yes."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from cli import migrate
from cli.migration_drops import DROPS
from core.db import database_url
from tests.cli.test_cli import ROOT, hold, run
from tests.engine.test_migrations import HEAD


def holds(url: str) -> list[tuple[int, str]]:
    engine = sa.create_engine(database_url(url))
    try:
        with engine.connect() as conn:
            found = conn.execute(sa.text("SELECT id, status FROM holds ORDER BY id"))
            return [(int(row[0]), str(row[1])) for row in found]
    finally:
        engine.dispose()


def test_backup_then_restore_brings_back_what_the_backup_held(
    fresh_db: str, tmp_path: Path
) -> None:
    run(fresh_db, "venue", "load", str(ROOT / "examples" / "venue.toml"))
    assert hold(fresh_db)[0] == 0
    file = tmp_path / "osae.dump"
    code, saved = run(fresh_db, "db", "backup", str(file))
    assert code == 0 and saved["bytes"] == file.stat().st_size > 0
    assert file.read_bytes()[:5] == b"PGDMP"
    code, again = run(fresh_db, "db", "backup", str(file))
    assert (code, again["code"]) == (3, "file_exists"), "an existing file is never overwritten"

    assert hold(fresh_db)[0] == 0  # after the backup: a second hold
    run(fresh_db, "hold", "release", "1", "--actor", "U0SALES001")
    assert holds(fresh_db) == [(1, "released"), (2, "tentative")]

    code, refused = run(fresh_db, "db", "restore", str(file))
    assert (code, refused["code"]) == (1, "needs_yes")
    assert holds(fresh_db) == [(1, "released"), (2, "tentative")], "nothing changed"
    code, restored = run(fresh_db, "db", "restore", str(file), "--yes")
    assert code == 0 and restored["revision"] == HEAD
    assert holds(fresh_db) == [(1, "tentative")]
    code, answer = hold(fresh_db)  # the restored database takes holds as before
    assert (code, answer["id"], answer["rank"]) == (0, 2, 2)


def test_restore_refuses_a_file_that_is_no_backup_and_changes_nothing(
    fresh_db: str, tmp_path: Path
) -> None:
    run(fresh_db, "venue", "load", str(ROOT / "examples" / "venue.toml"))
    assert hold(fresh_db)[0] == 0
    other = tmp_path / "notes.txt"
    other.write_text("not a dump")
    code, refused = run(fresh_db, "db", "restore", str(other), "--yes")
    assert (code, refused["code"]) == (3, "not_a_backup")
    code, missing = run(fresh_db, "db", "restore", str(tmp_path / "none.dump"), "--yes")
    assert (code, missing["code"]) == (3, "no_file")
    assert holds(fresh_db) == [(1, "tentative")]


def test_downgrade_says_what_it_drops_and_needs_yes(fresh_db: str) -> None:
    code, refused = run(fresh_db, "db", "downgrade", "0004_ledger")
    assert (code, refused["code"]) == (1, "needs_yes")
    said = [d["revision"] for d in refused["drops"]]
    assert said[-2:] == ["0008_many_venues", "0005_cards"], "newest first; 0006/0007 drop nothing"
    assert "hold_cards" in refused["message"] and "--yes" in refused["message"]
    assert migrate.current(fresh_db) == HEAD, "nothing was changed"
    code, done = run(fresh_db, "db", "downgrade", "0004_ledger", "--yes")
    assert (code, done["revision"]) == (0, "0004_ledger")
    code, nothing = run(fresh_db, "db", "downgrade", "0004_search")  # 0004_ledger's outcome
    assert code == 1 and [d["revision"] for d in nothing["drops"]] == ["0004_ledger"]
    code, up = run(fresh_db, "db", "upgrade")
    assert (code, up["revision"]) == (0, HEAD)


def test_every_migration_says_what_its_downgrade_drops() -> None:
    versions = ROOT / "migrations" / "versions"
    revisions = {p.stem for p in versions.glob("0*.py")}
    assert revisions == set(DROPS), "a new migration declares in cli/migration_drops.py"
