"""Server time from a Slack request to its ack: modal submissions and live-preview updates.

    python -m bench.bot_ack [--rounds 10] [--concurrency 20] [--threads 16]

The bot runs as in production (build_app + build_wsgi under waitress, in a process of its
own) against a real PostgreSQL and the Slack Web API stand-in, which shares the senders'
process: neither takes the server's interpreter lock, as neither would in production. Each
round sends ``concurrency`` signed requests at once. "server" is measured inside the server
by a WSGI middleware, from the moment waitress hands the request to the app to the last byte
of the ack (signature check, Bolt dispatch, the engine's work for a submission); "round
trip" is what the sender saw, queueing included. The preview's views.update happens after
the ack; its lag (request to views.update arriving at Slack) is shown too. A submission's
server time splits into the engine's request (its wait for admission and its transaction)
and the bot's; the work handed over after the ack (cards, DMs, App Home) is timed apart, as it
shares the server's interpreter; so does the server's CPU per request (all its threads), which
bounds what a burst can get from one interpreter. Targets (server p95): 150 ms for 20
concurrent submissions, 100 ms for a preview's update.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import date, timedelta
from multiprocessing.connection import Connection
from threading import Barrier
from typing import TYPE_CHECKING, Any

from slack_sdk import WebClient

from bench.common import bench_database, latency_line, machine_line, percentile
from bot import ids
from bot.after_ack import AfterAck
from bot.metadata import Meta
from bot.texts import dates
from bot.web import Server, build_wsgi
from bot.workspaces import VenueResolver
from cli import bootstrap
from cli.processes import settle_heap
from cli.settings import Settings
from core.db import create_engine
from core.engine import HoldEngine
from tests.support import factories
from tests.support import slack_requests as sr
from tests.support.slack_standin import SlackStandin

if TYPE_CHECKING:
    from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

SECRET = "bench-signing-secret"  # noqa: S105 - signs requests to a local bench server
ROOMS = ("sakura", "chapel", "hoo-a", "hoo-b")  # no shared parts: distinct slots never conflict
TIMES = (
    ("09:00", "10:00"),
    ("11:30", "12:30"),
    ("14:00", "15:00"),
    ("16:30", "17:30"),
    ("19:00", "20:00"),
)
FIRST_DAY = date(2027, 4, 1)
# server p95 targets, ms: 20 concurrent submissions (issue 13), a preview's update (issue 3)
TARGETS = {
    "submit (distinct slots)": 150,
    "submit (one slot, a race)": 150,
    "preview update": 100,
}


class Timings:
    """WSGI middleware: seconds from the app being called to its body being produced."""

    def __init__(self) -> None:
        self.app: WSGIApplication | None = None
        self.phase = "warmup"
        self.seen: defaultdict[str, list[float]] = defaultdict(list)
        self._lock = threading.Lock()

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        assert self.app is not None
        body = list(self.app(environ, start_response))
        self.record(self.phase, started)
        return body

    @contextmanager
    def timed(self, part: str) -> Iterator[None]:
        """Time a part of the current phase's requests."""
        started = time.perf_counter()
        try:
            yield
        finally:
            self.record(f"{self.phase}: {part}", started)

    def record(self, name: str, started: float) -> None:
        took = time.perf_counter() - started
        with self._lock:
            self.seen[name].append(took)

    def add(self, part: str, seconds: float) -> None:
        with self._lock:
            self.seen[f"{self.phase}: {part}"].append(seconds)


