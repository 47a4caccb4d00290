"""Finding or starting a PostgreSQL for the tests, and making throwaway databases in it."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path

import psycopg
from psycopg import sql

from cli import localservices, migrate
from cli.settings import Settings
from core.db import database_url

LOCAL = "postgresql://postgres@127.0.0.1:5432/test"


def server_url() -> tuple[str, Callable[[], None]]:
    """DATABASE_URL, else the machine's own server, else one started just for this run and
    removed, data and all, when the run ends (also after Ctrl-C: atexit).

    ``OSAE_TEST_PG=throwaway`` always starts one (to try the fresh-machine path).
    """
    throwaway = os.environ.get("OSAE_TEST_PG") == "throwaway"
    if os.environ.get("DATABASE_URL") and not throwaway:
        return os.environ["DATABASE_URL"], _nothing
    if not throwaway and localservices.postgres_answers(LOCAL):
        return LOCAL, _nothing
    system = Settings.from_env().system_postgres  # OSAE_PG_BINARIES=wheel: the wheel's
    return throwaway_service(
        partial(localservices.start_postgres, system=system, durable=False), "osae-pg-"
    )


def throwaway_service(
    start: Callable[[Path], localservices.Service], prefix: str
) -> tuple[str, Callable[[], None]]:
    """A server in a new temporary folder; the callable stops it and removes the folder
    (called by the fixture, else at exit)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        service = start(folder)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    done: list[bool] = []

    def discard() -> None:
        if not done:
            done.append(True)
            service.discard()

    atexit.register(discard)
    return service.url, discard


def _nothing() -> None:
    """The machine's own server, or DATABASE_URL's: not ours to stop."""


def with_database(url: str, name: str) -> str:
    return database_url(url).set(database=name).render_as_string(hide_password=False)


def admin(url: str) -> psycopg.Connection:
    return psycopg.connect(with_database(url, "postgres").replace("+psycopg", ""), autocommit=True)


def create_database(url: str, template: str | None = None) -> str:
    name = f"osae_t_{uuid.uuid4().hex[:12]}"
    with admin(url) as conn:
        stmt = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template:
            stmt = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)
            )
        conn.execute(stmt)
    return name


def drop_database(url: str, name: str) -> None:
    with admin(url) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def migrated_template(url: str) -> str:
    name = create_database(url)
    migrate.upgrade(with_database(url, name))
    return name
