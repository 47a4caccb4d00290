"""`osae outbox list|retry`: the notices waiting, sent or failed, and sending failed ones again."""

from __future__ import annotations

import argparse
from dataclasses import asdict
from datetime import UTC
from typing import Any

from cli import bootstrap
from cli.context import emit, now_of, say, settings_of, venue_id
from core.notices import Notice

STATUSES = ("pending", "sent", "failed")


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    outbox = commands.add_parser("outbox", help=say("help.outbox"), description=say("help.outbox"))
    actions = outbox.add_subparsers(dest="outbox_command", metavar=say("cli.action"), required=True)
    listing = actions.add_parser("list", parents=[common], help=say("help.outbox.list"))
    listing.add_argument("--status", choices=STATUSES, help=say("help.outbox.status"))
    listing.set_defaults(handler=list_outbox)
    retry = actions.add_parser("retry", parents=[common], help=say("help.outbox.retry"))
    retry.add_argument("ids", nargs="*", type=int, metavar="ID", help=say("help.outbox.ids"))
    retry.set_defaults(handler=retry_outbox)


def list_outbox(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    engine = bootstrap.engine_for(settings)
    chosen = venue_id(args, engine, settings)
    found = engine.delivery.notices(chosen, status=args.status)
    lines = [_notice_line(n) for n in found] or ["no notices"]
    return emit(args.json, {"venue": chosen, "notices": [_notice_json(n) for n in found]}, lines)


def retry_outbox(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    engine = bootstrap.engine_for(settings)
    chosen = venue_id(args, engine, settings)
    venue = engine.venues.venue(chosen)
    requeued = engine.delivery.requeue_failed(
        chosen, now=now_of(args, venue.tz if venue else UTC), ids=args.ids or None
    )
    not_failed = sorted(set(args.ids) - set(requeued))
    woken = bool(requeued) and bootstrap.wake_drain(settings, chosen)
    lines = [f"requeued {requeued or 'nothing'}"]
    if not_failed:
        lines.append(f"not failed (left as they are): {not_failed}")
    if requeued and not woken:
        lines.append("the next safety-net drain will send them (Redis not reachable from here)")
    payload = {"venue": chosen, "requeued": requeued, "not_failed": not_failed, "woken": woken}
    return emit(args.json, payload, lines)


def _notice_json(notice: Notice) -> dict[str, Any]:
    data = asdict(notice)
    for key in ("available_at", "sent_at", "created_at"):
        data[key] = data[key].isoformat() if data[key] else None
    return data


def _notice_line(n: Notice) -> str:
    where = f"hold {n.hold_id}" if n.hold_id else "-"
    state = n.status if n.status != "failed" else f"failed: {n.last_error}"
    return f"#{n.id:<6} {n.kind:<9} to {n.recipient:<12} {where:<10} tries {n.attempts}  {state}"
