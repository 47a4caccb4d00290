"""`osae`: the operator's command line. Each command module adds its subcommands."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from cli.context import CommandError, common_options, emit_error

# Each module has ``register(commands, common)``; order is the order of `osae --help`.
COMMAND_MODULES = (
    "cli.db_commands",
    "cli.venue_commands",
    "cli.hold_commands",
    "cli.enquiry_commands",
    "cli.calendar_commands",
    "cli.runtime_commands",
)


class Parser(argparse.ArgumentParser):
    """Usage errors as one JSON object when --json was asked for."""

    def error(self, message: str) -> None:  # type: ignore[override]
        if "--json" in sys.argv:
            emit_error(True, "usage", f"{self.prog}: {message}")
            sys.exit(2)
        super().error(message)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="osae",
        description="Ranked tentative holds (仮押さえ) for banquet rooms, in Slack.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    common = common_options()
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(commands, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    try:
        code: int = args.handler(args)
    except CommandError as err:
        emit_error(getattr(args, "json", False), err.code, str(err))
        return err.exit_code
    return code


if __name__ == "__main__":
    sys.exit(main())
