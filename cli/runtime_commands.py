"""`osae web|worker|clock|serve` (the processes) and `osae outbox list|retry`."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import asdict
from datetime import UTC
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from cli import localservices, logs, migrate, tour
from cli.context import CommandError, database_url, emit, engine_for, now_of, venue_id, wake_drain
from cli.settings import Settings
from core.notices import Notice
from jobs import local_stack, processes
from jobs.local_stack import Stack
from jobs.processes import Parts, Stopping
from jobs.runtime import Runtime
from jobs.tuning import Tuning, TuningError

NO_SLACK = 2  # exit status when Slack credentials are missing: nothing was started
ALL_INTERFACES = "0.0.0.0"  # noqa: S104 - a web dyno must listen on every interface
STATUSES = ("pending", "sent", "failed")


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    for name, handler, text in (
        ("web", run_web, "the Slack app: HTTP on $PORT, or Socket Mode if SLACK_APP_TOKEN"),
        ("worker", run_worker, "the Dramatiq worker: sweeps, outbox delivery, digests"),
        ("clock", run_clock, "the scheduler: enqueues each venue's periodic jobs"),
        ("serve", run_serve, "web + worker + clock on one machine (own PostgreSQL/Redis)"),
    ):
        part = commands.add_parser(name, help=text, description=text)
        if name in ("web", "serve"):
            part.add_argument("--host", default=ALL_INTERFACES)
            part.add_argument("--threads", type=int, default=8, help="web server threads")
        part.set_defaults(handler=handler)
    outbox = commands.add_parser("outbox", help="notices waiting, sent or failed")
    actions = outbox.add_subparsers(dest="outbox_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", parents=[common], help="the latest notices")
    listing.add_argument("--status", choices=STATUSES)
    listing.set_defaults(handler=list_outbox)
    retry = actions.add_parser("retry", parents=[common], help="send failed notices again")
    retry.add_argument("ids", nargs="*", type=int, metavar="ID", help="default: every failed one")
    retry.set_defaults(handler=retry_outbox)


# -- processes -----------------------------------------------------------------------------
def run_web(args: argparse.Namespace) -> int:
    settings, tuning, _ = _configured()
    if missing := missing_slack(settings, sending_only=False):
        return _explain_slack(settings, missing, "osae web")
    runtime = _runtime(settings, tuning, pool_size=args.threads + 2)
    try:
        processes.serve_web(
            runtime,
            host=args.host,
            port=settings.port,
            threads=args.threads,
            ready=lambda: _say(_listening(settings, args.host)),
        )
    finally:
        runtime.close()
    return 0


def run_worker(args: argparse.Namespace) -> int:
    settings, tuning, _ = _configured()
    if missing := missing_slack(settings, sending_only=True):
        return _explain_slack(settings, missing, "osae worker")
    return _run_parts(_runtime(settings, tuning), [processes.start_worker])


def run_clock(args: argparse.Namespace) -> int:
    settings, tuning, _ = _configured()
    return _run_parts(_runtime(settings, tuning, pool_size=2), [processes.start_clock])


def run_serve(args: argparse.Namespace) -> int:
    """Everything on one machine until Ctrl-C; without any Slack variable, notices go to the
    terminal (console mode). Every server it started is stopped before it returns."""
    settings, tuning, stopping = _configured(console_quiet=True)
    console = not settings.slack_configured
    if not console and (missing := missing_slack(settings, sending_only=False)):
        return _explain_slack(settings, missing, settings.command("serve"))
    if not localservices.port_free(settings.port, args.host):
        raise _port_taken(settings)
    stack = Stack.for_settings(settings)
    stopping.on_force(stack.kill)
    parts = Parts()
    try:
        stack.start(settings)
        runtime = _prepare(stack, settings, tuning, args.threads)
        parts.add("runtime", runtime.close)
        processes.start_worker(runtime, parts)
        processes.start_clock(runtime, parts)
        processes.serve_web(
            runtime,
            host=args.host,
            port=settings.port,
            threads=args.threads,
            ready=lambda: _ready(runtime, args.host, console),
        )
    except KeyboardInterrupt:
        pass  # Ctrl-C while starting: stop what was started
    except localservices.ServiceError as err:
        raise CommandError("local_services", str(err), exit_code=3) from None
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            raise _port_taken(settings) from None
        raise
    finally:
        parts.stop()
        stack.stop()
    _say("stopped")
    return 0


def _ready(runtime: Runtime, host: str, console: bool) -> None:
    settings = runtime.settings
    _say(_listening(settings, host) + " · Ctrl-C stops everything")
    if console:
        venues = runtime.engine.venue_ids()
        print(tour.without_slack(settings, venues, _manifest_path()), flush=True)


def _port_taken(settings: Settings) -> CommandError:
    again = f"PORT={settings.port + 1} {settings.command('serve')}"
    return CommandError(
        "port_in_use",
        f"port {settings.port} is in use by another program (another osae serve?): stop it, "
        f"or use another port: {again}",
    )


def _prepare(stack: Stack, settings: Settings, tuning: Tuning, threads: int) -> Runtime:
    """Database, schema and demo venue ready; say where everything is."""
    for note in stack.notes:
        _say(note)
    if stack.server_url is not None:
        ensure_database(stack.server_url, local_stack.DATABASE)
        _say(f"PostgreSQL {stack.database_url} (data in {_data_place(settings.data_dir)})")
    migrate.upgrade(stack.database_url)
    _say(f"Redis {stack.redis_url}")
    runtime = Runtime.open(
        settings,
        tuning,
        database_url=stack.database_url,
        redis_url=stack.redis_url,
        pool_size=threads + tuning.worker_threads + 2,
    )
    if stack.own_database:
        loaded = local_stack.load_demo_venue(runtime.engine, local_stack.demo_search_path())
        if loaded:
            _say(f"demo venue loaded from {loaded}")
    if not runtime.engine.venue_ids():
        _say(f"no venue is loaded yet: run `{settings.command('venue', 'load', 'FILE')}`")
    return runtime


def _data_place(data_dir: Path) -> str:
    """The data folder, and where PostgreSQL's files really are when root placed them apart."""
    pgdata = data_dir / "pgdata"
    where = str(data_dir.resolve())
    if pgdata.is_symlink():
        where += f"; PostgreSQL's files in {pgdata.readlink().parent}"
    return where


