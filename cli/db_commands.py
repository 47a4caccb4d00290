"""`osae db upgrade|downgrade|current`: the Alembic migrations; `osae db backup|restore`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from cli import backup, migrate, migration_drops, ops_texts
from cli.bootstrap import database_url
from cli.context import emit, say, settings_of
from cli.errors import CommandError
from core.errors import DatabaseUnavailable
from migrations import MigrationRefused

T = TypeVar("T")


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    db = commands.add_parser("db", help=say("help.db"), description=say("help.db"))
    actions = db.add_subparsers(dest="db_command", metavar=say("cli.action"), required=True)
    up = actions.add_parser("upgrade", parents=[common], help=say("help.db.upgrade"))
    up.add_argument(
        "revision", nargs="?", default="head", help=say("help.db.revision", default="head")
    )
    up.set_defaults(handler=upgrade)
    down = actions.add_parser("downgrade", parents=[common], help=say("help.db.downgrade"))
    down.add_argument(
        "revision", nargs="?", default="base", help=say("help.db.revision", default="base")
    )
    down.add_argument("--yes", action="store_true", help=say("help.db.yes"))
    down.set_defaults(handler=downgrade)
    _register_backup(actions, common)
    actions.add_parser("current", parents=[common], help=say("help.db.current")).set_defaults(
        handler=current
    )


def upgrade(args: argparse.Namespace) -> int:
    url = database_url(settings_of(args))
    _guarded(lambda: migrate.upgrade(url, args.revision))
    return current(args)


def downgrade(args: argparse.Namespace) -> int:
    """Says what it would drop and changes nothing without --yes."""
    url = database_url(settings_of(args))
    drops = _guarded(lambda: migration_drops.dropped(url, args.revision))
    if drops and not args.yes:
        _guarded(lambda: migrate.trial_downgrade(url, args.revision))  # a refusal comes first
        return _needs_yes(args, drops)
    _guarded(lambda: migrate.downgrade(url, args.revision))
    return current(args)


def _needs_yes(args: argparse.Namespace, drops: list[tuple[str, str]]) -> int:
    backup_command = args.settings.command("db", "backup", "FILE")
    lines = [ops_texts.say("downgrade.drops", revision=args.revision)]
    lines += [ops_texts.say("downgrade.drop_line", revision=r, what=w) for r, w in drops]
    lines.append(ops_texts.say("downgrade.needs_yes", backup=backup_command))
    if args.json:
        facts = {"drops": [{"revision": r, "what": w} for r, w in drops]}
        body = {"ok": False, "code": "needs_yes", "message": "\n".join(lines), **facts}
        print(json.dumps(body, ensure_ascii=False))
    else:
        print("\n".join(lines), file=sys.stderr)
    return 1


def current(args: argparse.Namespace) -> int:
    url = database_url(settings_of(args))
    revision = _guarded(lambda: migrate.current(url))
    return emit(
        args.json,
        {"revision": revision},
        [say("out.db.revision", revision=revision or say("out.db.none"))],
    )


def _guarded(action: Callable[[], T]) -> T:
    try:
        return action()
    except DatabaseUnavailable as err:
        message = say("out.db.unreachable", reason=err.reason)
        raise CommandError("database_unreachable", message) from None
    except MigrationRefused as err:
        raise CommandError("migration_refused", str(err)) from None


# -- backup and restore ----------------------------------------------------------------------
def _register_backup(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    save = actions.add_parser("backup", parents=[common], help=say("help.db.backup"))
    save.add_argument("file", type=Path, metavar="FILE")
    save.set_defaults(handler=run_backup)
    load = actions.add_parser("restore", parents=[common], help=say("help.db.restore"))
    load.add_argument("file", type=Path, metavar="FILE")
    load.add_argument("--yes", action="store_true", help=say("help.db.restore_yes"))
    load.set_defaults(handler=run_restore)


def run_backup(args: argparse.Namespace) -> int:
    url = database_url(settings_of(args))
    size = backup.backup(url, args.file)
    said = ops_texts.say("backup.done", file=args.file, size=size)
    return emit(args.json, {"file": str(args.file), "bytes": size}, [said])


def run_restore(args: argparse.Namespace) -> int:
    url = database_url(settings_of(args))
    database = backup.database_name(url)
    if not args.yes:
        said = ops_texts.say("backup.restore_needs_yes", database=database, file=args.file)
        raise CommandError("needs_yes", said, exit_code=1)
    backup.restore(url, args.file)
    revision = _guarded(lambda: migrate.current(url))
    said = ops_texts.say("backup.restored", file=args.file, database=database)
    return emit(
        args.json,
        {"file": str(args.file), "database": database, "revision": revision},
        [said, say("out.db.revision", revision=revision or say("out.db.none"))],
    )