class TimedEngine(HoldEngine):
    """The engine, timing each request inside the server: the ack splits into the engine's
    part and the bot's, and the engine's part into waiting for admission (``core.admission``)
    and the transaction itself (its serializable retries included)."""

    def __init__(self, *args: Any, timings: Timings, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timings = timings
        waited = threading.local()
        request, write = self.writes.request, self._run.admission.write

        @contextmanager
        def admitted(*args: Any, **kwargs: Any) -> Iterator[bool]:
            started = time.perf_counter()
            with write(*args, **kwargs) as turn:
                waited.seconds = getattr(waited, "seconds", 0.0) + time.perf_counter() - started
                yield turn

        def timed_request(*args: Any, **kwargs: Any) -> Any:
            """The request less its admission waits (retries and its answer's reads in)."""
            waited.seconds = 0.0
            started = time.perf_counter()
            try:
                with timings.timed("engine.writes.request"):
                    return request(*args, **kwargs)
            finally:
                took = time.perf_counter() - started
                timings.add("admission wait", waited.seconds)
                timings.add("transaction", took - waited.seconds)

        self._run.admission.write = admitted  # type: ignore[method-assign]
        self.writes.request = timed_request  # type: ignore[method-assign]


def timed_after_ack(timings: Timings) -> None:
    """Time each piece of work the bot hands over after its ack (cards, DMs, App Home), in
    the phase that handed it over: it shares the server's interpreter with the acks."""
    guarded = AfterAck._guarded

    def timed(self: AfterAck, *args: Any) -> None:
        with timings.timed("after-ack work"):
            guarded(self, *args)

    AfterAck._guarded = timed  # type: ignore[method-assign]


def values(
    room: str, day: date, times: tuple[str, str], customer: str, user: str
) -> dict[str, Any]:
    start, end = times
    return {
        ids.ROOM: {ids.ROOM: sr.select_value(room)},
        ids.DATE: {ids.DATE: sr.date_value(day)},
        ids.START: {ids.START: sr.time_value(start)},
        ids.END: {ids.END: sr.time_value(end)},
        ids.KIND: {ids.KIND: sr.select_value("wedding", kind="radio_buttons")},
        ids.CUSTOMER: {ids.CUSTOMER: sr.text_value(customer)},
        ids.SALESPERSON: {ids.SALESPERSON: sr.user_value(user)},
        ids.NOTE: {ids.NOTE: sr.text_value(None)},
    }


def burst(url: str, bodies: list[bytes]) -> list[float]:
    """Send all bodies at once (a barrier releases them together); client round trips."""
    gate = Barrier(len(bodies))

    def send(body: bytes) -> float:
        gate.wait()
        started = time.perf_counter()
        status, _, answer = sr.post(url, body, SECRET)
        if status != 200:
            raise RuntimeError(f"HTTP {status}: {answer[:200]}")
        return time.perf_counter() - started

    with ThreadPoolExecutor(len(bodies)) as pool:
        return list(pool.map(send, bodies))


def slot(round_no: int, i: int) -> tuple[str, date, tuple[str, str]]:
    """The i-th of a round's distinct slots: its own room and day, so no two share a ledger row
    (requests for the same part on the same day serialise on purpose: see docs/concurrency.md)."""
    day = FIRST_DAY + timedelta(days=(round_no * 64 + i // len(ROOMS)) % 700)
    return ROOMS[i % len(ROOMS)], day, TIMES[i % len(TIMES)]


def submissions(round_no: int, n: int, *, one_slot: bool) -> list[bytes]:
    meta = Meta(channel=sr.CHANNEL_ID, locale="ja-JP").dump()
    bodies = []
    for i in range(n):
        room, day, times = slot(round_no, i)
        if one_slot:
            room, day, times = "hoo", FIRST_DAY + timedelta(days=round_no % 700), TIMES[0]
        user = f"U0BENCH{i:03d}"
        bodies.append(
            sr.view_submission(
                values(room, day, times, f"顧客{round_no}-{i}様", user),
                view_id=f"V0B{'S' if one_slot else 'D'}{round_no:03d}{i:03d}",
                callback_id=ids.HOLD_MODAL,
                private_metadata=meta,
                user_id=user,
            )
        )
    return bodies


def previews(slack: SlackStandin, client: WebClient, round_no: int, n: int) -> list[bytes]:
    meta = Meta(channel=sr.CHANNEL_ID, locale="ja-JP").dump()
    bodies = []
    for i in range(n):
        modal = {
            "type": "modal",
            "callback_id": ids.HOLD_MODAL,
            "title": {"type": "plain_text", "text": "仮押さえ"},
            "private_metadata": meta,
            "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "…"}}],
        }
        view = client.views_open(trigger_id=slack.issue_trigger(), view=modal)["view"]
        room, day, times = slot(round_no, i)
        chosen = values(room, day, times, "", f"U0BENCH{i:03d}")
        changed = sr.action(
            ids.KIND,
            block_id=ids.KIND,
            action_type="radio_buttons",
            selected_option=sr.option("wedding"),
        )
        bodies.append(
            sr.block_actions(actions=[changed], view=slack.view(view["id"]), values=chosen)
        )
    return bodies


class ServerProcess:
    """The bot in a process of its own, as in production: the senders and the Slack stand-in
    stay in this one, so they never compete with the server for its interpreter lock."""

    def __init__(
        self, database_url: str, slack_url: str, threads: int, writers: int | None
    ) -> None:
        context = multiprocessing.get_context("spawn")  # no threads inherited mid-flight
        self._pipe, child = context.Pipe()
        self._process = context.Process(
            target=serve_bot, args=(child, database_url, slack_url, threads, writers), daemon=True
        )
        self._process.start()
        self.url: str = self._pipe.recv()

    def ask(self, *message: object) -> Any:
        self._pipe.send(message)
        return self._pipe.recv()

    def stop(self) -> None:
        self.ask("stop")
        self._process.join(timeout=10)


def serve_bot(
    pipe: Connection, database_url: str, slack_url: str, threads: int, writers: int | None
) -> None:
    """The server process: build the bot as production does, then answer the bench's pipe."""
    logging.basicConfig(level=logging.WARNING)
    sa_engine = create_engine(database_url, pool_size=threads + 8)
    timed = Timings()
    timed_after_ack(timed)
    engine = TimedEngine(sa_engine, timings=timed, writers=writers)
    venue = engine.venues.save_venue(factories.venue(), now=factories.NOW)
    env = {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_API_URL": slack_url}
    settings = Settings.from_env({**env, "SLACK_SIGNING_SECRET": SECRET})
    app = bootstrap.bot_app(
        engine,
        settings,
        client=bootstrap.slack_client(settings),
        venues=VenueResolver(default=venue.id),
        now=lambda: factories.NOW,
    )
    timed.app = build_wsgi(app, lambda: (True, {}))
    server = Server(timed, threads=threads)
    # as osae web and osae serve do once built (cli.processes.serve_web)
    engine.venues.warm(now=factories.NOW)
    dates.preload()
    settle_heap()
    with server:
        pipe.send(f"{server.url}/slack/events")
        # The server's CPU (every thread: acks and after-ack work), charged to the last
        # phase that was not "idle": the work a burst handed over runs on in the pause.
        charged, since = "warmup", time.process_time()
        while True:
            command, *args = pipe.recv()
            if command == "phase":
                spent, since = time.process_time() - since, time.process_time()
                timed.seen[f"{charged}: cpu"].append(spent)
                timed.phase = args[0]
                charged = args[0] if args[0] != "idle" else charged
                pipe.send(None)
            elif command == "drain":
                pipe.send(app.after.drain(timeout=30))
            elif command == "seen":
                pipe.send(dict(timed.seen))
            else:
                break
    sa_engine.dispose()
    pipe.send(None)


def run(rounds: int, concurrency: int, threads: int, writers: int | None = None) -> None:
    logging.basicConfig(level=logging.WARNING)
    with bench_database(pool_size=2) as (_, database_url), SlackStandin() as slack:
        for i in range(concurrency):
            slack.set_user(f"U0BENCH{i:03d}", locale="ja-JP")
        client = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])  # noqa: S106
        server = ServerProcess(database_url, slack.base_url, threads, writers)
        try:
            report = measure(server, slack, client, rounds, concurrency)
        finally:
            server.stop()
    print(
        f"bot ack bench: {rounds} rounds x {concurrency} concurrent,"
        f" waitress threads={threads}, engine venue cap={writers or 'none'}"
    )
    print(machine_line())
    for line in report:
        print(line)


def measure(
    server: ServerProcess, slack: SlackStandin, client: WebClient, rounds: int, concurrency: int
) -> list[str]:
    url = server.url
    burst(url, submissions(rounds + 6, 4, one_slot=False))  # warm-up: auth.test, imports, pool
    trips: defaultdict[str, list[float]] = defaultdict(list)
    lag: list[float] = []
    for round_no in range(rounds):  # the baseline: the same submissions, one at a time
        server.ask("phase", "submit (one at a time)")
        for body in submissions(rounds + 8 + round_no, 2, one_slot=False):
            trips["submit (one at a time)"] += burst(url, [body])
    server.ask("phase", "idle")
    phases: list[tuple[str, Callable[[int], list[bytes]]]] = [
        ("submit (distinct slots)", lambda r: submissions(r, concurrency, one_slot=False)),
        ("submit (one slot, a race)", lambda r: submissions(r, concurrency, one_slot=True)),
        ("preview update", lambda r: previews(slack, client, r + 5, concurrency)),
    ]
    for round_no in range(rounds):
        for name, make in phases:
            bodies = make(round_no)
            before = len(slack.calls_to("views.update"))
            server.ask("phase", name)
            started = time.time()
            trips[name] += burst(url, bodies)
            if name == "preview update":
                updates = slack.wait_for("views.update", before + len(bodies), timeout=30)
                lag += [c.at - started for c in updates[before:]]
            server.ask("phase", "idle")
            # the burst's after-ack work (posts, App Home) is done before the next burst: it
            # starts once the burst is answered, and its CPU is charged to the burst
            if not server.ask("drain"):
                raise RuntimeError("after-ack work still running 30 s after a burst")
    seen: dict[str, list[float]] = server.ask("seen")
    lines = []
    parts = ("engine.writes.request", "admission wait", "transaction", "after-ack work")
    for name in ["submit (one at a time)", *(name for name, _ in phases)]:
        lines.append(latency_line(f"{name}: server", seen[name]))
        for part in parts:
            if seen.get(f"{name}: {part}"):
                lines.append(latency_line(f"   {part}", seen[f"{name}: {part}"]))
        lines.append(latency_line("   round trip (client)", trips[name]))
        cpu = sum(seen.get(f"{name}: cpu", [])) / len(seen[name]) * 1000
        lines.append(f"   server CPU per request, acks and after-ack work: {cpu:.1f} ms")
    lines.append(latency_line("preview: request -> views.update", lag))
    for name, target in TARGETS.items():
        p95 = percentile(seen[name], 95) * 1000
        verdict = "meets" if p95 < target else "MISSES"
        lines.append(f"{name}: server p95 {p95:.1f} ms {verdict} the {target} ms target")
    lines.append(f"Web API calls made: {json.dumps(summary(slack))}")
    return lines


def summary(slack: SlackStandin) -> dict[str, int]:
    counts: defaultdict[str, int] = defaultdict(int)
    for call in slack.calls:
        counts[call.method] += 1
    return dict(sorted(counts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--threads", type=int, default=16, help="waitress worker threads")
    parser.add_argument(
        "--writers", type=int, default=0, help="engine's venue cap of writers (0: none)"
    )
    args = parser.parse_args()
    run(args.rounds, args.concurrency, args.threads, args.writers or None)


if __name__ == "__main__":
    main()
