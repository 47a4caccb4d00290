"""`osae free`: which dates, times and rooms a request would get now (docs/rules.md, Finding
a slot); its ``--json`` answer and flags are the contract issue 12 names."""

from __future__ import annotations

import argparse
from collections import Counter
from itertools import groupby
from typing import Any

from bot.texts import dates, text
from bot.texts.dates import DateStyle
from bot.texts.finding import outcome_label, room_label, slot_label
from cli import arguments, typed_names
from cli.context import emit, emit_refusal, locale, now_of, open_venue, say
from cli.errors import CommandError
from core.model import Kind, Venue
from core.results import Availability, Chance, Found, Refused
from core.rules.rokuyo import Rokuyo
from core.rules.search import Search, is_day_kind
from core.rules.spans import end_minute


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    free = commands.add_parser(
        "free",
        parents=[common],
        help=say("help.free"),
    )
    free.add_argument(
        "--from", dest="first", required=True, type=arguments.iso_date, help=say("help.free.from")
    )
    free.add_argument(
        "--to", dest="last", required=True, type=arguments.iso_date, help=say("help.free.to")
    )
    free.add_argument(
        "--room", dest="rooms", action="extend", nargs="+", default=[], metavar="R",
        help=say("help.free.room"),
    )  # fmt: skip
    free.add_argument(
        "--guests",
        type=arguments.guests,
        help=say("help.free.guests"),
    )
    free.add_argument(
        "--slot", dest="slots", action="extend", nargs="+", default=[], metavar="NAME",
        help=say("help.free.slot"),
    )  # fmt: skip
    free.add_argument("--start", type=arguments.clock, help=say("help.free.start"))
    free.add_argument("--end", type=arguments.clock, help=say("help.request.end"))
    free.add_argument(
        "--days", type=_days, default=frozenset(),
        help=say("help.free.days"),
    )  # fmt: skip
    free.add_argument("--rokuyo", type=_rokuyo, default=frozenset(), help=say("help.free.rokuyo"))
    free.add_argument(
        "--kind", type=arguments.typed, default=Kind.WEDDING.value,
        help=say("help.free.kind"),
    )  # fmt: skip
    free.set_defaults(handler=find)


def find(args: argparse.Namespace) -> int:
    if (args.start is None) != (args.end is None) or (args.start is not None and args.slots):
        raise CommandError("usage", text(locale(), "term.free_times"), exit_code=2)
    times = None if args.start is None else (args.start, end_minute(args.start, args.end))
    engine, venue = open_venue(args)
    typed_names.resolve_args(args, venue)  # rooms and the kind by id or name
    kind = venue.policy.kind(args.kind)
    query = Search(
        first=args.first,
        last=args.last,
        rooms=tuple(dict.fromkeys(args.rooms)),
        guests=args.guests,
        slots=tuple(dict.fromkeys(args.slots)),
        times=times,
        days=args.days,
        rokuyo=args.rokuyo,
        kind=kind.cls if kind else Kind.WEDDING,
    )
    now = now_of(args, venue.tz)
    style = dates.style_for(venue, now)
    answer = engine.reads.search(venue.id, query, now=now)
    if isinstance(answer, Refused):
        return emit_refusal(args.json, answer, venue.tz, style=style)
    return emit(
        args.json,
        {"venue": venue.id, "results": [found_to_json(f, venue) for f in answer.found]},
        lines(answer, venue, style),
    )


def found_to_json(found: Found, venue: Venue) -> dict[str, Any]:
    """One result; ``start``/``end`` venue-local ISO, ``until`` ISO or null."""
    tz = venue.tz
    room = found.place.room
    return {
        "date": found.place.day.isoformat(),
        "rokuyo": found.rokuyo.japanese,
        "slot": found.place.slot,
        "start": found.start.astimezone(tz).isoformat(),
        "end": found.end.astimezone(tz).isoformat(),
        "room": room.id,
        "outcome": found.outcome.value,
        "ahead": list(found.ahead),
        "until": found.until.astimezone(tz).isoformat() if found.until else None,
        "room_name": room.name,
        "capacity": room.capacity,
        "rank": found.rank,
    }


def lines(answer: Availability, venue: Venue, style: DateStyle) -> list[str]:
    """The places a request would get (1st or 2nd), by date; the rest counted at the end."""
    code, tz = locale(), venue.tz
    out: list[str] = []
    fitting = [f for f in answer.found if f.fits]
    for day, found in groupby(fitting, key=lambda f: f.place.day):
        out.append(dates.day(day, code, style=style))
        out += [
            f"  {slot_label(f, tz, code)}  {room_label(f, code, plain=True)}  "
            f"{outcome_label(f, tz, code, style)}"
            for f in found
        ]
    counts = Counter(f.outcome for f in answer.found)
    if not fitting:
        out.append(text(code, "free.none"))
    out.append(
        text(
            code,
            "free.summary",
            fits=len(fitting),
            taken=counts[Chance.TAKEN],
            not_open=counts[Chance.NOT_OPEN],
            looked=answer.looked,
        )
    )
    return out


def _days(value: str) -> frozenset[str]:
    kinds = frozenset(v.strip().lower() for v in value.split(",") if v.strip())
    if not kinds or not all(is_day_kind(kind) for kind in kinds):
        raise argparse.ArgumentTypeError(text(locale(), "term.bad_days", value=value))
    return kinds


def _rokuyo(value: str) -> frozenset[Rokuyo]:
    try:
        return frozenset(Rokuyo.parse(v) for v in value.split(",") if v.strip())
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
