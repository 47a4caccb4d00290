"""`osae web|worker|clock|serve`: the processes, each built by ``cli.bootstrap``."""

from __future__ import annotations

import argparse
import errno
import gc
import logging
import sys
from collections.abc import Callable

from cli import (
    local_access,
    local_errors,
    local_stack,
    localservices,
    logs,
    migrate,
    ops_texts,
    processes,
    tour,
)
from cli.bootstrap import Runtime, database_url
from cli.context import locale, say, settings_of
from cli.errors import CommandError
from cli.local_stack import Stack
from cli.processes import Parts, Stopping
from cli.settings import Settings
from cli.supervisor import Supervisor, Watched

NO_SLACK = 2  # exit status when Slack credentials are missing: nothing was started
ALL_INTERFACES = "0.0.0.0"  # noqa: S104 - a web dyno must listen on every interface
LOOPBACK = "127.0.0.1"


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    for name, handler in (
        ("web", run_web),
        ("worker", run_worker),
        ("clock", run_clock),
        ("serve", run_serve),
    ):
        text = say(f"help.{name}")
        part = commands.add_parser(name, help=text, description=text)
        if name in ("web", "serve"):
            # A deploy's web process listens on every interface (its router reaches it
            # there); `osae serve` on one machine only on this one, unless --host says so.
            default = LOOPBACK if name == "serve" else ALL_INTERFACES
            part.add_argument("--host", default=default, help=say("help.host", default=default))
            threads = say("help.threads", default=8)
            part.add_argument("--threads", type=int, default=8, help=threads)
        part.set_defaults(handler=handler)


def run_web(args: argparse.Namespace) -> int:
    settings, _ = _configured(args)
    if missing := missing_slack(settings, sending_only=False):
        return _explain_slack(settings, missing, "osae web")
    if not localservices.port_free(settings.port, args.host):
        raise _port_taken(settings, "web")
    runtime = _runtime(settings, pool_size=args.threads + 2)
    try:
        processes.serve_web(
            runtime,
            host=args.host,
            port=settings.port,
            threads=args.threads,
            ready=lambda: _say(_listening(settings, args.host)),
        )
    except OSError as err:
        raise _os_error(err, settings) from None
    finally:
        runtime.close()
    return 0


def run_worker(args: argparse.Namespace) -> int:
    settings, _ = _configured(args)
    if missing := missing_slack(settings, sending_only=True):
        return _explain_slack(settings, missing, "osae worker")
    return _run_parts(_runtime(settings), [processes.start_worker])


def run_clock(args: argparse.Namespace) -> int:
    settings, _ = _configured(args)
    return _run_parts(_runtime(settings, pool_size=2), [processes.start_clock])


def run_serve(args: argparse.Namespace) -> int:
    """Everything on one machine until Ctrl-C; without any Slack variable, notices go to the
    terminal (console mode). A part that dies is started again (``cli.supervisor``); every
    server it started is stopped before it returns, and nothing is said after "stopped"."""
    settings, stopping = _configured(args, console_quiet=True)
    console = not settings.slack_configured
    if not console and (missing := missing_slack(settings, sending_only=False)):
        return _explain_slack(settings, missing, settings.command("serve"))
    if not localservices.port_free(settings.port, args.host):
        raise _port_taken(settings)
    stack = Stack.for_settings(settings)
    stopping.on_force(stack.kill)
    parts = Parts()
    watching: list[Supervisor] = []
    stopping.hold()  # a Ctrl-C from here waits for the step under way (Stopping)
    try:
        stack.start(settings)
        stopping.checkpoint()
        runtime = _prepare(stack, settings, args.threads, parts, stopping.checkpoint)
        worker = processes.start_worker(runtime, parts)
        stopping.checkpoint()
        clock = processes.start_clock(runtime, parts)
        watching.append(_supervise(stack, runtime, [worker, clock], parts))
        stopping.checkpoint()

        def ready() -> None:
            stopping.release()  # started: a Ctrl-C stops at once again
            _ready(runtime, args.host, console)

        processes.serve_web(
            runtime, host=args.host, port=settings.port, threads=args.threads, ready=ready
        )
    except KeyboardInterrupt:
        pass  # Ctrl-C while starting: stop what was started
    except localservices.ServiceError as err:
        raise CommandError("local_services", str(err), exit_code=3) from None
    except OSError as err:
        raise _os_error(err, settings) from None
    finally:
        parts.stop()
        stack.stop()
        gc.collect()  # what an interrupted start dropped is closed now, not at exit
    _say(say("run.stopped"))
    return 3 if watching and watching[0].failed else 0


def _supervise(
    stack: Stack,
    runtime: Runtime,
    threads: list[processes.WorkerPart | processes.ClockPart],
    parts: Parts,
) -> Supervisor:
    """Watch our PostgreSQL and Redis, the worker and the clock; stopped first, before any
    of them."""
    watched = stack.watched({"part.redis": runtime.drain_all})  # its queue was in memory
    for part in threads:
        name = "part.worker" if isinstance(part, processes.WorkerPart) else "part.clock"
        watched.append(Watched(name, part.alive, part.restart))
    supervisor = Supervisor(watched, _say, command=runtime.settings.command("serve")).start()
    parts.add("supervisor", supervisor.stop)
    return supervisor


def _os_error(err: OSError, settings: Settings) -> CommandError:
    """A port taken, a data folder osae may not write, a full disk: one line each."""
    if err.errno == errno.EADDRINUSE:
        return _port_taken(settings)
    return CommandError("os_error", local_errors.describe(err, settings.data_dir), exit_code=3)


