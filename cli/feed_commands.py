"""`osae feed url|rotate --salesperson U… | --venue`: a calendar feed's secret URL, shown
again or replaced (the old one then gets 404)."""

from __future__ import annotations

import argparse

from bot.texts import text
from cli.context import emit, emit_refusal, locale, now_of, open_venue, parse_now, say, settings_of
from core.exports.feed_tokens import FeedKey, Scope
from core.results import Refused


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    del common  # its --venue ID is this command's --venue [ID]: the venue's own feed
    feed = commands.add_parser("feed", help=say("help.feed"), description=say("help.feed"))
    actions = feed.add_subparsers(dest="feed_command", metavar=say("cli.action"), required=True)
    for name in ("url", "rotate"):
        help_text = say(f"help.feed.{name}")
        act = actions.add_parser(name, help=help_text, description=help_text)
        act.add_argument("--json", action="store_true", help=say("cli.opt.json"))
        act.add_argument("--now", type=parse_now, help=say("cli.opt.now"))
        which = act.add_mutually_exclusive_group(required=True)
        which.add_argument("--salesperson", metavar="USER", help=say("help.feed.salesperson"))
        which.add_argument(
            "--venue",
            nargs="?",
            const="",
            metavar="ID",
            help=say("help.feed.venue"),
        )
        act.set_defaults(handler=show_feed, rotate=name == "rotate")


def show_feed(args: argparse.Namespace) -> int:
    engine, venue = open_venue(args)
    settings = settings_of(args)
    if args.salesperson is None:
        feed = FeedKey(venue.id, Scope.VENUE)
    else:
        feed = FeedKey(venue.id, Scope.SALESPERSON, args.salesperson.strip())
    secret = settings.feed_secret.encode() if settings.feed_secret else None
    now = now_of(args, venue.tz)
    token = engine.writes.feed_token(feed, secret=secret, now=now, rotate=args.rotate)
    if isinstance(token, Refused):
        return emit_refusal(args.json, token, venue.tz)
    url = f"{settings.feed_base}/calendar/{token}.ics"
    code = locale()
    scope = (
        text(code, "takeout.feed.venue")
        if feed.scope is Scope.VENUE
        else text(code, "takeout.feed.person", user=feed.subject)
    )
    key = "takeout.feed.rotated" if args.rotate else "takeout.feed.url"
    payload = {
        "url": url,
        "scope": feed.scope.value,
        "salesperson": feed.subject or None,
        "rotated": bool(args.rotate),
    }
    return emit(args.json, payload, [text(code, key, scope=scope, url=url)])
