"""`osae diary`: the diary picture (台帳) of a day, a week or a month, as PNG or PDF."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bot.diary_words import diary_words
from bot.texts import text
from cli import arguments
from cli.context import emit, locale, now_of, open_venue, say
from cli.errors import CommandError
from core.diary import layout
from core.diary.draw import Format, Paper, render
from core.diary.model import DiaryRange


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    diary = commands.add_parser(
        "diary",
        parents=[common],
        help=say("help.diary.about"),
        description=say("help.diary.about"),
    )
    diary.add_argument(
        "--date", type=arguments.iso_date, required=True, help=say("help.diary.date")
    )
    which = diary.add_mutually_exclusive_group()
    which.add_argument("--week", action="store_true", help=say("help.diary.week"))
    which.add_argument("--month", action="store_true", help=say("help.diary.month"))
    diary.add_argument("--out", required=True, help=say("help.diary.out"))
    diary.add_argument(
        "--paper",
        choices=[p.value for p in Paper],
        help=say("help.diary.paper"),
    )
    diary.set_defaults(handler=draw_diary)


def draw_diary(args: argparse.Namespace) -> int:
    out = Path(args.out)
    fmt = _format(out)
    days = _range(args)
    engine, venue = open_venue(args)
    now = now_of(args, venue.tz)
    read = engine.reads.diary(venue.id, days)
    placed = layout.build(read, now)
    words = diary_words(venue, days, locale(), now, person=lambda user: user)
    data = render(placed, words, fmt, paper=Paper(args.paper) if args.paper else None)
    try:
        out.write_bytes(data)
    except OSError as err:
        reason = err.strerror or type(err).__name__
        message = text(locale(), "diary.cli.unwritable", file=str(out), reason=reason)
        raise CommandError("unwritable", message, exit_code=1) from None
    facts: dict[str, Any] = {
        "file": str(out),
        "size": len(data),
        "format": fmt.value,
        "venue": venue.id,
        "venue_name": venue.name,
        "view": days.view.value,
        "from": days.first.isoformat(),
        "to": days.last.isoformat(),
        "holds": placed.hold_count,
        "rooms": [row.room.id for row in placed.rows],
    }
    line = text(
        locale(),
        "diary.cli.written",
        file=str(out),
        title=words.title,
        size=len(data),
        count=placed.hold_count,
        rooms=len(placed.rows),
    )
    return emit(args.json, facts, [line])


def _format(out: Path) -> Format:
    suffix = out.suffix.lower().removeprefix(".")
    if suffix not in {f.value for f in Format}:
        raise CommandError(
            "bad_format", text(locale(), "diary.cli.format", file=str(out)), exit_code=2
        )
    return Format(suffix)


def _range(args: argparse.Namespace) -> DiaryRange:
    try:
        if args.month:
            return DiaryRange.month(args.date.year, args.date.month)
        return DiaryRange.week(args.date) if args.week else DiaryRange.day(args.date)
    except (ValueError, OverflowError):  # the week of 9999-12-31 ends past the calendar
        reason = text(locale(), "diary.unread", word=args.date.isoformat())
        raise CommandError("bad_date", reason, exit_code=2) from None
