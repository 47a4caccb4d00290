"""`osae venue export ID [--out FILE]`: the venue as the TOML file `osae venue load` takes
back unchanged (to keep a venue set up in Slack in git, or to move it)."""

from __future__ import annotations

import argparse
from pathlib import Path

import tomli_w

from cli.bootstrap import engine_for
from cli.context import emit, say, settings_of, venue_id
from cli.errors import CommandError
from core.model import Venue
from core.venue_document import document

HEADER = "# Written by `osae venue export`; load it again with `osae venue load FILE`.\n"


def register(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    export = actions.add_parser("export", parents=[common], help=say("help.venue.export"))
    export.add_argument("id", nargs="?", help=say("help.venue.export_id"))
    export.add_argument("--out", type=Path, help=say("help.venue.export_out"))
    export.set_defaults(handler=export_venue)


def venue_toml(venue: Venue) -> str:
    return HEADER + tomli_w.dumps(document(venue))


def export_venue(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    engine = engine_for(settings)
    chosen = args.id or venue_id(args, engine, settings)
    found = engine.venues.venue(chosen)
    if found is None:
        known = ", ".join(engine.venues.venue_ids()) or say("out.venue.none")
        raise CommandError(
            "unknown_venue", say("out.venue.unknown", venue=chosen, known=known), exit_code=1
        )
    text = venue_toml(found)
    if args.out is None:
        if args.json:
            return emit(True, {"venue": found.id, "toml": text}, [])
        print(text, end="")
        return 0
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as err:
        reason = err.strerror or str(err)
        raise CommandError(
            "cannot_write", say("out.venue.cannot_write", file=args.out, reason=reason), exit_code=1
        ) from None
    return emit(
        args.json,
        {"venue": found.id, "file": str(args.out)},
        [say("out.venue.exported", venue=found.id, file=args.out)],
    )
