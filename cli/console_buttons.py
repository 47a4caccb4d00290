"""The command a button of a notice printed in the terminal stands for (osae without Slack).

The actor is whoever would press the button: a DM's recipient, or, on a hold's card (what
the sales channel shows), the hold's salesperson. The hold as it is when printed gives the
rest: its version for an edit, its enquiry, rooms and times for another date.
"""

from __future__ import annotations

import shlex
from datetime import datetime
from zoneinfo import ZoneInfo

from bot import ids
from bot.texts import DEFAULT_LOCALE, text
from cli.settings import Settings
from core.engine import HoldEngine
from core.model import Hold
from core.results import Refused
from jobs.console import Button


def command_for(settings: Settings, engine: HoldEngine, button: Button) -> str | None:
    """``osae hold confirm 2 --actor U0SALES001`` and the like; None for a button that is not
    a hold's (or whose hold is gone) nor a window ping's."""
    if button.action_id == ids.PING_HOLD and button.notice is not None:
        return ping_hold(settings, engine, button.notice.venue_id, button.value)
    return _hold_command(settings, engine, button)


def _hold_command(settings: Settings, engine: HoldEngine, button: Button) -> str | None:
    verb = ids.decision(button.action_id) or (
        "deposit" if button.action_id == ids.DEPOSIT else None
    )
    ours = verb is not None or button.action_id in (ids.EDIT, ids.ANOTHER_DATE)
    if not ours or not button.value.isdigit() or button.notice is None:
        return None
    if verb is not None and not button.card:  # a DM: its recipient presses
        return settings.command("hold", verb, button.value, "--actor", button.to)
    venue_id = button.notice.venue_id
    hold = engine.reads.hold(venue_id, int(button.value))
    venue = engine.venues.venue(venue_id)
    if isinstance(hold, Refused) or venue is None:
        return None
    actor = hold.salesperson if button.card else button.to
    if verb is not None:
        return settings.command("hold", verb, str(hold.id), "--actor", actor)
    if button.action_id == ids.EDIT:
        return edit(settings, hold, actor)
    return another_date(settings, hold, venue.tz)


def edit(settings: Settings, hold: Hold, actor: str) -> str:
    """The edit form as a command: the hold's version, and its (first room's) end time."""
    item = hold.items[0]
    which = ["--item", item.room_id] if hold.is_package else []
    words = ["hold", "edit", str(hold.id), "--actor", actor, "--version", str(hold.version)]
    # what an edit may change besides the end time it shows, in the terminal's language
    also = text(settings.language or DEFAULT_LOCALE, "console.edit_also")
    return " ".join([settings.command(*words, *which, "--end", "HH:MM"), also])


def another_date(settings: Settings, hold: Hold, tz: ZoneInfo) -> str:
    """The form for another date of the hold's enquiry: its rooms and times, the date left
    to choose (customer, kind and salesperson are the enquiry's; only a card has the button,
    and its salesperson presses it: the creator is the salesperson, the command's default)."""
    first, *more = hold.items
    words = ["hold", "request", "--enquiry", str(hold.enquiry_id), "--date", "YYYY-MM-DD"]
    words += ["--room", first.room_id, "--start", _clock(first.start_at, tz)]
    words += ["--end", _clock(first.end_at, tz)]
    for item in more:
        words += ["--also", f"{item.room_id},{_clock(item.start_at, tz)},{_clock(item.end_at, tz)}"]
    return settings.command(*words)


def _clock(moment: datetime, tz: ZoneInfo) -> str:
    return moment.astimezone(tz).strftime("%H:%M")


def ping_hold(settings: Settings, engine: HoldEngine, venue_id: str, value: str) -> str | None:
    """A window ping's 押さえる: the request it kept, as `osae hold request` takes it."""
    ping = engine.pings.one(venue_id, int(value)) if value.isdigit() else None
    if ping is None or isinstance(ping, Refused):
        return None
    req = ping.request
    words = ["hold", "request", "--room", req.room_id, "--date", req.local_date.isoformat()]
    words += ["--start", _minutes(req.start_min), "--end", _minutes(req.end_min)]
    for item in req.also:
        words += ["--also", f"{item.room_id},{_minutes(item.start_min)},{_minutes(item.end_min)}"]
    words += [
        "--kind",
        req.kind,
        "--customer",
        shlex.quote(req.customer),
        "--salesperson",
        req.salesperson,
    ]
    if req.guests:
        words += ["--guests", str(req.guests)]
    return settings.command(*words)


def _minutes(minute: int) -> str:
    return f"{minute % 1440 // 60:02d}:{minute % 60:02d}"
