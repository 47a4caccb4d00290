"""The flags of what a booking carries besides its rooms and times (docs/rules.md, The
booking record): estimate, plan, source, next action, on `hold request` and `hold edit`
(where guests, contact and kind may change too), and their lines under `hold show`."""

from __future__ import annotations

import argparse
from typing import Any

from bot.texts import dates, text
from bot.texts.dates import PLAIN, DateStyle
from cli import arguments
from cli.context import locale, say
from core.model import Details, Hold, Venue


def estimate(value: str) -> int:
    """Whole yen: ``350000``, ``350,000`` or ``¥350,000``."""
    digits = value.strip().lstrip("¥￥").replace(",", "")
    if not digits.isascii() or not digits.isdigit() or len(digits) > 10:
        raise argparse.ArgumentTypeError(text(locale(), "cli.bad_estimate", value=value))
    return int(digits)


def add_details(parser: argparse.ArgumentParser, *, edit: bool) -> None:
    """The detail flags; an edit's also change guests, contact and kind (omitted: kept)."""
    parser.add_argument(
        "--estimate", type=estimate, metavar="YEN", help=say("help.detail.estimate")
    )
    parser.add_argument(
        "--plan", type=arguments.typed, metavar="TEXT", help=say("help.detail.plan")
    )
    parser.add_argument(
        "--source",
        type=arguments.typed,
        metavar="CODE",
        help=say("help.detail.source"),
    )
    parser.add_argument(
        "--next-action",
        type=arguments.iso_date,
        metavar="YYYY-MM-DD",
        help=say("help.detail.next_action"),
    )
    parser.add_argument(
        "--next-action-note",
        type=arguments.typed,
        metavar="TEXT",
        help=say("help.detail.next_action_note"),
    )
    if edit:
        parser.add_argument(
            "--guests", type=arguments.guests, metavar="N", help=say("help.request.guests")
        )
        parser.add_argument(
            "--contact", type=arguments.typed, metavar="TEXT", help=say("help.request.contact")
        )
        parser.add_argument("--kind", type=arguments.typed, help=say("help.detail.kind"))


def details_of(args: argparse.Namespace) -> Details:
    """A request's details from its flags."""
    return Details(
        estimate=args.estimate,
        plan=args.plan or "",
        source=args.source or "",
        next_action=args.next_action,
        next_action_note=args.next_action_note or "",
    )


def changes_of(args: argparse.Namespace) -> dict[str, Any]:
    """An edit's changes from its flags (``HoldEdit``'s fields; an omitted flag keeps)."""
    return {
        "kind": args.kind,
        "guests": args.guests,
        "contact": args.contact,
        "estimate": args.estimate,
        "plan": args.plan,
        "source": args.source,
        "next_action": args.next_action,
        "next_action_note": args.next_action_note,
    }


def detail_lines(hold: Hold, venue: Venue, style: DateStyle = PLAIN) -> list[str]:
    """Estimate, plan, source and next action under a shown hold."""
    d = hold.details
    action = dates.day(d.next_action, locale(), style=style) if d.next_action else ""
    if action and d.next_action_note:
        action += f" {d.next_action_note}"
    said = [
        ("field.estimate", f"¥{d.estimate:,}" if d.estimate is not None else ""),
        ("field.plan", d.plan),
        ("field.source", venue.policy.source_name(d.source) if d.source else ""),
        ("field.next_action", action),
    ]
    return [f"  {text(locale(), key)}: {value}" for key, value in said if value]
