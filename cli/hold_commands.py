"""`osae hold ...` and `osae sweep`: the engine's operations from the terminal."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from bot.texts import dates, text
from bot.texts.kinds import status_text
from bot.texts.refusals import describe_warning, hold_line, in_way_list, ordinal
from cli import arguments, booking_args, deposit_commands, hold_edit, typed_names, warnings_out
from cli.bootstrap import wake_drain
from cli.context import (
    emit,
    emit_refusal,
    in_way_json,
    locale,
    now_of,
    open_venue,
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
    hold = commands.add_parser("hold", help="request, decide and list holds")
    actions = hold.add_subparsers(dest="hold_command", metavar="ACTION", required=True)
    _register_request(actions, common)
    deposit_commands.register(actions, common)  # 入金確認 (docs/rules.md, Deposits)
    for name in ACTIONS:
        about = (
            "ask the 1st hold ID (or the 1st ahead of waiting hold ID) to answer (回答の催促)"
            if name == "nudge"
            else f"{name} a hold"
        )
        act = actions.add_parser(name, parents=[common], help=about)
        act.add_argument("id", type=int)
        act.add_argument(
            "--actor", required=True, type=arguments.user, help="Slack user id of who acts"
        )
        if name == "cancel":
            act.add_argument(
                "--reason",
                default="",
                type=arguments.lines,
                help="why (told to the hold's salesperson and its card)",
            )
        if name == "release":
            act.add_argument(
                "--reason",
                metavar="CODE",
                type=arguments.typed,
                help="why it leaves, by code or name: the venue's [[reasons]], by default "
                "other_venue, budget, changed_plans, called_off, no_answer, entry_error, other "
                "(unspecified when omitted)",
            )
            act.add_argument("--reason-note", default="", type=arguments.lines, help="a note")
        act.set_defaults(handler=decide, action=name)
    listing = actions.add_parser("list", parents=[common], help="the ledger (of a date)")
    listing.add_argument("--date", type=arguments.iso_date)
    listing.add_argument(
        "--salesperson", type=arguments.user, help="only this salesperson's holds (Slack user id)"
    )
    listing.add_argument(
        "--all",
        action="store_true",
        help=f"every hold that matches (without it, the first {LISTED} by date)",
    )
    listing.set_defaults(handler=list_holds)
    hold_edit.register(actions, common)
    show = actions.add_parser("show", parents=[common], help="one hold and its audit trail")
    show.add_argument("id", type=int)
    show.set_defaults(handler=show_hold)
    sweep = commands.add_parser("sweep", parents=[common], help="expire lapsed 1st holds now")
    sweep.set_defaults(handler=run_sweep)


def _register_request(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    req = actions.add_parser("request", parents=[common], help="ask for a hold")
    req.add_argument("--room", required=True, type=arguments.typed, help="its id or name")
    req.add_argument(
        "--date", required=True, type=arguments.iso_date, help="YYYY-MM-DD, venue-local"
    )
    req.add_argument("--start", required=True, type=arguments.clock, help="HH:MM")
    req.add_argument(
        "--end", required=True, type=arguments.clock, help="HH:MM (at/before start: next day)"
    )
    req.add_argument(
        "--also",
        action="append",
        default=[],
        type=_item,
        metavar="ROOM,START,END",
        help="one more room of the same hold on the same date (repeat for each)",
    )
    req.add_argument(
        "--enquiry",
        type=int,
        metavar="ENQUIRY_ID",
        help="another candidate date of this enquiry (kind, customer, salesperson: its own)",
    )
    req.add_argument(
        "--kind",
        type=arguments.typed,
        help="the venue's kind, by id or name: wedding (婚礼), banquet (一般宴会), or one of "
        "its [[kinds]] (e.g. nijikai); required without --enquiry",
    )
    req.add_argument("--customer", type=arguments.typed, help="required without --enquiry")
    req.add_argument(
        "--salesperson", type=arguments.user, help="Slack user id; required without --enquiry"
    )
    req.add_argument(
        "--creator",
        "--actor",
        dest="creator",
        type=arguments.user,
        help="Slack user id of who asks (default: the salesperson)",
    )
    req.add_argument(
        "--house",
        action="store_true",
        help="社内押さえ: the venue's own use (a fair, a shoot, works; its purpose in "
        "--customer): 1st or refused, no deadline, released by a manager; managers only: "
        "--actor, who is also the salesperson and the kind banquet unless given",
    )
    req.add_argument("--note", default="", type=arguments.lines, help="shown wherever the hold is")
    req.add_argument("--guests", type=arguments.guests, metavar="N", help="人数: how many guests")
    req.add_argument(
        "--contact",
        default="",
        type=arguments.typed,
        metavar="TEXT",
        help="the customer's contact: shown only to the salesperson and managers",
    )
    booking_args.add_details(req, edit=False)
    req.add_argument("--idempotency-key")
    req.set_defaults(handler=request)


def request(args: argparse.Namespace) -> int:
    if args.house:
        _house_defaults(args)
    missing = [f"--{n}" for n in ("kind", "customer", "salesperson") if not getattr(args, n)]
    if args.enquiry is None and missing:
        raise CommandError(
            "usage",
            f"osae hold request: {', '.join(missing)} needed for a new enquiry "
            "(or give --enquiry ID to add another candidate date to one)",
            exit_code=2,
        )
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
    if isinstance(result, Refused):
        return refused_request(args, result, venue)
    if not result.replayed:
        wake_drain(settings_of(args), venue.id)
    return _answered(args, result, venue)


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
        raise CommandError("usage", "osae hold request --house: --actor U… (a manager)", 2)
    args.salesperson = args.salesperson or args.creator
    args.kind = args.kind or "banquet"


def _answered(args: argparse.Namespace, result: RequestAnswer, venue: Venue) -> int:
    """The answer to an accepted request: its place, deadline, what is in its way, warnings."""
    deadline = result.expires_at
    place = text(locale(), "house.tag") if result.hold.house else ordinal(result.rank, locale())
    line = f"{place}: {hold_line(result.hold, venue.tz, locale())}"
    if deadline:
        line += f" · {dates.when(deadline, venue.tz, locale())}"
    if result.in_way:
        line += "\n  " + text(
            locale(), "card.in_way", ahead=in_way_list(result.in_way, venue.tz, locale())
        )
    summary = hold_summary(result.hold, venue.tz, result.item_ranks)
    warnings = [describe_warning(w, venue.tz, locale()) for w in result.warnings]
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
        [line, *item_lines(result.hold, venue, result.item_ranks), *(f"! {m}" for m in warnings)],
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
    if isinstance(result, Refused):
        return emit_refusal(args.json, result, venue.tz)
    payload: dict[str, Any] = {"id": result.hold.id, "hold": hold_to_json(result.hold)}
    lines = [f"{args.action}: {hold_line(result.hold, venue.tz, locale())}"]
    for name in ("released", "promoted", "notified", "candidates"):
        moved = getattr(result, name, None)
        if moved is not None:
            payload[name] = [h.id for h in moved]
            lines += [f"  {name}: {hold_line(h, venue.tz, locale())}" for h in moved]
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
        raise CommandError(
            "usage", f"--reason is {len(reason)} characters; keep it to {MAX_REASON}", exit_code=2
        )
    return reason


def list_holds(args: argparse.Namespace) -> int:
    """The whole team's holds (any status), by date; ``truncated`` says the cap was reached."""
    engine, venue = _open(args)
    limit = None if args.all else LISTED
    asked = None if limit is None else limit + 1  # one more tells that there are more
    found = engine.reads.holds(venue.id, on=args.date, salesperson=args.salesperson, limit=asked)
    truncated = limit is not None and len(found) > limit
    found = found[:limit]
    lines = [ledger_line(h, venue) for h in found] or [text(locale(), "nobody")]
    if truncated:
        lines.append(f"(first {LISTED}; --all lists every one)")
    payload = {"holds": [hold_to_json(h) for h in found], "truncated": truncated}
    return emit(args.json, payload, lines)


