"""`osae hold edit`: change a hold's rooms, times or people; `--dry-run` says whether it
would keep its place or be a swap, writing nothing; a swap that would cost a 1st its place
needs `--yes` (docs/rules.md, Changing a hold)."""

from __future__ import annotations

import argparse

from bot.edit_form import edit_line
from bot.texts import dates, text
from bot.texts.dates import DateStyle
from bot.texts.refusals import ordinal
from cli import arguments, booking_args, hold_lines, typed_names
from cli.bootstrap import wake_drain
from cli.context import emit, emit_refusal, locale, now_of, open_venue, say, settings_of
from cli.warnings_out import edit_warnings
from core.booking import booking_number
from core.engine import HoldEngine
from core.model import Hold, HoldEdit, Venue
from core.results import Code, EditAnswer, Refused
from core.serialize import hold_to_json


def register(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    edit = actions.add_parser(
        "edit",
        parents=[common],
        help=say("help.edit"),
    )
    edit.add_argument("id", type=int, help=say("help.hold.id"))
    edit.add_argument(
        "--item",
        metavar="ROOM",
        type=arguments.typed,
        help=say("help.edit.item"),
    )
    edit.add_argument("--room", type=arguments.typed, help=say("help.edit.room"))
    edit.add_argument("--date", type=arguments.iso_date, help=say("help.edit.date"))
    edit.add_argument("--start", type=arguments.clock, help=say("help.request.start"))
    edit.add_argument("--end", type=arguments.clock, help=say("help.request.end"))
    edit.add_argument("--customer", type=arguments.typed, help=say("help.edit.customer"))
    edit.add_argument("--note", type=arguments.lines, help=say("help.edit.note"))
    edit.add_argument("--salesperson", type=arguments.user, help=say("help.edit.salesperson"))
    booking_args.add_details(edit, edit=True)
    edit.add_argument("--actor", required=True, type=arguments.user, help=say("help.edit.actor"))
    edit.add_argument("--version", required=True, type=int, help=say("help.edit.version"))
    edit.add_argument(
        "--dry-run",
        action="store_true",
        help=say("help.edit.dry_run"),
    )
    edit.add_argument(
        "--yes",
        action="store_true",
        help=say("help.edit.yes"),
    )
    edit.set_defaults(handler=edit_hold)


def edit_hold(args: argparse.Namespace) -> int:
    engine, venue = open_venue(args)
    typed_names.resolve_args(args, venue)  # rooms and kinds by id or name
    change = HoldEdit(
        hold_id=args.id,
        version=args.version,
        actor=args.actor,
        item_room=args.item,
        room_id=args.room,
        local_date=args.date,
        start_min=args.start,
        end_min=args.end,
        customer=args.customer,
        note=args.note,
        salesperson=args.salesperson,
        may_lose_first=args.yes,
        **booking_args.changes_of(args),
    )
    if args.dry_run:
        return _dry_run(args, engine, venue, change)
    # No Slack surface posts a swap's new card: the jobs post it in the sales channel.
    result = engine.writes.edit(venue.id, change, now=now_of(args, venue.tz), announce=True)
    style = hold_lines.style_of(args, venue)
    if isinstance(result, Refused):
        exit_code = emit_refusal(args.json, result, venue.tz, style=style)
        # Not an error of the ledger: the person is asked to say yes (exit 2, like a usage).
        return 2 if result.code is Code.WOULD_LOSE_FIRST else exit_code
    hold = result.hold
    lines = _edited(result, venue, style) + hold_lines.notices_later(args, venue)
    wake_drain(settings_of(args), venue.id)  # its card and promotions' notices go out now
    warned, warning_lines = edit_warnings(hold, venue)  # guests over a room's capacity
    return emit(
        args.json,
        {
            "id": hold.id,
            "kept_place": result.kept_place,
            "rank": hold.rank,
            "expires_at": hold.expires_at.astimezone(venue.tz).isoformat()
            if hold.expires_at
            else None,
            "released": [h.id for h in result.released],
            "promoted": [h.id for h in result.promoted],
            "replaced": None if result.kept_place else result.before.id,
            "ahead": [h.id for h in result.ahead],
            "version": hold.version,
            "hold": hold_to_json(hold),
            "booking": booking_number(hold.enquiry_id),
            "warnings": warned,
        },
        lines + warning_lines,
    )


def _edited(result: EditAnswer, venue: Venue, style: DateStyle) -> list[str]:
    """What an edit did: kept its place or became a new hold, and whom it moved."""
    hold = result.hold
    rank_text = (
        ordinal(hold.rank, locale()) if hold.rank else text(locale(), f"status.{hold.status.value}")
    )
    line = hold_lines.line(hold, venue, style)
    said = (
        text(locale(), "edit.kept", rank_text=rank_text, hold=line)
        if result.kept_place
        else text(locale(), "edit.swapped", id=hold.id, rank_text=rank_text, hold=line)
    )
    lines = [said, *item_lines(hold, venue)]
    # a swap's old hold is replaced, never released: it is carried on by the new one
    lines += hold_lines.moved("replaced", result.released, venue, style)
    return lines + hold_lines.moved("promoted", result.promoted, venue, style)


def _dry_run(args: argparse.Namespace, engine: HoldEngine, venue: Venue, change: HoldEdit) -> int:
    """What the edit would do now: ``would`` keep or swap, its ``rank`` then, who would be
    ``promoted``; exit 0 (nothing written) or the refusal the edit would meet."""
    now = now_of(args, venue.tz)
    plan = engine.writes.edit_plan(venue.id, change, now=now)
    if isinstance(plan, Refused):
        return emit_refusal(args.json, plan, venue.tz, style=dates.style_for(venue, now))
    hold, loc = plan.hold, locale()
    warned, warning_lines = edit_warnings(hold, venue, change)  # guests over a room's capacity
    return emit(
        args.json,
        {
            "dry_run": True,
            "id": hold.id,
            "booking": booking_number(hold.enquiry_id),
            "kept_place": plan.kept_place,
            "would": plan.would,
            "rank": plan.rank,
            "expires_at": plan.expires_at.astimezone(venue.tz).isoformat()
            if plan.expires_at
            else None,
            "item_ranks": list(plan.item_ranks),
            "ahead": [h.id for h in plan.ahead],
            "promoted": list(plan.promoted),
            "would_lose_first": plan.loses_first,
            "version": hold.version,
            "warnings": warned,
        },
        [edit_line(plan, venue, loc, now), *warning_lines, text(loc, "edit.dry_run")],
    )


def item_lines(hold: Hold, venue: Venue, ranks: tuple[int | None, ...] = ()) -> list[str]:
    """Each room of a hold of several rooms, with its own place while the hold waits."""
    if not hold.is_package:
        return []
    lines = []
    for item, rank in zip(hold.items, ranks or tuple(i.rank for i in hold.items), strict=True):
        times = dates.time_range(item.start_at, item.end_at, venue.tz, locale())
        place = f" {ordinal(rank, locale())}" if rank else ""
        lines.append(f"  {item.room_name} {times}{place}")
    return lines
