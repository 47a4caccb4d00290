"""`osae ping add|list|drop`: the window ping (開放日に知らせる) from the terminal. A banquet
refused because its date's banquet window is not open yet is kept; when the window opens,
whoever asked gets a DM (in the order they asked) with the form filled in."""

from __future__ import annotations

import argparse
from datetime import datetime

from bot.ping_notices import request_line
from bot.texts import dates, text
from cli import arguments
from cli.context import emit, emit_refusal, locale, now_of, open_venue
from cli.hold_commands import _item as also_item  # --also, as `osae hold request` reads it
from core.model import HoldRequest, Venue
from core.pings import PingStatus, WindowPing, ping_to_json
from core.results import Refused
from core.rules.spans import end_minute


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    ping = commands.add_parser(
        "ping", help="be told when a date opens to banquets (開放日に知らせる)"
    )
    actions = ping.add_subparsers(dest="ping_command", metavar="ACTION", required=True)
    _register_add(actions, common)
    listing = actions.add_parser("list", parents=[common], help="the pings waiting, in order")
    listing.add_argument("--all", action="store_true", help="the told and dropped ones too")
    listing.add_argument("--asker", type=arguments.user, help="only this person's (Slack id)")
    listing.set_defaults(handler=list_pings)
    drop = actions.add_parser("drop", parents=[common], help="drop a waiting ping")
    drop.add_argument("id", type=int)
    drop.add_argument(
        "--actor", required=True, type=arguments.user, help="its asker or a manager (Slack id)"
    )
    drop.set_defaults(handler=drop_ping)


def _register_add(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    add = actions.add_parser(
        "add",
        parents=[common],
        help="a banquet refused because its date's window is not open yet: tell me when it opens",
    )
    add.add_argument("--room", required=True, type=arguments.typed)
    add.add_argument("--date", required=True, type=arguments.iso_date, help="YYYY-MM-DD")
    add.add_argument("--start", required=True, type=arguments.clock, help="HH:MM")
    add.add_argument(
        "--end", required=True, type=arguments.clock, help="HH:MM (at/before start: next day)"
    )
    add.add_argument(
        "--also", action="append", default=[], type=also_item, metavar="ROOM,START,END"
    )
    add.add_argument("--kind", required=True, type=arguments.typed, help="a banquet kind id")
    add.add_argument("--customer", required=True, type=arguments.typed)
    add.add_argument("--salesperson", required=True, type=arguments.user, help="Slack user id")
    add.add_argument("--guests", type=arguments.guests, metavar="N")
    add.add_argument("--note", default="", type=arguments.lines)
    add.add_argument(
        "--actor", type=arguments.user, help="who is told (Slack id; default: the salesperson)"
    )
    add.set_defaults(handler=add_ping)


def add_ping(args: argparse.Namespace) -> int:
    engine, venue = open_venue(args)
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
