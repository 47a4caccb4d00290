"""Alembic environment: the URL from the caller's config or DATABASE_URL, online only."""

from __future__ import annotations

import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import create_engine

from core.db import database_url

config = context.config
if config.config_file_name:  # the alembic CLI with alembic.ini; `osae db` configures its own
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def run_migrations() -> None:
    url = config.attributes.get("url") or database_url(os.environ.get("DATABASE_URL", ""))
    connection = config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            _migrate(conn)
    finally:  # also on Ctrl-C: no connection left for the garbage collector to warn about
        engine.dispose()


def _migrate(connection: object) -> None:
    context.configure(connection=connection, transactional_ddl=True)
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