def _ready(runtime: Runtime, host: str, console: bool) -> None:
    settings = runtime.settings
    _say(_listening(settings, host) + say("run.ctrl_c"))
    if console:
        venues = runtime.engine.venues.venue_ids()
        print(tour.without_slack(settings, venues, _manifest_path()), flush=True)


def _port_taken(settings: Settings, command: str = "serve") -> CommandError:
    again = f"PORT={settings.port + 1} {settings.command(command)}"
    return CommandError(
        "port_in_use", ops_texts.say("web.port_taken", port=settings.port, again=again)
    )


def _prepare(
    stack: Stack, settings: Settings, threads: int, parts: Parts, checkpoint: Callable[[], None]
) -> Runtime:
    """Database, schema and demo venue ready; say where everything is (never a password)."""
    for note in stack.notes:
        _say(note)
    if stack.server_url is not None:
        local_stack.ensure_database(stack.server_url, local_stack.DATABASE)
        where = local_stack.data_place(settings.data_dir)
        _say(say("run.postgres", url=local_access.shown(stack.database_url), where=where))
    checkpoint()
    migrate.upgrade(stack.database_url)
    _say(say("run.redis", url=local_access.shown(stack.redis_url)))
    checkpoint()
    runtime = Runtime.open(
        settings,
        database_url=stack.database_url,
        redis_url=stack.redis_url,
        pool_size=threads + settings.tuning.worker_threads + 2,
    )
    parts.add("runtime", runtime.close)  # at once: a Ctrl-C from here on closes it too
    if stack.own_database:
        loaded = local_stack.load_demo_venue(runtime.engine, local_stack.demo_search_path())
        if loaded:
            _say(say("run.demo_loaded", path=loaded))
    if not runtime.engine.venues.venue_ids():
        _say(say("run.no_venue", command=settings.command("venue", "load", "FILE")))
    return runtime


def _run_parts(runtime: Runtime, starters: list[Callable[[Runtime, Parts], object]]) -> int:
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


def _configured(
    args: argparse.Namespace, *, console_quiet: bool = False
) -> tuple[Settings, Stopping]:
    """Settings, logs and signals. ``console_quiet``: without Slack (and without
    OSAE_LOG_FORMAT), text logs of warnings and errors only: the terminal is for notices."""
    settings = settings_of(args)
    if console_quiet and not settings.slack_configured and settings.log_format is None:
        logs.configure("text", logging.WARNING)
    else:
        logs.configure(settings.log_format or "json")
    return settings, processes.interrupt_on_signals()


def _runtime(settings: Settings, pool_size: int = 10) -> Runtime:
    if not settings.redis_url:
        said = say("run.no_redis", command=settings.command("serve"))
        raise CommandError("no_redis", said, exit_code=2)
    runtime = Runtime.open(
        settings,
        database_url=database_url(settings),
        redis_url=settings.redis_url,
        pool_size=pool_size,
    )
    _, facts = runtime.health()
    if facts["database"] != "ok":  # a missing Redis is waited for; a database is not
        runtime.close()
        raise CommandError("database_unreachable", say("run.database", state=facts["database"]))
    return runtime


# -- Slack credentials ----------------------------------------------------------------------
def missing_slack(settings: Settings, *, sending_only: bool) -> list[str]:
    """What must still be set: a bot token (or, for many workspaces, the app's client id and
    secret), and (to receive) an app token or signing secret."""
    if settings.slack_client_id or settings.slack_client_secret:
        wanted = {
            "SLACK_CLIENT_ID": settings.slack_client_id,
            "SLACK_CLIENT_SECRET": settings.slack_client_secret,
            "SLACK_SIGNING_SECRET": settings.slack_signing_secret,  # Add to Slack is HTTP only
        }
        return [name for name, value in wanted.items() if not value]
    missing = [] if settings.slack_bot_token else ["SLACK_BOT_TOKEN"]
    receives = settings.slack_app_token or settings.slack_signing_secret
    if not sending_only and not receives:
        missing.append(f"SLACK_APP_TOKEN {say('run.slack.or')} SLACK_SIGNING_SECRET")
    return missing


def _explain_slack(settings: Settings, missing: list[str], command: str) -> int:
    state = say("run.slack.partly" if settings.slack_configured else "run.slack.none")
    serves = command.endswith(("serve", "run"))
    without = say("run.slack.without", command=command) if serves else ""
    said = say(
        "run.slack", command=command, state=state, missing=", ".join(missing), without=without
    )
    print(said + tour.connect_slack(command, _manifest_path(), locale()), file=sys.stderr)
    return NO_SLACK


def _manifest_path() -> str:
    for base in local_stack.demo_search_path():
        if (base / "manifest.yml").exists():
            return str(base / "manifest.yml")
    return say("run.manifest")


def _listening(settings: Settings, host: str) -> str:
    """Where the web really listens: the address it bound, and how to reach it from here."""
    base = f"http://{host}:{settings.port}"
    if host == ALL_INTERFACES:
        base = ops_texts.say("web.host_all", local=f"http://{LOOPBACK}:{settings.port}")
    if not settings.slack_configured:
        return say("web.console", base=base)
    if settings.slack_app_token and not settings.distributed:
        return say("web.socket", base=base)
    return say("web.distributed" if settings.distributed else "web.http", base=base)


def _say(line: str) -> None:
    print(f"osae: {line}", flush=True)
