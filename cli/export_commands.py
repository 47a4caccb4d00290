"""`osae export`: the ledger of a range of dates as a venue's 予約台帳, in xlsx or CSV."""

from __future__ import annotations

import argparse
from datetime import date
from pathlib import Path
from typing import Any

from bot.takeout import ledger_file
from bot.texts import text
from cli import arguments
from cli.context import emit, locale, open_venue, say
from cli.errors import CommandError
from core.model import Venue
from core.operations.exports import LedgerOut

FORMATS = ("xlsx", "csv")


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    out = commands.add_parser(
        "export", parents=[common], help=say("help.export"), description=say("help.export")
    )
    out.add_argument(
        "--from", dest="start", required=True, type=arguments.iso_date, help=say("help.export.from")
    )
    out.add_argument(
        "--to", dest="end", required=True, type=arguments.iso_date, help=say("help.export.to")
    )
    out.add_argument("--format", choices=FORMATS, help=say("help.export.format"))
    out.add_argument("--out", required=True, type=Path, metavar="FILE", help=say("help.export.out"))
    out.add_argument("--with-contact", action="store_true", help=say("help.export.contact"))
    out.add_argument("--actor", help=say("help.export.actor"))
    out.add_argument("--all", action="store_true", help=say("help.export.all"))
    out.set_defaults(handler=export)


def export(args: argparse.Namespace) -> int:
    code = locale()
    fmt = args.format or _format_of(args.out)
    start, end = args.start, args.end
    if start > end:
        raise CommandError(
            "bad_range", text(code, "takeout.export.range", start=start, end=end), exit_code=2
        )
    engine, venue = open_venue(args)
    if args.with_contact and not (args.actor and venue.is_manager(args.actor)):
        said = text(code, "takeout.export.contact_managers", actor=args.actor or "--actor")
        raise CommandError("forbidden", said, exit_code=2)
    found = engine.reads.ledger_out(venue.id, start, end, left=args.all)
    data, rows = render(found, venue, fmt, with_contact=args.with_contact)
    try:
        args.out.write_bytes(data)
    except OSError as err:
        why = err.strerror or type(err).__name__
        said = text(code, "takeout.export.cannot_write", file=args.out, why=why)
        raise CommandError("cannot_write", said) from None
    payload = _answer(args, fmt, rows, len(found.holds), len(data), start, end)
    facts = {"file": args.out, "rows": rows, "holds": len(found.holds), "start": start, "end": end}
    return emit(args.json, payload, [text(code, "takeout.export.done", **facts)])


def render(found: LedgerOut, venue: Venue, fmt: str, *, with_contact: bool) -> tuple[bytes, int]:
    """The file's bytes and its number of rows (one per room of each hold)."""
    return ledger_file(found, venue, fmt, with_contact=with_contact)


def _answer(
    args: argparse.Namespace, fmt: str, rows: int, holds: int, size: int, start: date, end: date
) -> dict[str, Any]:
    return {
        "file": str(args.out),
        "format": fmt,
        "rows": rows,
        "holds": holds,
        "bytes": size,
        "from": start.isoformat(),
        "to": end.isoformat(),
        "with_contact": bool(args.with_contact),
        "all": bool(args.all),
    }


def _format_of(path: Path) -> str:
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        said = text(locale(), "takeout.import.format", file=path)
        raise CommandError("usage", said, exit_code=2)
    return suffix
