"""`osae hold ...` and `osae sweep`: the engine's operations from the terminal."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from bot.texts import dates, text
from bot.texts.refusals import describe_warning, in_way_list, ordinal
from cli import (
    arguments,
    booking_args,
    deposit_commands,
    hold_edit,
    hold_lines,
    typed_names,
    warnings_out,
)
from cli.bootstrap import wake_drain
from cli.context import (
    emit,
    emit_refusal,
    in_way_json,
    locale,
    now_of,
    open_venue,
    say,
    settings_of,
)
from cli.errors import CommandError
from cli.hold_edit import item_lines
from cli.ping_commands import refused_request
from core.engine import HoldEngine
from core.model import Hold, HoldRequest, ItemRequest, Venue
from core.results import Code, Refused, RequestAnswer
from core.rules.spans import end_minute
from core.serialize import details_to_json, hold_summary, hold_to_json
from jobs import sweeping

ACTIONS = ("confirm", "release", "extend", "nudge", "cancel")
LISTED = 500  # `hold list` without --all
MAX_REASON = 500  # as the cancel dialog's field allows


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    hold = commands.add_parser("hold", help=say("help.hold"))
    actions = hold.add_subparsers(dest="hold_command", metavar="ACTION", required=True)
    _register_request(actions, common)
    deposit_commands.register(actions, common)  # 入金確認 (docs/rules.md, Deposits)
    for name in ACTIONS:
        act = actions.add_parser(name, parents=[common], help=say(f"help.hold.{name}"))
        act.add_argument("id", type=int, help=say("help.hold.id"))
        act.add_argument("--actor", required=True, type=arguments.user, help=say("help.hold.actor"))
        if name == "cancel":
            act.add_argument(
                "--reason",
                default="",
                type=arguments.lines,
                help=say("help.hold.cancel_reason"),
            )
        if name == "release":
            act.add_argument(
                "--reason",
                metavar="CODE",
                type=arguments.typed,
                help=say("help.hold.release_reason"),
            )
            act.add_argument(
                "--reason-note", default="", type=arguments.lines, help=say("help.hold.reason_note")
            )
        act.set_defaults(handler=decide, action=name)
    listing = actions.add_parser("list", parents=[common], help=say("help.hold.list"))
    listing.add_argument("--date", type=arguments.iso_date, help=say("help.hold.list_date"))
    listing.add_argument(
        "--status", choices=list(hold_lines.STATUSES), help=say("help.hold.list_status")
    )
    listing.add_argument(
        "--salesperson", type=arguments.user, help=say("help.hold.list_salesperson")
    )
    listing.add_argument(
        "--all",
        action="store_true",
        help=say("help.hold.list_all", count=LISTED),
    )
    listing.set_defaults(handler=list_holds)
    hold_edit.register(actions, common)
    show = actions.add_parser("show", parents=[common], help=say("help.hold.show"))
    show.add_argument("id", type=int, help=say("help.hold.id"))
    show.set_defaults(handler=show_hold)
    sweep = commands.add_parser("sweep", parents=[common], help=say("help.sweep"))
    sweep.set_defaults(handler=run_sweep)


def _register_request(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    req = actions.add_parser("request", parents=[common], help=say("help.hold.request"))
    req.add_argument("--room", required=True, type=arguments.typed, help=say("help.request.room"))
    req.add_argument(
        "--date", required=True, type=arguments.iso_date, help=say("help.request.date")
    )
    req.add_argument("--start", required=True, type=arguments.clock, help=say("help.request.start"))
    req.add_argument("--end", required=True, type=arguments.clock, help=say("help.request.end"))
    req.add_argument(
        "--also",
        action="append",
        default=[],
        type=_item,
        metavar="ROOM,START,END",
        help=say("help.request.also"),
    )
    req.add_argument(
        "--enquiry",
        type=int,
        metavar="ENQUIRY_ID",
        help=say("help.request.enquiry"),
    )
    req.add_argument(
        "--kind",
        type=arguments.typed,
        help=say("help.request.kind"),
    )
    req.add_argument("--customer", type=arguments.typed, help=say("help.request.customer"))
    req.add_argument("--salesperson", type=arguments.user, help=say("help.request.salesperson"))
    req.add_argument(
        "--actor",
        "--creator",
        dest="creator",
        metavar="ACTOR",
        type=arguments.user,
        help=say("help.request.actor"),
    )
    req.add_argument("--note", default="", type=arguments.lines, help=say("help.request.note"))
    req.add_argument(
        "--guests", type=arguments.guests, metavar="N", help=say("help.request.guests")
    )
    req.add_argument("--house", action="store_true", help=say("help.request.house"))
    req.add_argument(
        "--contact",
        default="",
        type=arguments.typed,
        metavar="TEXT",
        help=say("help.request.contact"),
    )
    booking_args.add_details(req, edit=False)
    req.add_argument("--idempotency-key", help=say("help.request.idempotency"))
    req.set_defaults(handler=request)


def request(args: argparse.Namespace) -> int:
    if args.house:
        _house_defaults(args)
    missing = [f"--{n}" for n in ("kind", "customer", "salesperson") if not getattr(args, n)]
    if args.enquiry is None and missing:
        said = text(locale(), "term.request_needs", flags=", ".join(missing))
        raise CommandError("usage", said, exit_code=2)
    engine, venue = _open(args)
    typed_names.resolve_args(args, venue)  # rooms and kinds by id or name
    req = _request_of(args, engine, venue)
    # No Slack surface posts this hold's card: the jobs post it in the sales channel.
    result = engine.writes.request(
        venue.id,
        req,
        now=now_of(args, venue.tz),
        idempotency_key=args.idempotency_key,
        announce=True,
    )
    style = hold_lines.style_of(args, venue)
    if isinstance(result, Refused):
        return refused_request(args, result, venue)
    if not result.replayed:
        wake_drain(settings_of(args), venue.id)
    return _answered(args, result, venue, style)


def _request_of(args: argparse.Namespace, engine: HoldEngine, venue: Venue) -> HoldRequest:
    """The request the flags ask for (the creator: --creator, the salesperson, or the
    enquiry's salesperson)."""
    start = args.start
    return HoldRequest(
        room_id=args.room,
        local_date=args.date,
        start_min=start,
        end_min=end_minute(start, args.end),
        kind=args.kind or "",
        customer=args.customer or "",
        salesperson=args.salesperson or "",
        creator=args.creator or args.salesperson or _enquiry_salesperson(engine, venue, args),
        note=args.note,
        also=tuple(args.also),
        enquiry_id=args.enquiry,
        guests=args.guests,
        contact=args.contact,
        details=booking_args.details_of(args),
        house=args.house,
    )


def _house_defaults(args: argparse.Namespace) -> None:
    """A house hold is asked for by a manager (--actor), who holds it unless --salesperson
    says otherwise; its kind is banquet unless --kind says otherwise."""
    if not args.creator:
        raise CommandError("usage", text(locale(), "term.house_needs_actor"), 2)
    args.salesperson = args.salesperson or args.creator
    args.kind = args.kind or "banquet"


def _answered(
    args: argparse.Namespace, result: RequestAnswer, venue: Venue, style: dates.DateStyle
) -> int:
    """The answer to an accepted request: its place, deadline, what is in its way, warnings."""
    deadline, tz, loc = result.expires_at, venue.tz, locale()
    place = text(loc, "house.tag") if result.hold.house else ordinal(result.rank, loc)
    line = f"{place}: {hold_lines.line(result.hold, venue, style)}"
    if deadline:
        line += f" · {dates.deadline(deadline, tz, loc, style=style)}"
    if result.in_way:
        ahead = in_way_list(result.in_way, tz, loc, style=style)
        line += "\n  " + text(loc, "card.in_way", ahead=ahead)
    summary = hold_summary(result.hold, venue.tz, result.item_ranks)
    warnings = [describe_warning(w, tz, loc, style=style) for w in result.warnings]
    return emit(
        args.json,
        {
            "id": result.hold.id,
            "rank": result.rank,
            "expires_at": deadline.isoformat() if deadline else None,
            "replayed": result.replayed,
            "hold": hold_to_json(result.hold),
            "enquiry": result.hold.enquiry_id,
            "items": summary["items"],
            "warnings": [
                warnings_out.warning_json(w, message)  # over_capacity: its room, capacity
                for w, message in zip(result.warnings, warnings, strict=True)
            ],
            "in_way": [in_way_json(found, venue.tz) for found in result.in_way],
        },
        [
            line,
            *item_lines(result.hold, venue, result.item_ranks),
            *(f"! {m}" for m in warnings),
            *([] if result.replayed else hold_lines.notices_later(args, venue)),
        ],
    )


def _enquiry_salesperson(engine: HoldEngine, venue: Venue, args: argparse.Namespace) -> str:
    """Who asks when neither --creator nor --salesperson is given: the enquiry's salesperson
    (an unknown enquiry is the engine's to refuse)."""
    found = engine.reads.enquiry(venue.id, args.enquiry)
    return "" if isinstance(found, Refused) else found.enquiry.salesperson


def decide(args: argparse.Namespace) -> int:
    engine, venue = _open(args)
    operation: Callable[..., Any] = getattr(engine.writes, args.action)
    reason: dict[str, Any] = {}
    if args.action == "cancel":
        reason = {"reason": strict_reason(args.reason)}
    elif args.action == "release":
        code = typed_names.reason_code(venue, args.reason)  # a code, or the venue's name
        reason = {"reason": code, "note": strict_reason(args.reason_note)}
    result = operation(venue.id, args.id, actor=args.actor, now=now_of(args, venue.tz), **reason)
    if args.action == "nudge" and isinstance(result, Refused) and result.code is Code.NOT_FIRST:
        # the id of a waiting hold (as its button, and the console, name it): the 1st ahead
        result = engine.writes.nudge_ahead(
            venue.id, args.id, actor=args.actor, now=now_of(args, venue.tz)
        )
    style = hold_lines.style_of(args, venue)
    if isinstance(result, Refused):
        return emit_refusal(args.json, result, venue.tz, style=style)
    payload: dict[str, Any] = {"id": result.hold.id, "hold": hold_to_json(result.hold)}
    lines = hold_lines.decided(args.action, result.hold, venue, style)
    candidates = getattr(result, "candidates", ())
    for name in ("released", "promoted", "notified", "candidates"):
        moved = getattr(result, name, None)
        if moved is not None:
            payload[name] = [h.id for h in moved]
            but = candidates if name == "released" else ()
            lines += hold_lines.moved(name, moved, venue, style, but=but)
    lines += hold_lines.notices_later(args, venue)
    if args.action in ("extend", "nudge"):
        payload["expires_at"] = result.hold.expires_at.isoformat()
    if args.action == "nudge":
        payload["asker"] = result.asker.id
    wake_drain(settings_of(args), venue.id)  # its notices go out now, not at the next tick
    return emit(args.json, payload, lines)


def strict_reason(value: str) -> str:
    """A cancel's reason: one line or a few, at most 500 characters."""
    reason = value.strip()
    if len(reason) > MAX_REASON:
        said = text(locale(), "term.reason_long", length=len(reason), limit=MAX_REASON)
        raise CommandError("usage", said, exit_code=2)
    return reason


def list_holds(args: argparse.Namespace) -> int:
    """The whole team's holds by date, of the ``--status`` asked (a person reads the live
    ones, the JSON every one, unless it is given); ``truncated`` says the cap was reached."""
    engine, venue = _open(args)
    limit = None if args.all else LISTED
    asked = None if limit is None else limit + 1  # one more tells that there are more
    status = args.status or ("all" if args.json else "live")
    found = engine.reads.holds(
        venue.id,
        on=args.date,
        salesperson=args.salesperson,
        statuses=hold_lines.STATUSES[status],
        limit=asked,
    )
    truncated = limit is not None and len(found) > limit
    found = found[:limit]
    style = hold_lines.style_of(args, venue)
    lines = [ledger_line(h, venue, style) for h in found] or [text(locale(), "nobody")]
    if truncated:
        lines.append(text(locale(), "term.first_n", count=LISTED))
    payload = {"holds": [hold_to_json(h) for h in found], "truncated": truncated}
    return emit(args.json, payload, lines)


def show_hold(args: argparse.Namespace) -> int:
    engine, venue = _open(args)
    found = engine.reads.hold(venue.id, args.id)
    style = hold_lines.style_of(args, venue)
    if isinstance(found, Refused):
        return emit_refusal(args.json, found, venue.tz, style=style)
    trail = engine.reads.trail(venue.id, found.id)
    events = [
        {"at": e.at.isoformat(), "actor": e.actor, "action": e.action, "detail": dict(e.detail)}
        for e in trail
    ]
    lines = [ledger_line(found, venue, style), *hold_lines.carried(found)]
    lines += [*booking_args.detail_lines(found, venue, style), *item_lines(found, venue)]
    lines += [hold_lines.version(found), *hold_lines.trail(trail, venue, style)]
    summary = hold_summary(found, venue.tz)
    lines[1:1] = deposit_commands.deposit_lines(found, venue, now_of(args, venue.tz))  # 予約金
    payload = {
        **summary,
        "version": found.version,
        **carried(found),
        "hold": hold_to_json(found),
        "trail": events,
    }
    return emit(args.json, payload, lines)


def carried(hold: Hold) -> dict[str, Any]:
    """What the ledger row carried, at the top of ``hold show --json``: ``kind`` is the id
    ``--kind`` takes (``hold.kind`` stays the class the rules use)."""
    return {
        "kind": hold.kind_id,
        "kind_name": hold.kind_name,
        "kind_class": hold.kind.value,
        "guests": hold.guests,
        "contact": hold.contact,
        "note": hold.note,
        "outcome": hold.outcome.value if hold.outcome else None,
        **details_to_json(hold.details),
    }


def run_sweep(args: argparse.Namespace) -> int:
    engine, venue = _open(args)
    result = sweeping.sweep(engine.writes, venue.id, now=now_of(args, venue.tz))
    if isinstance(result, Refused):
        return emit_refusal(args.json, result, venue.tz, style=hold_lines.style_of(args, venue))
    if result.expired or result.promoted:
        wake_drain(settings_of(args), venue.id)
    expired, promoted = hold_lines.listed(result.expired), hold_lines.listed(result.promoted)
    said = [text(locale(), "term.sweep", expired=expired, promoted=promoted)]
    if result.expired or result.promoted:
        said += hold_lines.notices_later(args, venue)
    payload = {"expired": list(result.expired), "promoted": list(result.promoted)}
    return emit(args.json, payload, said)


def _open(args: argparse.Namespace) -> tuple[HoldEngine, Venue]:
    return open_venue(args)


ledger_line = hold_lines.ledger_line  # a hold in a listing (`enquiry show` lists them too)


def _item(value: str) -> ItemRequest:
    """``ROOM,START,END`` of --also: on the request's date, an end at or before its start
    running past midnight."""
    parts = value.rsplit(",", 2)
    if len(parts) != 3 or not parts[0].strip():
        raise argparse.ArgumentTypeError(text(locale(), "term.bad_item", value=value))
    start, end = arguments.clock(parts[1].strip()), arguments.clock(parts[2].strip())
    return ItemRequest(parts[0].strip(), start, end_minute(start, end))
