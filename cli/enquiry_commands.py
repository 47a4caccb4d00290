"""`osae enquiry show ID`: one customer's case and its holds (candidate dates)."""

from __future__ import annotations

import argparse

from bot.texts.kinds import kind_name
from cli.context import emit, emit_refusal, locale, open_venue, say
from cli.hold_commands import ledger_line
from cli.hold_edit import item_lines
from core.booking import booking_id, booking_number
from core.results import Refused
from core.serialize import hold_summary


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    enquiry = commands.add_parser(
        "enquiry", help=say("help.enquiry"), description=say("help.enquiry")
    )
    actions = enquiry.add_subparsers(
        dest="enquiry_command", metavar=say("cli.action"), required=True
    )
    show = actions.add_parser("show", parents=[common], help=say("help.enquiry.show"))
    show.add_argument("id", type=_booking, help=say("help.enquiry.id"))
    show.set_defaults(handler=show_enquiry)


def show_enquiry(args: argparse.Namespace) -> int:
    engine, venue = open_venue(args)
    found = engine.reads.enquiry(venue.id, args.id)
    if isinstance(found, Refused):
        return emit_refusal(args.json, found, venue.tz)
    case = found.enquiry
    kind = venue.policy.kind(case.kind_id)
    head = say(
        "out.enquiry.head",
        booking=booking_number(case.id),
        customer=case.customer,
        kind=kind_name(case.kind_id, kind.name if kind else "", locale()),
        salesperson=f"<@{case.salesperson}>",  # its name (cli.plain)
    )
    lines = [head]
    for hold in found.holds:
        lines += [f"  {ledger_line(hold, venue)}", *(f"  {x}" for x in item_lines(hold, venue))]
    return emit(
        args.json,
        {
            "enquiry": {
                "id": case.id,
                "booking": booking_number(case.id),
                "customer": case.customer,
                "kind": case.kind.value,  # the class, as before kinds; the venue's: kind_id
                "kind_id": case.kind_id,
                "salesperson": case.salesperson,
                "creator": case.creator,
                "note": case.note,
                "created_at": case.created_at.isoformat(),
            },
            "holds": [hold_summary(h, venue.tz) for h in found.holds],
        },
        lines,
    )


def _booking(value: str) -> int:
    found = booking_id(value)
    if found is None:
        raise argparse.ArgumentTypeError(say("cli.bad.booking", value=repr(value)))
    return found
