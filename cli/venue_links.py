"""`osae venue link ID WORKSPACE [--org]`: use a venue from a Slack workspace (a hotel group
links several venues to one), or from every workspace of an Enterprise Grid org."""

from __future__ import annotations

import argparse
import re
from datetime import UTC

from cli.bootstrap import engine_for
from cli.context import emit, now_of, say, settings_of
from cli.errors import CommandError
from core.model import WorkspaceLink

_WORKSPACE = re.compile(r"[TE][A-Z0-9]{2,20}")


def register(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    link = actions.add_parser("link", parents=[common], help=say("help.venue.link"))
    link.add_argument("id", help=say("help.venue.link_id"))
    link.add_argument("workspace", help=say("help.venue.link_workspace"))
    link.add_argument("--org", action="store_true", help=say("help.venue.link_org"))
    link.set_defaults(handler=link_venue)


def link_venue(args: argparse.Namespace) -> int:
    workspace = str(args.workspace).strip()
    if not _WORKSPACE.fullmatch(workspace) or (args.org != workspace.startswith("E")):
        raise CommandError(
            "bad_workspace", say("out.venue.bad_workspace", workspace=workspace), exit_code=2
        )
    engine = engine_for(settings_of(args))
    if engine.venues.venue(args.id) is None:
        known = ", ".join(engine.venues.venue_ids()) or say("out.venue.none")
        raise CommandError(
            "unknown_venue", say("out.venue.unknown", venue=args.id, known=known), exit_code=1
        )
    org = workspace if args.org else None
    engine.venues.link_workspace(
        WorkspaceLink(args.id, workspace, org, args.org), now=now_of(args, UTC)
    )
    together = engine.venues.workspace_venues(workspace)
    return emit(
        args.json,
        {"venue": args.id, "workspace": workspace, "org_wide": args.org, "venues": together},
        [say("out.venue.linked", venue=args.id, workspace=workspace, venues=", ".join(together))],
    )
