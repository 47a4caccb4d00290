"""How the terminal shows a hold: its line in a listing, each room of a package, and what
it carries (guests, contact, note)."""

from __future__ import annotations

from typing import Any

from bot.texts import dates, text
from bot.texts.kinds import status_text
from bot.texts.refusals import hold_line, ordinal
from cli.context import (
    locale,
)
from core.model import Hold, Venue


def ledger_line(hold: Hold, venue: Venue) -> str:
    where = hold_line(hold, venue.tz, locale())
    state = status_text(hold, locale())
    if hold.expires_at:
        deadline = dates.when(hold.expires_at, venue.tz, locale())
        state = text(locale(), "hold.first_until", deadline=deadline)
    elif hold.rank:
        state = ordinal(hold.rank, locale())
    return f"{where}  [{state}]  <{hold.salesperson}>"


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
    }


def carried_lines(hold: Hold) -> list[str]:
    """Guests, contact and note under a shown hold (the terminal is its operator's)."""
    said = [
        ("field.guests", text(locale(), "guests", count=hold.guests) if hold.guests else ""),
        ("field.contact", hold.contact),
        ("field.note", hold.note),
    ]
    return [f"  {text(locale(), key)}: {value}" for key, value in said if value]
