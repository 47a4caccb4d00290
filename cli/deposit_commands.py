"""`osae hold deposit ID --actor U… [--amount YEN]`: 入金確認, the booking's deposit paid
(docs/rules.md, Deposits)."""

from __future__ import annotations

import argparse
from datetime import datetime

from bot.deposits import deposit_state, paid_text
from bot.texts import text
from bot.texts.refusals import hold_line
from cli import arguments
from cli.bootstrap import wake_drain
from cli.context import emit, emit_refusal, locale, now_of, open_venue, say, settings_of
from core.deposits import MAX_AMOUNT
from core.model import Hold, Venue
from core.results import Refused
from core.serialize import deposit_to_json, hold_to_json


def register(actions: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    paid = actions.add_parser("deposit", parents=[common], help=say("cli.help.deposit"))
    paid.add_argument("id", type=int)
    paid.add_argument(
        "--actor", required=True, type=arguments.user, help=say("cli.help.deposit.actor")
    )
    paid.add_argument(
        "--amount", type=amount, metavar=say("cli.yen"), help=say("cli.help.deposit.amount")
    )
    paid.set_defaults(handler=record_deposit)


def amount(value: str) -> int:
    """Whole yen: ``100000``, ``100,000`` or ``¥100,000``; 1 to 100,000,000."""
    digits = value.strip().lstrip("¥￥").replace(",", "")
    if not digits.isascii() or not digits.isdigit() or not 1 <= int(digits) <= MAX_AMOUNT:
        raise argparse.ArgumentTypeError(text(locale(), "cli.bad_deposit_amount", value=value))
    return int(digits)


def deposit_lines(hold: Hold, venue: Venue, now: datetime) -> list[str]:
    """Under `hold show`: 予約金 入金待ち（期日 3/15）, or 入金済 and when and by whom."""
    state = deposit_state(hold, venue.tz, locale(), now=now)
    if not state:
        return []
    paid = paid_text(hold, venue.tz, locale())
    return [f"  {say('ledger.deposit')}: {state}" + (f" ({paid})" if paid else "")]


def record_deposit(args: argparse.Namespace) -> int:
    engine, venue = open_venue(args)
    now = now_of(args, venue.tz)
    result = engine.writes.record_deposit(
        venue.id, args.id, actor=args.actor, now=now, amount=args.amount
    )
    if isinstance(result, Refused):
        return emit_refusal(args.json, result, venue.tz)
    hold = result.hold
    payload = {"id": hold.id, **deposit_to_json(hold.deposit), "hold": hold_to_json(hold)}
    said = deposit_state(hold, venue.tz, locale(), now=now)
    wake_drain(settings_of(args), venue.id)  # its card is redrawn now, not at the next tick
    return emit(args.json, payload, [f"deposit: {hold_line(hold, venue.tz, locale())}  {said}"])
