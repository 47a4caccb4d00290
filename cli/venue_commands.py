"""`osae venue load FILE` (idempotent upsert), `osae venue show` and `osae venue export`."""

from __future__ import annotations

import argparse
from datetime import UTC
from pathlib import Path

from bot.texts import text
from bot.texts.checked import said
from cli import venue_export, venue_lines, venue_links
from cli.bootstrap import engine_for
from cli.context import emit, locale, now_of, say, settings_of, venue_id
from cli.errors import CommandError
from core.errors import VenueConflict
from core.model import Venue
from core.venue_errors import VenueFileError
from core.venue_file import read_venue_file


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    venue = commands.add_parser("venue", help=say("help.venue"))
    actions = venue.add_subparsers(dest="venue_command", metavar="ACTION", required=True)
    load = actions.add_parser("load", parents=[common], help=say("help.venue.load"))
    load.add_argument("file", type=Path, help=say("help.venue.file"))
    load.set_defaults(handler=load_venue)
    actions.add_parser("show", parents=[common], help=say("help.venue.show")).set_defaults(
        handler=show_venue
    )
    venue_export.register(actions, common)
    venue_links.register(actions, common)


def load_venue(args: argparse.Namespace) -> int:
    try:
        parsed = read_venue_file(args.file)
    except VenueFileError as err:
        # A shared check's failure is said in the terminal's language; a bad file is bad
        # input, as a bad flag is (exit code 2), and nothing was written.
        if err.problem is None:  # not a shared check: its English, framed in the reader's
            message = text(locale(), "check.venue_file", detail=str(err))
        else:
            message = said(err.problem, err.where, locale())
        raise CommandError("bad_venue_file", message, exit_code=2) from None
    engine = engine_for(settings_of(args))
    try:
        saved = engine.venues.save_venue(parsed, now=now_of(args, UTC))
    except VenueConflict as err:
        raise CommandError("venue_conflict", str(err), exit_code=1) from None
    return emit(
        args.json,
        {"venue": saved.id, "rooms": [r.id for r in saved.rooms.values() if r.active]},
        [
            text(
                locale(),
                "term.venue.loaded",
                id=saved.id,
                name=saved.name,
                rooms=_rooms_line(saved),
            )
        ],
    )


def show_venue(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    engine = engine_for(settings)
    found = engine.venues.venue(venue_id(args, engine, settings))
    if found is None:
        said = text(locale(), "term.unknown_venue", venue=args.venue)
        raise CommandError("unknown_venue", said, exit_code=1)
    active = [r for r in found.rooms.values() if r.active]
    rooms = [
        {
            "id": r.id,
            "name": r.name,
            "parts": sorted(r.parts),
            "turnover_min": r.turnover_min,
            "capacity": r.capacity,
        }
        for r in active
    ]
    lines = venue_lines.shown(found, active)
    link = engine.venues.venue_workspace(found.id)
    where = {
        "sales_channel": found.sales_channel,
        "language": found.language,
        "managers": sorted(found.managers),
        "workspace": link.workspace_id if link else None,
    }
    lines.append(venue_lines.where(where))
    payload = {"venue": found.id, "name": found.name, "rooms": rooms, **where}
    return emit(args.json, payload, lines)


def _rooms_line(venue: Venue) -> str:
    return ", ".join(
        f"{r.id}={'+'.join(sorted(r.parts))}" for r in venue.rooms.values() if r.active
    )
