"""What every command shares: options, the settings and engine it runs on, the venue, output."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from bot.texts import lang, text
from bot.texts.dates import DateStyle
from bot.texts.finding import alternative_line
from bot.texts.refusals import describe
from cli import bootstrap
from cli.errors import CommandError
from cli.plain import unmark
from cli.settings import Settings
from core.engine import HoldEngine
from core.errors import NoSchema
from core.model import Venue
from core.results import Code, Found, InWay, Refused
from core.serialize import hold_to_json


def common_options() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help=say("cli.opt.json"))
    common.add_argument("--now", type=parse_now, help=say("cli.opt.now"))
    common.add_argument("--venue", help=say("cli.opt.venue"))
    return common


def parse_now(value: str) -> datetime:
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(say("cli.bad.now", value=repr(value))) from None


def now_of(args: argparse.Namespace, tz: tzinfo) -> datetime:
    given: datetime | None = args.now
    if given is None:
        return datetime.now(UTC)
    return given if given.tzinfo else given.replace(tzinfo=tz)


def settings_of(args: argparse.Namespace) -> Settings:
    """The settings ``cli.main`` read for this command."""
    settings: Settings = args.settings
    return settings


def venue_id(args: argparse.Namespace, engine: HoldEngine, settings: Settings) -> str:
    chosen: str | None = args.venue or settings.venue_id
    if chosen:
        return chosen
    try:
        known = engine.venues.venue_ids()
    except NoSchema:
        command = settings.command("db", "upgrade")
        raise CommandError("no_schema", say("out.no_schema", command=command)) from None
    if len(known) == 1:
        return known[0]
    if not known:
        command = settings.command("venue", "load", "FILE")
        raise CommandError("no_venue", say("out.no_venue", command=command))
    raise CommandError("which_venue", say("out.which_venue", known=", ".join(known)))


def open_venue(args: argparse.Namespace) -> tuple[HoldEngine, Venue]:
    """The engine and the venue a command acts on (``--venue``, OSAE_VENUE or the only one)."""
    settings = settings_of(args)
    engine = bootstrap.engine_for(settings)
    chosen = venue_id(args, engine, settings)
    found = engine.venues.venue(chosen)
    if found is None:
        refused = Refused(Code.UNKNOWN_VENUE, detail=chosen)
        utc = ZoneInfo("UTC")
        raise CommandError(refused.code.value, describe(refused, utc, locale()), exit_code=1)
    _names.clear()
    _names.update(engine.reads.names(found.id))  # who a line names, by name
    return engine, found


# People's names for the lines this command prints (``cli.plain``), read with its venue.
_names: dict[str, str] = {}


def plain(line: str) -> str:
    """A line as the terminal prints it: no Slack markup, people by name (``cli.plain``)."""
    return unmark(line, _names)


# The terminal's language (OSAE_LANG, else LANG), from the settings ``cli.main`` read: set
# before the arguments are parsed, as argparse's messages are worded while it parses.
_language: list[str | None] = [None]


def use_language(language: str | None) -> None:
    _language[0] = language


def locale() -> str:
    """The terminal's language: ``ja`` or ``en``."""
    return lang(_language[0])


def say(key: str, **facts: Any) -> str:
    """Our own words in the terminal (a ``help=``, a ``description=``, a line a command prints)
    in the reader's language, from the texts the bot uses (``bot.texts.text``). A ``help=`` is
    read by argparse with %-formatting: write a literal percent sign as ``%%`` there."""
    return text(locale(), key, **facts)


def emit(as_json: bool, payload: dict[str, Any], lines: list[str]) -> int:
    if as_json:
        print(json.dumps({"ok": True, **payload}, ensure_ascii=False, default=str))
    else:
        print("\n".join(unmark(line, _names) for line in lines))
    return 0


def terminal_style(tz: ZoneInfo) -> DateStyle:
    """Dates a person reads in the terminal: with their 六曜 (as before) and their year when it
    is not this one, venue-local (issue 30: as cards write them)."""
    return DateStyle(today=datetime.now(tz).date(), rokuyo=True)


def emit_refusal(
    as_json: bool, refused: Refused, tz: ZoneInfo, *, style: DateStyle | None = None
) -> int:
    """A refusal for a person (stderr) or a program (``--json``); ``style`` (the venue's
    today and 六曜, ``dates.style_for``) writes its dates as its cards do."""
    style = style or terminal_style(tz)
    message = unmark(describe(refused, tz, locale(), style=style), _names)
    if as_json:
        facts: dict[str, Any] = {"field": refused.field}
        if refused.rank is not None:
            facts["rank"] = refused.rank
        if refused.opens_at is not None:
            facts["opens_at"] = refused.opens_at.isoformat()
        if refused.holders:
            facts["holders"] = [h.id for h in refused.holders]
        if refused.hold is not None:
            facts["hold"] = hold_to_json(refused.hold)
        if refused.room is not None:
            facts["room"] = refused.room
        if refused.code in (Code.CONFIRMED_CONFLICT, Code.RANK_TOO_LOW):
            facts["alternatives"] = [alternative_to_json(f, tz) for f in refused.alternatives]
        if refused.in_way:
            facts["in_way"] = [in_way_json(found, tz) for found in refused.in_way]
        if refused.kinds:
            facts["kinds"] = [k.id for k in refused.kinds]
        print(
            json.dumps(
                {"ok": False, "code": refused.code.value, "message": message, **facts},
                ensure_ascii=False,
            )
        )
    else:
        shown = style or terminal_style(tz)
        print(unmark(describe(refused, tz, locale(), style=shown), _names), file=sys.stderr)
        if refused.alternatives:
            print(text(locale(), "alternatives.header"), file=sys.stderr)
        for found in refused.alternatives:
            said = unmark(alternative_line(found, tz, locale(), style), _names)
            print(f"  {said}", file=sys.stderr)
    return 1


def alternative_to_json(found: Found, tz: ZoneInfo) -> dict[str, Any]:
    """One request that would be accepted instead: its room, date, times and rank."""
    return {
        "room": found.place.room.id,
        "date": found.place.day.isoformat(),
        "start": found.start.astimezone(tz).isoformat(),
        "end": found.end.astimezone(tz).isoformat(),
        "rank": found.rank,
        "room_name": found.place.room.name,
    }


def in_way_json(found: InWay, tz: ZoneInfo) -> dict[str, Any]:
    """A hold in the way, as a refusal or an answer names it (times venue-local)."""
    hold = found.hold
    return {
        "id": hold.id,
        "status": hold.status.value,
        "rank": hold.rank,
        "salesperson": hold.salesperson,
        "customer": hold.customer,
        "kind": hold.kind_id,
        "expires_at": hold.expires_at.astimezone(tz).isoformat() if hold.expires_at else None,
        "turnover_only": found.turnover_min is not None,
        "turnover_min": found.turnover_min,
    }


def emit_error(as_json: bool, code: str, message: str) -> None:
    if as_json:
        print(json.dumps({"ok": False, "code": code, "message": message}, ensure_ascii=False))
    else:
        print(f"osae: {message}", file=sys.stderr)
