"""`osae hold ...` and `osae sweep`: the engine's operations from the terminal."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from datetime import date
from typing import Any

from bot import strict
from bot.texts import dates, text
from bot.texts.refusals import hold_line, ordinal
from cli.bootstrap import wake_drain
from cli.context import emit, emit_refusal, locale, now_of, open_venue, settings_of
from core.engine import HoldEngine
from core.model import Hold, HoldRequest, Venue
from core.results import Refused
from core.rules.spans import end_minute
from core.serialize import hold_to_json

ACTIONS = ("confirm", "release", "extend", "cancel")


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    hold = commands.add_parser("hold", help="request, decide and list holds")
    actions = hold.add_subparsers(dest="hold_command", metavar="ACTION", required=True)
    req = actions.add_parser("request", parents=[common], help="ask for a hold")
    req.add_argument("--room", required=True)
    req.add_argument("--date", required=True, type=_date, help="YYYY-MM-DD, venue-local")
    req.add_argument("--start", required=True, type=_clock, help="HH:MM")
    req.add_argument("--end", required=True, type=_clock, help="HH:MM (at/before start: next day)")
    req.add_argument("--kind", required=True, choices=["wedding", "banquet"])
    req.add_argument("--customer", required=True)
    req.add_argument("--salesperson", required=True, help="Slack user id")
    req.add_argument("--creator", help="Slack user id of who asks (default: the salesperson)")
    req.add_argument("--note", default="")
    req.add_argument("--idempotency-key")
    req.set_defaults(handler=request)
    for name in ACTIONS:
        act = actions.add_parser(name, parents=[common], help=f"{name} a hold")
        act.add_argument("id", type=int)
        act.add_argument("--actor", required=True, help="Slack user id of who acts")
        act.set_defaults(handler=decide, action=name)
    listing = actions.add_parser("list", parents=[common], help="the ledger (of a date)")
    listing.add_argument("--date", type=_date)
    listing.set_defaults(handler=list_holds)
    show = actions.add_parser("show", parents=[common], help="one hold and its audit trail")
    show.add_argument("id", type=int)
    show.set_defaults(handler=show_hold)
    sweep = commands.add_parser("sweep", parents=[common], help="expire lapsed 1st holds now")
    sweep.set_defaults(handler=run_sweep)


def request(args: argparse.Namespace) -> int:
    engine, venue = _open(args)
    start = args.start
    req = HoldRequest(
        room_id=args.room,
        local_date=args.date,
        start_min=start,
        end_min=end_minute(start, args.end),
        kind=args.kind,
        customer=args.customer,
        salesperson=args.salesperson,
        creator=args.creator or args.salesperson,
        note=args.note,
    )
    result = engine.request(
        venue.id, req, now=now_of(args, venue.tz), idempotency_key=args.idempotency_key
    )
    if isinstance(result, Refused):
        return emit_refusal(args.json, result, venue.tz)
    deadline = result.expires_at
    line = f"{ordinal(result.rank, locale())}: {hold_line(result.hold, venue.tz, locale())}"
    if deadline:
        line += f" · {dates.when(deadline, venue.tz, locale())}"
    return emit(
        args.json,
        {
            "id": result.hold.id,
            "rank": result.rank,
            "expires_at": deadline.isoformat() if deadline else None,
            "replayed": result.replayed,
            "hold": hold_to_json(result.hold),
        },
        [line],
    )


def decide(args: argparse.Namespace) -> int:
    engine, venue = _open(args)
    operation: Callable[..., Any] = getattr(engine, args.action)
    result = operation(venue.id, args.id, actor=args.actor, now=now_of(args, venue.tz))
    if isinstance(result, Refused):
        return emit_refusal(args.json, result, venue.tz)
    payload: dict[str, Any] = {"id": result.hold.id, "hold": hold_to_json(result.hold)}
    lines = [f"{args.action}: {hold_line(result.hold, venue.tz, locale())}"]
    for name in ("released", "promoted", "notified"):
        moved = getattr(result, name, None)
        if moved is not None:
            payload[name] = [h.id for h in moved]
            lines += [f"  {name}: {hold_line(h, venue.tz, locale())}" for h in moved]
    if args.action == "extend":
        payload["expires_at"] = result.hold.expires_at.isoformat()
    wake_drain(settings_of(args), venue.id)  # its notices go out now, not at the next tick
    return emit(args.json, payload, lines)


def list_holds(args: argparse.Namespace) -> int:
    engine, venue = _open(args)
    found = engine.holds(venue.id, on=args.date)
    lines = [_ledger_line(h, venue) for h in found] or [text(locale(), "nobody")]
    return emit(args.json, {"holds": [hold_to_json(h) for h in found]}, lines)


def show_hold(args: argparse.Namespace) -> int:
    engine, venue = _open(args)
    found = engine.hold(venue.id, args.id)
    if isinstance(found, Refused):
        return emit_refusal(args.json, found, venue.tz)
    trail = engine.trail(venue.id, found.id)
    events = [
        {"at": e.at.isoformat(), "actor": e.actor, "action": e.action, "detail": dict(e.detail)}
        for e in trail
    ]
    lines = [_ledger_line(found, venue)] + [
        f"  {dates.when(e.at, venue.tz, locale())}  {e.action:<10} {e.actor}" for e in trail
    ]
    return emit(args.json, {"hold": hold_to_json(found), "trail": events}, lines)


def run_sweep(args: argparse.Namespace) -> int:
    engine, venue = _open(args)
    result = engine.sweep(venue.id, now=now_of(args, venue.tz))
    if isinstance(result, Refused):
        return emit_refusal(args.json, result, venue.tz)
    if result.expired or result.promoted:
        wake_drain(settings_of(args), venue.id)
    return emit(
        args.json,
        {"expired": list(result.expired), "promoted": list(result.promoted)},
        [f"expired {list(result.expired)}, promoted {list(result.promoted)}"],
    )


def _open(args: argparse.Namespace) -> tuple[HoldEngine, Venue]:
    return open_venue(args)


def _ledger_line(hold: Hold, venue: Venue) -> str:
    where = hold_line(hold, venue.tz, locale())
    state = text(locale(), f"status.{hold.status.value}")
    if hold.expires_at:
        deadline = dates.when(hold.expires_at, venue.tz, locale())
        state = text(locale(), "hold.first_until", deadline=deadline)
    elif hold.rank:
        state = ordinal(hold.rank, locale())
    return f"{where}  [{state}]  <{hold.salesperson}>"


def _date(value: str) -> date:
    parsed = strict.iso_date(value)
    if parsed is None:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date like 2027-03-10")
    return parsed


def _clock(value: str) -> int:
    minutes = strict.clock(value)
    if minutes is None:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a time written HH:MM, like 09:00 or 23:30"
        )
    return minutes
