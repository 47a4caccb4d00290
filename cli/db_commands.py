"""`osae db upgrade|downgrade|current`: the Alembic migrations."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

from cli import migrate
from cli.bootstrap import database_url
from cli.context import emit, settings_of
from cli.errors import CommandError
from core.errors import DatabaseUnavailable
from migrations import MigrationRefused

T = TypeVar("T")


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    db = commands.add_parser("db", help="database schema")
    actions = db.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    up = actions.add_parser("upgrade", parents=[common], help="apply migrations")
    up.add_argument("revision", nargs="?", default="head")
    up.set_defaults(handler=upgrade)
    down = actions.add_parser("downgrade", parents=[common], help="revert migrations")
    down.add_argument("revision", nargs="?", default="base")
    down.set_defaults(handler=downgrade)
    actions.add_parser("current", parents=[common], help="show the applied revision").set_defaults(
        handler=current
    )


def upgrade(args: argparse.Namespace) -> int:
    url = database_url(settings_of(args))
    _guarded(lambda: migrate.upgrade(url, args.revision))
    return current(args)


def downgrade(args: argparse.Namespace) -> int:
    url = database_url(settings_of(args))
    _guarded(lambda: migrate.downgrade(url, args.revision))
    return current(args)


def current(args: argparse.Namespace) -> int:
    url = database_url(settings_of(args))
    revision = _guarded(lambda: migrate.current(url))
    return emit(args.json, {"revision": revision}, [f"schema revision: {revision or 'none'}"])


def _guarded(action: Callable[[], T]) -> T:
    try:
        return action()
    except DatabaseUnavailable as err:
        message = f"cannot reach the database: {err.reason}"
        raise CommandError("database_unreachable", message) from None
    except MigrationRefused as err:
        raise CommandError("migration_refused", str(err)) from None
