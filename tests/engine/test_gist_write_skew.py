"""Regression test for the write skew SERIALIZABLE misses on GiST scans (docs/concurrency.md).

Two sessions each read "nothing overlaps K" through a GiST index, then each insert K. When K
lies beyond every key in the index, PostgreSQL 15-18 lets both commit. The part-day bump that
every engine write does turns this into a plain row conflict: the second session fails with
40001 and its retry sees the first's row. Both are shown on the same interleaving here.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError

from core.db import database_url
from core.store import part_days
from core.uow import sqlstate

K = "[100000,100001)"  # beyond every key the index holds
VENUE = "gist-regression"


@pytest.fixture
def db(fresh_db: str) -> Iterator[sa.Engine]:
    engine = sa.create_engine(
        database_url(fresh_db),
        connect_args={"options": "-c enable_seqscan=off -c enable_bitmapscan=off"},
    )
    with engine.begin() as admin:
        admin.execute(sa.text("CREATE TABLE probe (id serial PRIMARY KEY, span int4range)"))
        admin.execute(
            sa.text(
                "INSERT INTO probe (span)"
                " SELECT int4range(2*g, 2*g+1) FROM generate_series(0, 3999) g"
            )
        )
        admin.execute(sa.text("CREATE INDEX probe_gist ON probe USING gist (span)"))
    with engine.connect() as conn:
        conn.execution_options(isolation_level="AUTOCOMMIT").execute(
            sa.text("VACUUM ANALYZE probe")
        )
    yield engine
    engine.dispose()


COUNT = sa.text("SELECT count(*) FROM probe WHERE span && CAST(:k AS int4range)")
INSERT = sa.text("INSERT INTO probe (span) VALUES (CAST(:k AS int4range))")


def interleave(db: sa.Engine, *, with_ledger: bool) -> tuple[list[str], int]:
    """Both read, then each in turn (bumps and) inserts and commits. Returns (log, rows with K)."""
    s1, s2 = (db.connect().execution_options(isolation_level="SERIALIZABLE") for _ in range(2))
    log = []
    try:
        plan = s1.execute(sa.text("EXPLAIN " + COUNT.text), {"k": K}).scalars().all()
        assert any("probe_gist" in line for line in plan), "the read must use the GiST index"
        s1.rollback()
        t1, t2 = s1.begin(), s2.begin()
        assert [s.execute(COUNT, {"k": K}).scalar_one() for s in (s1, s2)] == [0, 0]
        for name, conn, tx in (("s1", s1, t1), ("s2", s2, t2)):
            try:
                if with_ledger:
                    part_days.bump(conn, VENUE, {("A1", date(2027, 3, 10)): 1})
                conn.execute(INSERT, {"k": K})
                tx.commit()
                log.append(f"{name} committed")
            except DBAPIError as err:
                tx.rollback()
                log.append(f"{name} {sqlstate(err)}")
    finally:
        s1.close()
        s2.close()
    with db.connect() as check:
        return log, check.execute(COUNT, {"k": K}).scalar_one()


def test_plain_serializable_lets_both_commit_beyond_the_index_range(db: sa.Engine) -> None:
    """The PostgreSQL behaviour docs/concurrency.md describes; failing here means SSI caught up."""
    assert interleave(db, with_ledger=False) == (["s1 committed", "s2 committed"], 2)


def test_the_part_day_bump_makes_the_second_session_fail_and_retry(db: sa.Engine) -> None:
    assert interleave(db, with_ledger=True) == (["s1 committed", "s2 40001"], 1)
