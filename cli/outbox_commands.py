"""`osae outbox list|retry`: the notices waiting, sent or failed, and sending failed ones again."""

from __future__ import annotations

import argparse
from dataclasses import asdict
from datetime import UTC
from typing import Any

from bot.texts import CATALOGS
from cli import bootstrap
from cli.context import emit, now_of, say, settings_of, venue_id
from core.notices import CARD_RECIPIENT, QUEUED_RECIPIENT, Notice

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
    lines = [_notice_line(n) for n in found] or [say("out.outbox.none")]
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
    ids = ", ".join(f"#{n}" for n in requeued)
    lines = [say("out.outbox.requeued", ids=ids) if requeued else say("out.outbox.nothing")]
    if not_failed:
        lines.append(say("out.outbox.not_failed", ids=", ".join(f"#{n}" for n in not_failed)))
    if requeued and not woken:
        lines.append(say("out.outbox.later"))
    payload = {"venue": chosen, "requeued": requeued, "not_failed": not_failed, "woken": woken}
    return emit(args.json, payload, lines)


def _notice_json(notice: Notice) -> dict[str, Any]:
    data = asdict(notice)
    for key in ("available_at", "sent_at", "created_at"):
        data[key] = data[key].isoformat() if data[key] else None
    return data


def _notice_line(n: Notice) -> str:
    """One row: its kind, to whom (a person by name), its hold, tries and state, in words."""
    where = say("out.outbox.hold", id=n.hold_id) if n.hold_id else "-"
    if n.status == "failed":
        state = say("out.outbox.failed", error=n.last_error)
    else:
        state = say(f"out.outbox.{n.status}") if n.status in ("pending", "sent") else n.status
    kind = say(f"notice.kind.{n.kind}") if f"notice.kind.{n.kind}" in _KINDS else n.kind
    to = _RECIPIENTS.get(n.recipient)
    to = say(to) if to else (f"<@{n.recipient}>" if n.recipient[:1] in "UW" else n.recipient)
    return say(
        "out.outbox.line", id=n.id, kind=kind, to=to, hold=where, tries=n.attempts, state=state
    )


_KINDS = frozenset(k for k in CATALOGS["en"] if k.startswith("notice.kind."))
_RECIPIENTS = {CARD_RECIPIENT: "out.outbox.card", QUEUED_RECIPIENT: "out.outbox.firsts"}
