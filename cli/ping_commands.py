"""`osae ping add|list|drop`: the window ping (開放日に知らせる) from the terminal. A banquet
refused because its date's banquet window is not open yet is kept; when the window opens,
whoever asked gets a DM (in the order they asked) with the form filled in."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime

from bot.ping_notices import request_line
from bot.texts import dates, text
from cli import arguments, typed_names
from cli.context import emit, emit_refusal, locale, now_of, open_venue, say
from core.model import HoldRequest, ItemRequest, Venue
from core.pings import PingStatus, WindowPing, ping_to_json
from core.results import Code, Refused
from core.rules.spans import end_minute


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    ping = commands.add_parser("ping", help=say("help.ping"), description=say("help.ping"))
    actions = ping.add_subparsers(dest="ping_command", metavar="ACTION", required=True)
    _register_add(actions, common)
    listing = actions.add_parser("list", parents=[common], help=say("help.ping.list"))
    listing.add_argument("--all", action="store_true", help=say("help.ping.all"))
    listing.add_argument("--asker", type=arguments.user, help=say("help.ping.asker"))
    listing.set_defaults(handler=list_pings)
    drop = actions.add_parser("drop", parents=[common], help=say("help.ping.drop"))
    drop.add_argument("id", type=int)
    drop.add_argument(
        "--actor", required=True, type=arguments.user, help=say("help.ping.drop.actor")
    )
    drop.set_defaults(handler=drop_ping)


def _register_add(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    add = actions.add_parser("add", parents=[common], help=say("help.ping.add"))
    add.add_argument("--room", required=True, type=arguments.typed, help=say("help.ping.room"))
    add.add_argument("--date", required=True, type=arguments.iso_date, help="YYYY-MM-DD")
    add.add_argument("--start", required=True, type=arguments.clock, help="HH:MM")
    add.add_argument("--end", required=True, type=arguments.clock, help=say("help.ping.end"))
    add.add_argument(
        "--also",
        action="append",
        default=[],
        type=also_item,
        metavar="ROOM,START,END",
        help=say("help.ping.also"),
    )
    add.add_argument("--kind", required=True, type=arguments.typed, help=say("help.ping.kind"))
    add.add_argument("--customer", required=True, type=arguments.typed)
    add.add_argument(
        "--salesperson", required=True, type=arguments.user, help=say("help.ping.salesperson")
    )
    add.add_argument("--guests", type=arguments.guests, metavar="N")
    add.add_argument("--note", default="", type=arguments.lines)
    add.add_argument("--actor", type=arguments.user, help=say("help.ping.actor"))
    add.set_defaults(handler=add_ping)


def add_ping(args: argparse.Namespace) -> int:
    engine, venue = open_venue(args)
    typed_names.resolve_args(args, venue)  # rooms and kinds by id or name, as hold request
    asker = args.actor or args.salesperson
    req = HoldRequest(
        room_id=args.room,
        local_date=args.date,
        start_min=args.start,
        end_min=end_minute(args.start, args.end),
        kind=args.kind,
        customer=args.customer,
        salesperson=args.salesperson,
        creator=asker,
        note=args.note,
        also=tuple(args.also),
        guests=args.guests,
    )
    now = now_of(args, venue.tz)
    answer = engine.pings.add(venue.id, req, asker=asker, now=now)
    if isinstance(answer, Refused):
        return emit_refusal(args.json, answer, venue.tz)
    ping = answer.ping
    key = "ping.kept.again" if answer.replayed else "ping.kept"
    said = text(
        locale(),
        key,
        opens=_opens(ping, venue),
        day=dates.day(ping.day, locale()),
        customer=ping.request.customer,
    )
    lines = [f"#{ping.id} {ping_line(ping, venue, now)}", said.removeprefix(":bell: ")]
    return emit(
        args.json, {"id": ping.id, "replayed": answer.replayed, "ping": ping_to_json(ping)}, lines
    )


def list_pings(args: argparse.Namespace) -> int:
    engine, venue = open_venue(args)
    found = engine.pings.listing(venue.id, asker=args.asker, everything=args.all)
    now = now_of(args, venue.tz)
    lines = [f"#{p.id} {ping_line(p, venue, now)}" for p in found] or [text(locale(), "nobody")]
    return emit(args.json, {"pings": [ping_to_json(p) for p in found]}, lines)


def drop_ping(args: argparse.Namespace) -> int:
    engine, venue = open_venue(args)
    now = now_of(args, venue.tz)
    dropped = engine.pings.drop(venue.id, args.id, actor=args.actor, now=now)
    if isinstance(dropped, Refused):
        return emit_refusal(args.json, dropped, venue.tz)
    said = text(locale(), "home.pings.dropped", id=dropped.id)
    return emit(args.json, {"id": dropped.id, "ping": ping_to_json(dropped)}, [said])


def ping_line(ping: WindowPing, venue: Venue, now: datetime) -> str:
    """``12/19(土) 鳳凰の間 18:00〜21:00・忘年会・山田商事様・80名 — 9/20(月) 0:00 にお知らせ
    <U0SALES001>``; told and dropped ones say so."""
    names = {r.id: r.name for r in venue.rooms.values()}
    kind = venue.policy.kind(ping.request.kind)
    style = dates.style_for(venue, now)
    line = request_line(ping.request, names, kind.name if kind else "", venue.tz, locale(), style)
    state = f"[{ping.status.value}]" if ping.status is not PingStatus.WAITING else ""
    when = text(locale(), "home.pings.item", line="", opens=_opens(ping, venue)).strip()
    return " ".join(filter(None, [line, "—", when, state, f"<{ping.asker}>"]))


def _opens(ping: WindowPing, venue: Venue) -> str:
    if ping.opens_at is None:
        return text(locale(), "ping.now")
    return dates.when(ping.opens_at, venue.tz, locale(), year=True)


def refused_request(args: argparse.Namespace, refused: Refused, venue: Venue) -> int:
    """`osae hold request`'s refusal; one for a banquet window not open yet says how to be
    told when it opens."""
    style = dates.style_for(venue, now_of(args, venue.tz))  # its dates as the cards write them
    code = emit_refusal(args.json, refused, venue.tz, style=style)
    if refused.code is Code.BANQUET_NOT_OPEN and not args.json and args.enquiry is None:
        print(text(locale(), "ping.cli_hint"), file=sys.stderr)
    return code


def also_item(value: str) -> ItemRequest:
    """``ROOM,START,END`` of --also, as `osae hold request` reads it."""
    parts = value.rsplit(",", 2)
    if len(parts) != 3 or not parts[0].strip():
        raise argparse.ArgumentTypeError(f"{value!r} is not ROOM,START,END like chapel,11:00,12:00")
    start, end = arguments.clock(parts[1].strip()), arguments.clock(parts[2].strip())
    return ItemRequest(parts[0].strip(), start, end_minute(start, end))
