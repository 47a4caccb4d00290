"""Running the parts: the worker and the clock in background threads, the web in the
foreground, all stopped in reverse order on Ctrl-C (SIGINT) or SIGTERM.

SIGTERM (what Heroku and systemd send) is turned into the same KeyboardInterrupt as Ctrl-C,
so one path stops everything. A second signal forces: what was registered to be killed is
killed at once and the process exits 130.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import signal
import time
from collections.abc import Callable
from types import FrameType

import dramatiq

from bot.feeds import CalendarFeeds
from bot.socket_mode import run_socket_mode
from bot.texts import dates
from bot.web import Server, build_wsgi
from cli import ops_texts
from cli.bootstrap import Runtime
from jobs import heartbeat
from jobs.clock import Clock

log = logging.getLogger(__name__)

# In-flight jobs get this long to finish (Heroku kills 30 s after SIGTERM); a notice cut
# off mid-send stays leased and is sent by the next worker.
WORKER_STOP_MS = 20_000


class Parts:
    """Started parts, each with its stop, stopped last-started first."""

    def __init__(self) -> None:
        self._stops: list[tuple[str, Callable[[], None]]] = []

    def add(self, name: str, stop: Callable[[], None]) -> None:
        self._stops.append((name, stop))

    def stop(self) -> None:
        while self._stops:
            name, stop = self._stops.pop()
            stop()
            log.info(f"{name} stopped", extra={"action": f"{name}.stop", "outcome": "ok"})


class Stopping:
    """The first SIGINT or SIGTERM raises KeyboardInterrupt in the main thread (the clean
    stop); the second runs the registered kills (servers we started) and exits 130.

    While a start is ``held`` the first signal is only noted, and raised at the next
    ``checkpoint`` or at ``release``: a KeyboardInterrupt inside a library (a connection
    half checked out of its pool) would leave something open that nothing can close."""

    def __init__(self) -> None:
        self.signalled = False
        self.pending = False
        self._held = False
        self._kills: list[Callable[[], None]] = []

    def on_force(self, kill: Callable[[], None]) -> None:
        self._kills.append(kill)

    def hold(self) -> None:
        self._held = True

    def checkpoint(self) -> None:
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt

    def release(self) -> None:
        self._held = False
        self.checkpoint()

    def handler(self, signum: int, frame: FrameType | None) -> None:
        if not self.signalled:
            self.signalled = True
            if self._held:
                self.pending = True
                return
            raise KeyboardInterrupt
        print(f"osae: {ops_texts.say('forced_stop')}", flush=True)
        for kill in reversed(self._kills):
            with contextlib.suppress(OSError):
                kill()
        os._exit(130)


def interrupt_on_signals() -> Stopping:
    """SIGTERM and SIGINT both raise KeyboardInterrupt in the main thread (SIGINT too: a
    process started in the background by a shell inherits SIGINT ignored)."""
    stopping = Stopping()
    signal.signal(signal.SIGTERM, stopping.handler)
    signal.signal(signal.SIGINT, stopping.handler)
    return stopping


def wait_until_interrupted() -> None:
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return


def settle_heap() -> None:
    """Set what starting made (modules, the Slack app, the engine) aside from the garbage
    collector: it lives as long as the process. A full collection otherwise walks all of it,
    some 70 ms here, and a request's own objects (a search makes thousands) set one off
    every few requests: bench/search.py measures it."""
    gc.collect()
    gc.freeze()


class WorkerPart:
    """The Dramatiq worker of this process, that can be started again in place."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.worker: dramatiq.Worker | None = None

    def start(self) -> None:
        self.worker = self.runtime.worker()
        self.worker.start()

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.stop(timeout=WORKER_STOP_MS)

    def restart(self) -> None:
        """A worker thread died: stop what is left, start anew; the drain sends what was
        left leased (after its lease) or pending."""
        self.stop()
        self.start()
        self.runtime.drain_all()

    def alive(self) -> bool:
        worker = self.worker
        if worker is None:
            return False
        threads = [*worker.workers, *worker.consumers.values()]
        return bool(threads) and all(thread.is_alive() for thread in threads)


def start_worker(runtime: Runtime, parts: Parts) -> WorkerPart:
    part = WorkerPart(runtime)
    part.start()
    parts.add("worker", part.stop)
    beat = runtime.beat_for(heartbeat.WORKER, part.alive).start()
    parts.add("worker heartbeat", beat.stop)
    runtime.drain_all()  # what a previous run left pending goes out now
    log.info(
        "worker started",
        extra={
            "action": "worker.start",
            "outcome": "ok",
            "threads": runtime.settings.tuning.worker_threads,
        },
    )
    return part


class ClockPart:
    """The clock of this process, that can be started again in place (it only enqueues:
    a tick lost meanwhile is caught up by the start's own sweep and drain)."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.clock: Clock | None = None

    def start(self) -> None:
        self.clock = self.runtime.clock()
        self.clock.start()

    def stop(self) -> None:
        if self.clock is not None:
            self.clock.stop()

    def restart(self) -> None:
        self.stop()
        self.start()

    def alive(self) -> bool:
        return self.clock is not None and self.clock.alive()


def start_clock(runtime: Runtime, parts: Parts) -> ClockPart:
    # APScheduler logs every job it adds and runs: a line per venue every 15 s otherwise.
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
    part = ClockPart(runtime)
    part.start()
    parts.add("clock", part.stop)
    beat = runtime.beat_for(heartbeat.CLOCK, part.alive).start()
    parts.add("clock heartbeat", beat.stop)
    log.info("clock started", extra={"action": "clock.start", "outcome": "ok"})
    return part


def warm_up(runtime: Runtime) -> None:
    """What the first requests after a start would otherwise read for themselves: the venues,
    their holiday and 六曜 calendars, Babel's data for each language."""
    runtime.engine.venues.warm(now=runtime.now())
    dates.preload()


def serve_web(
    runtime: Runtime, *, host: str, port: int, threads: int, ready: Callable[[], None]
) -> None:
    """HTTP (POST /slack/events, GET /healthz) on ``port``; with SLACK_APP_TOKEN, Socket Mode
    too (the port then still answers /healthz, as a web dyno must); without Slack, /healthz
    only. ``ready`` is called once the port is bound. Returns on Ctrl-C or SIGTERM; raises
    OSError if the port cannot be bound."""
    app = runtime.bot() if runtime.settings.slack_configured else None
    calendars = CalendarFeeds(runtime.engine, runtime.now)
    wsgi = build_wsgi(app, runtime.health, calendars)
    server = Server(wsgi, host=host, port=port, threads=threads)
    warm_up(runtime)
    settle_heap()
    server.start()
    ready()
    try:
        # Installs through OAuth are HTTP: Socket Mode is for one workspace in development.
        token = None if runtime.settings.distributed else runtime.settings.slack_app_token
        if app is not None and token:
            run_socket_mode(app, token)
        else:
            wait_until_interrupted()
    except KeyboardInterrupt:
        return
    finally:
        server.stop()
