"""`osae`: the operator's command line. Each command module adds its subcommands."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from sqlalchemy.exc import DBAPIError

from cli import (
    argparse_words,
    bootstrap,
    calendar_commands,
    db_commands,
    diary_commands,
    enquiry_commands,
    export_commands,
    feed_commands,
    hold_commands,
    import_commands,
    ledger_commands,
    local_errors,
    outbox_commands,
    ping_commands,
    process_commands,
    report_commands,
    search_commands,
    venue_commands,
)
from cli.context import common_options, emit_error, locale, say, use_language
from cli.errors import CommandError

# Each module has ``register(commands, common)``; order is the order of `osae --help`.
COMMAND_MODULES = (
    db_commands,
    venue_commands,
    hold_commands,
    ledger_commands,
    enquiry_commands,
    calendar_commands,
    diary_commands,
    search_commands,
    process_commands,
    outbox_commands,
    # issue 27: the ledger taken out and brought in
    export_commands,
    feed_commands,
    import_commands,
    # issue 28: the manager's pipeline
    report_commands,
    # issue 28: the window ping (開放日に知らせる)
    ping_commands,
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
        description=say("cli.osae"),
    )
    commands = parser.add_subparsers(
        dest="command", metavar=say("cli.command"), parser_class=Parser
    )
    common = common_options()
    for module in COMMAND_MODULES:
        module.register(commands, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Settings are read once, here; each command gets them as ``args.settings``."""
    try:
        settings = bootstrap.load_settings()
    except CommandError as err:
        emit_error("--json" in (sys.argv if argv is None else argv), err.code, str(err))
        return err.exit_code
    use_language(settings.language)  # argparse's messages are worded before any command runs
    with argparse_words.speaking(locale()):  # argparse's own words too (usage:, error: ...)
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            parser.print_help()
            return 0
    args.settings = settings
    try:
        code: int = args.handler(args)
        sys.stdout.flush()  # here, not at exit: a reader gone (`| head`) is told below
    except CommandError as err:
        local_errors.say_error(getattr(args, "json", False), err.code, str(err), err.facts)
        return err.exit_code
    except KeyboardInterrupt:  # Ctrl-C in a short command: nothing half-done to report
        print(f"osae: {say('cli.interrupted')}", file=sys.stderr)
        return 130
    except (OSError, DBAPIError) as err:
        # `osae ... | head` (a broken pipe): the reader has what it wanted; a full disk, a
        # folder osae may not write: one line (cli.local_errors)
        as_json = getattr(args, "json", False)
        gone = isinstance(err, BrokenPipeError)
        return _reader_gone() if gone else local_errors.report(err, as_json, settings.data_dir)
    return code


def _reader_gone() -> int:
    """Exit as a command killed by SIGPIPE would (141), silently: what remains unprinted has
    no reader, and Python's own flush at exit would otherwise fail again with a traceback."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 128 + 13


if __name__ == "__main__":
    sys.exit(main())
