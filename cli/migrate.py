"""Applying the Alembic migrations from code (`osae db upgrade`, tests, `osae serve`).

A database that cannot be reached raises core's ``DatabaseUnavailable``, as the engine
does: callers catch core's errors, never SQLAlchemy's."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine
from sqlalchemy.exc import OperationalError

import migrations
from core.db import database_url
from core.errors import DatabaseUnavailable


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    config.attributes["url"] = database_url(url)
    return config


def upgrade(url: str, revision: str = "head") -> None:
    with _reached():
        command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    with _reached():
        command.downgrade(alembic_config(url), revision)


def trial_downgrade(url: str, revision: str) -> None:
    """Runs the downgrade inside a transaction that is rolled back: a migration that refuses
    (``MigrationRefused``) refuses here, before anyone is asked to confirm what it drops."""
    engine = create_engine(database_url(url))
    try:
        with _reached(), engine.connect() as conn:
            conn.begin()
            config = alembic_config(url)
            config.attributes["connection"] = conn
            try:
                command.downgrade(config, revision)
            finally:
                conn.rollback()
    finally:
        engine.dispose()


def current(url: str) -> str | None:
    engine = create_engine(database_url(url))
    try:
        with _reached(), engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()


@contextlib.contextmanager
def _reached() -> Iterator[None]:
    """A database that does not answer becomes ``DatabaseUnavailable`` (its first line)."""
    try:
        yield
    except OperationalError as err:
        reason = str(err.orig).strip().splitlines()[0] if err.orig else str(err)
        raise DatabaseUnavailable(reason) from err