def ensure_database(server_url: str, name: str) -> None:
    """Create database ``name`` on our own PostgreSQL if it is not there yet."""
    with psycopg.connect(server_url, autocommit=True) as conn:
        found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if found is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _run_parts(runtime: Runtime, starters: list[Callable[[Runtime, Parts], None]]) -> int:
    parts = Parts()
    parts.add("runtime", runtime.close)
    try:
        for start in starters:
            start(runtime, parts)
        processes.wait_until_interrupted()
    except KeyboardInterrupt:
        pass
    finally:
        parts.stop()
    return 0


def _configured(*, console_quiet: bool = False) -> tuple[Settings, Tuning, Stopping]:
    """Settings, tuning, logs and signals. ``console_quiet``: without Slack (and without
    OSAE_LOG_FORMAT), text logs of warnings and errors only: the terminal is for notices."""
    settings = Settings.from_env()
    try:
        tuning = Tuning.from_env()
    except TuningError as err:
        raise CommandError("bad_setting", str(err), exit_code=2) from None
    if console_quiet and not settings.slack_configured and "OSAE_LOG_FORMAT" not in os.environ:
        logs.configure("text", logging.WARNING)
    else:
        logs.configure(settings.log_format)
    return settings, tuning, processes.interrupt_on_signals()


def _runtime(settings: Settings, tuning: Tuning, pool_size: int = 10) -> Runtime:
    if not settings.redis_url:
        raise CommandError(
            "no_redis",
            "REDIS_URL is not set. Set it (redis://host:6379/0), or run `osae serve`, "
            "which starts its own Redis.",
            exit_code=2,
        )
    runtime = Runtime.open(
        settings,
        tuning,
        database_url=database_url(settings),
        redis_url=settings.redis_url,
        pool_size=pool_size,
    )
    _, facts = runtime.health()
    if facts["database"] != "ok":  # a missing Redis is waited for; a database is not
        runtime.close()
        raise CommandError("database_unreachable", f"database {facts['database']}")
    return runtime


# -- Slack credentials ----------------------------------------------------------------------
def missing_slack(settings: Settings, *, sending_only: bool) -> list[str]:
    """What must still be set: a bot token, and (to receive) an app token or signing secret."""
    missing = [] if settings.slack_bot_token else ["SLACK_BOT_TOKEN"]
    receives = settings.slack_app_token or settings.slack_signing_secret
    if not sending_only and not receives:
        missing.append("SLACK_APP_TOKEN or SLACK_SIGNING_SECRET")
    return missing


def _explain_slack(settings: Settings, missing: list[str], command: str) -> int:
    state = "only partly configured" if settings.slack_configured else "not configured"
    without = ""
    if command.endswith(("serve", "run")):
        without = (
            f"Or unset every SLACK_ variable: `{command}` then runs without Slack and prints "
            "each notice in the terminal.\n\n"
        )
    print(
        f"{command}: Slack is {state}; nothing was started.\n\n"
        f"Missing: {', '.join(missing)}\n\n{without}"
        + tour.connect_slack(command, _manifest_path()),
        file=sys.stderr,
    )
    return NO_SLACK


def _manifest_path() -> str:
    for base in local_stack.demo_search_path():
        if (base / "manifest.yml").exists():
            return str(base / "manifest.yml")
    return "manifest.yml (at the top of the osae repository)"


def _listening(settings: Settings, host: str) -> str:
    base = f"http://{'127.0.0.1' if host == ALL_INTERFACES else host}:{settings.port}"
    if not settings.slack_configured:
        return f"web on {base} (GET /healthz; no Slack endpoint without Slack)"
    if settings.slack_app_token:
        return f"Slack over Socket Mode (no public URL needed); GET {base}/healthz"
    return f"listening on {base} (POST /slack/events from Slack, GET /healthz)"


def _say(line: str) -> None:
    print(f"osae: {line}", flush=True)


# -- outbox ---------------------------------------------------------------------------------
def list_outbox(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    engine = engine_for(settings)
    chosen = venue_id(args, engine, settings)
    found = engine.notices(chosen, status=args.status)
    lines = [_notice_line(n) for n in found] or ["no notices"]
    return emit(args.json, {"venue": chosen, "notices": [_notice_json(n) for n in found]}, lines)


def retry_outbox(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    engine = engine_for(settings)
    chosen = venue_id(args, engine, settings)
    venue = engine.venue(chosen)
    requeued = engine.requeue_failed(
        chosen, now=now_of(args, venue.tz if venue else UTC), ids=args.ids or None
    )
    not_failed = sorted(set(args.ids) - set(requeued))
    woken = bool(requeued) and wake_drain(settings, chosen)
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
