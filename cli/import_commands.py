"""`osae import FILE.xlsx|FILE.csv`: a venue's ledger in the 予約台帳 layout (or mapped
columns) placed as holds, all or nothing; every row that cannot be placed named with why."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bot.texts import text
from bot.texts.refusals import describe
from bot.texts.states import placement
from cli.context import emit, emit_refusal, locale, now_of, open_venue, plain, say
from cli.errors import CommandError
from core.exports.reading import KNOWN, FileProblem, Problem, read_ledger
from core.model import Venue
from core.operations.imports import ImportAnswer, RowRefusal
from core.results import Refused


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    into = commands.add_parser(
        "import", parents=[common], help=say("help.import"), description=say("help.import")
    )
    into.add_argument("file", type=Path, metavar="FILE", help=say("help.import.file"))
    into.add_argument("--dry-run", action="store_true", help=say("help.import.dry_run"))
    into.add_argument(
        "--columns",
        type=_mapping,
        metavar="MAPPING",
        help=say("help.import.columns"),
    )
    into.add_argument("--actor", help=say("help.import.actor"))
    into.set_defaults(handler=run_import)


def run_import(args: argparse.Namespace) -> int:
    code, path = locale(), args.file
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("xlsx", "csv"):
        raise CommandError("usage", text(code, "takeout.import.format", file=path), exit_code=2)
    try:
        data = path.read_bytes()
    except OSError as err:
        why = err.strerror or type(err).__name__
        said = text(code, "takeout.import.unreadable", file=path, why=why)
        raise CommandError("unreadable", said, exit_code=2) from None
    try:
        sheet = read_ledger(data, fmt, placement, args.columns)
    except FileProblem as err:
        said = text(code, f"takeout.import.{err.code}", file=path, **err.facts)
        raise CommandError(err.code, said, exit_code=2) from None
    engine, venue = open_venue(args)
    now = now_of(args, venue.tz)
    answer = engine.writes.import_ledger(
        venue.id, sheet, actor=args.actor, now=now, dry_run=args.dry_run
    )
    if isinstance(answer, Refused):
        return emit_refusal(args.json, answer, venue.tz)
    return _emit(args, answer, venue)


def _emit(args: argparse.Namespace, answer: ImportAnswer, venue: Venue) -> int:
    code, path = locale(), args.file
    refused = [_refusal_json(r, venue) for r in answer.refusals]
    payload: dict[str, Any] = {
        "file": str(path),
        "placed": answer.placed,
        "dry_run": answer.dry_run,
        "rows": answer.rows,
        "holds": list(answer.holds) if answer.placed else [],
        "confirmed": answer.confirmed,
        "skipped": answer.skipped,
        "refused": refused,
    }
    if refused:
        head = text(code, "takeout.import.refused", file=path, count=len(refused))
        if args.json:
            print(json.dumps({"ok": False, "code": "not_placed", "message": head, **payload},
                             ensure_ascii=False))  # fmt: skip
        else:
            lines = [text(code, "takeout.import.line", line=r["line"], why=r["message"])
                     for r in refused]  # fmt: skip
            print("\n".join(plain(line) for line in [head, *lines]), file=sys.stderr)
        return 1
    key = "takeout.import.dry_run" if answer.dry_run else "takeout.import.placed"
    facts = {"file": path, "rows": answer.rows, "confirmed": answer.confirmed}
    lines = [text(code, key, holds=len(answer.holds), **facts)]
    if answer.skipped:
        lines.append(text(code, "takeout.import.skipped", count=answer.skipped))
    return emit(args.json, payload, lines)


def _refusal_json(refusal: RowRefusal, venue: Venue) -> dict[str, Any]:
    return {
        "line": refusal.lines[0],
        "lines": list(refusal.lines),
        "code": refusal.problem.code if refusal.problem else _code(refusal.refused),
        "message": _why(refusal, venue),
    }


def _code(refused: Refused | None) -> str:
    return refused.code.value if refused is not None else "refused"


def _why(refusal: RowRefusal, venue: Venue) -> str:
    code = locale()
    if refusal.problem is not None:
        return problem_text(refusal.problem, code)
    assert refusal.refused is not None  # noqa: S101 - a refusal has one or the other
    return describe(refusal.refused, venue.tz, code)


def problem_text(problem: Problem, code: str) -> str:
    return text(code, f"takeout.problem.{problem.code}", **problem.facts)


def _mapping(value: str) -> dict[str, str]:
    """``日付=Date,部屋=Room``: the layout's header = the file's, strictly."""
    found: dict[str, str] = {}
    for pair in filter(None, (p.strip() for p in value.split(","))):
        ours, _, theirs = pair.partition("=")
        if ours.strip() not in KNOWN or not theirs.strip():
            said = text(locale(), "takeout.import.bad_mapping", pair=pair, columns="、".join(KNOWN))
            raise argparse.ArgumentTypeError(said)
        found[ours.strip()] = theirs.strip()
    return found
