"""What every command shares: options, the engine from settings, the venue, output."""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.exc import OperationalError

from bot.texts import lang
from bot.texts.refusals import describe
from cli import localservices
from cli.settings import Settings
from core.db import create_engine
from core.engine import HoldEngine
from core.errors import DatabaseUnavailable
from core.model import Venue
from core.results import Code, Refused
from core.serialize import hold_to_json
from jobs import queues
from jobs.broker import build_broker
from jobs.queues import DRAIN
from jobs.tuning import Tuning

LOCAL_DATABASE = "osae"  # the database `osae serve` makes on its own PostgreSQL


class CommandError(Exception):
    """A command that cannot run; said as one line (or one JSON object), never a traceback."""

    def __init__(self, code: str, message: str, exit_code: int = 3) -> None:
        super().__init__(message)
        self.code = code
        self.exit_code = exit_code


def common_options() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help="print exactly one JSON object")
    common.add_argument(
        "--now",
        type=parse_now,
        help="pretend it is this ISO-8601 instant (venue-local if no offset) to try scenarios",
    )
    common.add_argument("--venue", help="venue id (default: OSAE_VENUE, or the only venue)")
    return common


def parse_now(value: str) -> datetime:
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not an ISO-8601 date-time, e.g. 2027-03-01T09:00+09:00"
        ) from None


def now_of(args: argparse.Namespace, tz: tzinfo) -> datetime:
    given: datetime | None = args.now
    if given is None:
        return datetime.now(UTC)
    return given if given.tzinfo else given.replace(tzinfo=tz)


def database_url(settings: Settings) -> str:
    """DATABASE_URL, else the database of the `osae serve` that keeps its data in
    OSAE_DATA_DIR (./.data), which it says is running; else a CommandError saying how to
    start one."""
    if settings.database_url:
        return settings.database_url
    try:  # `osae serve` keeps its own PostgreSQL's port here
        port = int((settings.data_dir / "pgport").read_text())
    except (OSError, ValueError):
        raise CommandError(
            "no_database",
            f"DATABASE_URL is not set and no local osae has run in {settings.data_dir}: start "
            f"`{settings.command('serve')}` in another terminal (it keeps PostgreSQL and Redis "
            "there), or set DATABASE_URL=postgres://user@host/db",
        ) from None
    url = f"postgresql://postgres@127.0.0.1:{port}/{LOCAL_DATABASE}"
    if not localservices.postgres_answers(url, timeout=2):
        raise CommandError(
            "not_running",
            f"the local osae of {settings.data_dir.resolve()} is not running: start "
            f"`{settings.command('serve')}` in another terminal and try again (or set "
            "DATABASE_URL)",
        )
    return url


def engine_for(settings: Settings) -> HoldEngine:
    engine = HoldEngine(create_engine(database_url(settings), pool_size=2))
    try:
        engine.ping()
    except DatabaseUnavailable as err:
        message = f"cannot reach the database: {err.reason}"
        raise CommandError("database_unreachable", message) from None
    return engine


def unreachable(err: OperationalError) -> CommandError:
    reason = str(err.orig).strip().splitlines()[0] if err.orig else str(err)
    return CommandError("database_unreachable", f"cannot reach the database: {reason}")


def redis_url(settings: Settings) -> str | None:
    """REDIS_URL, else the Redis of the local `osae serve` when it answers."""
    if settings.redis_url:
        return settings.redis_url
    try:
        port = int((settings.data_dir / "redis" / localservices.REDIS_PORT_FILE).read_text())
    except (OSError, ValueError):
        return None
    return f"redis://127.0.0.1:{port}/0" if localservices.redis_answers("127.0.0.1", port) else None


def wake_drain(settings: Settings, chosen: str) -> bool:
    """Ask the worker to send ``chosen``'s notices now; False if no Redis is reachable (the
    clock's safety-net drain sends them within seconds anyway)."""
    url = redis_url(settings)
    if url is None:
        return False
    broker = build_broker(url, namespace=Tuning.from_env().namespace)
    try:
        return queues.try_enqueue(broker, DRAIN, chosen)
    finally:
        broker.client.close()


def venue_id(args: argparse.Namespace, engine: HoldEngine, settings: Settings) -> str:
    chosen: str | None = args.venue or settings.venue_id
    if chosen:
        return chosen
    try:
        known = engine.venue_ids()
    except sa.exc.ProgrammingError:
        raise CommandError(
            "no_schema", "the database has no osae tables; run `osae db upgrade`"
        ) from None
    if len(known) == 1:
        return known[0]
    if not known:
        raise CommandError("no_venue", "no venue is loaded; run `osae venue load FILE` first")
    raise CommandError(
        "which_venue", f"several venues are loaded ({', '.join(known)}); pass --venue ID"
    )


def open_venue(args: argparse.Namespace) -> tuple[HoldEngine, Venue]:
    """The engine and the venue a command acts on (``--venue``, OSAE_VENUE or the only one)."""
    settings = Settings.from_env()
    engine = engine_for(settings)
    chosen = venue_id(args, engine, settings)
    found = engine.venue(chosen)
    if found is None:
        refused = Refused(Code.UNKNOWN_VENUE, detail=chosen)
        utc = ZoneInfo("UTC")
        raise CommandError(refused.code.value, describe(refused, utc, locale()), exit_code=1)
    return engine, found


def locale() -> str:
    return lang(os.environ.get("OSAE_LANG") or os.environ.get("LANG"))


def emit(as_json: bool, payload: dict[str, Any], lines: list[str]) -> int:
    if as_json:
        print(json.dumps({"ok": True, **payload}, ensure_ascii=False, default=str))
    else:
        print("\n".join(lines))
    return 0


def emit_refusal(as_json: bool, refused: Refused, tz: ZoneInfo) -> int:
    message = describe(refused, tz, locale())
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
        print(
            json.dumps(
                {"ok": False, "code": refused.code.value, "message": message, **facts},
                ensure_ascii=False,
            )
        )
    else:
        print(message, file=sys.stderr)
    return 1


def emit_error(as_json: bool, code: str, message: str) -> None:
    if as_json:
        print(json.dumps({"ok": False, "code": code, "message": message}, ensure_ascii=False))
    else:
        print(f"osae: {message}", file=sys.stderr)