def show_hold(args: argparse.Namespace) -> int:
    engine, venue = _open(args)
    found = engine.reads.hold(venue.id, args.id)
    if isinstance(found, Refused):
        return emit_refusal(args.json, found, venue.tz)
    trail = engine.reads.trail(venue.id, found.id)
    events = [
        {"at": e.at.isoformat(), "actor": e.actor, "action": e.action, "detail": dict(e.detail)}
        for e in trail
    ]
    lines = [ledger_line(found, venue), *item_lines(found, venue)] + [
        f"  {dates.when(e.at, venue.tz, locale())}  {e.action:<10} {e.actor}" for e in trail
    ]
    summary = hold_summary(found, venue.tz)
    lines[1:1] = carried_lines(found) + booking_args.detail_lines(found, venue)
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


def carried_lines(hold: Hold) -> list[str]:
    """Guests, contact and note under a shown hold (the terminal is its operator's)."""
    said = [
        ("field.guests", text(locale(), "guests", count=hold.guests) if hold.guests else ""),
        ("field.contact", hold.contact),
        ("field.note", hold.note),
    ]
    return [f"  {text(locale(), key)}: {value}" for key, value in said if value]


def run_sweep(args: argparse.Namespace) -> int:
    engine, venue = _open(args)
    result = sweeping.sweep(engine.writes, venue.id, now=now_of(args, venue.tz))
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


def ledger_line(hold: Hold, venue: Venue) -> str:
    where = hold_line(hold, venue.tz, locale())
    state = status_text(hold, locale())
    if hold.house:  # 社内押さえ: held with no deadline, or what became of it
        state = text(locale(), "house.tag") + ("" if hold.rank else f"・{state}")
    elif hold.expires_at:
        deadline = dates.when(hold.expires_at, venue.tz, locale())
        state = text(locale(), "hold.first_until", deadline=deadline)
    elif hold.rank:
        state = ordinal(hold.rank, locale())
    return f"{where}  [{state}]  <{hold.salesperson}>"


def _item(value: str) -> ItemRequest:
    """``ROOM,START,END`` of --also: on the request's date, an end at or before its start
    running past midnight."""
    parts = value.rsplit(",", 2)
    if len(parts) != 3 or not parts[0].strip():
        raise argparse.ArgumentTypeError(f"{value!r} is not ROOM,START,END like chapel,11:00,12:00")
    start, end = arguments.clock(parts[1].strip()), arguments.clock(parts[2].strip())
    return ItemRequest(parts[0].strip(), start, end_minute(start, end))
