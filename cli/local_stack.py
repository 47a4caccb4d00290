"""`osae serve`'s own PostgreSQL and Redis under the data folder, and the demo venue.

PostgreSQL keeps its data and its port (``<data_dir>/pgport``, which ``cli.bootstrap`` reads)
between runs, so a restart finds every hold and every unsent notice again. Redis keeps
nothing: queued messages are only wake-ups, and the outbox in PostgreSQL is the record.
``<data_dir>/serve.pid`` says which `osae serve` uses the folder, so a second one is refused
and the leftovers of one that was killed are recognised.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from cli import local_redis, localservices, ops_texts
from cli.settings import Settings
from cli.supervisor import Watched
from core.engine import HoldEngine
from core.venue_file import read_venue_file

log = logging.getLogger(__name__)

DATABASE = "osae"
DEMO_VENUE = Path("examples") / "venue.toml"
PID_FILE = "serve.pid"


@dataclass
class Stack:
    """Where the services are, and how to stop the ones we started (in reverse order)."""

    database_url: str
    redis_url: str
    own_database: bool  # started here, so the demo venue may be loaded into it
    server_url: str | None = None  # our PostgreSQL's maintenance database, to create ours
    notes: list[str] = field(default_factory=list)  # what was found from an earlier run
    _services: list[localservices.Service] = field(default_factory=list)
    _names: dict[int, str] = field(default_factory=dict)  # id(service) -> its text key
    _release: Callable[[], None] = lambda: None

    def stop(self) -> None:
        while self._services:
            service = self._services.pop()
            try:
                service.stop()
            except localservices.ServiceError as err:
                log.error(  # noqa: TRY400 - the message says what failed; no traceback needed
                    "local service did not stop",
                    extra={"action": "serve.stop", "outcome": "error", "error": str(err)},
                )
        self._release()

    def kill(self) -> None:
        """At once, for a second Ctrl-C: nothing waits; PostgreSQL recovers at its next start."""
        for service in reversed(self._services):
            service.kill()
        self._release()

    @classmethod
    def for_settings(cls, settings: Settings) -> Stack:
        """Nothing started yet: DATABASE_URL / REDIS_URL, or our own to come."""
        return cls(
            database_url=settings.database_url or "",
            redis_url=settings.redis_url or "",
            own_database=settings.database_url is None,
        )

    def start(self, settings: Settings) -> None:
        """Start our own PostgreSQL and Redis under OSAE_DATA_DIR where no URL is set. Each
        is added as soon as it runs, so ``stop`` and ``kill`` reach it whenever they come."""
        if self.own_database or not self.redis_url:
            self._release = claim(settings.data_dir, self.notes)
        try:
            if self.own_database:
                postgres = localservices.start_postgres(
                    settings.data_dir, system=settings.system_postgres
                )
                self._add(postgres, "part.postgres")
                self.server_url = postgres.url
                self.database_url = _with_database(postgres.url, DATABASE)
            if not self.redis_url:
                redis = local_redis.start_redis(settings.data_dir / "redis")
                self._add(redis, "part.redis")
                self.redis_url = redis.url
        except BaseException:
            self.stop()  # nothing half-started is left behind
            raise

    def _add(self, service: localservices.Service, name: str) -> None:
        self._services.append(service)
        self._names[id(service)] = name
        self.notes += service.notes

    def watched(self, after: dict[str, Callable[[], None]]) -> list[Watched]:
        """The servers started here, for the supervisor: each started again in place (same
        port, same password); ``after`` what to do once one is back, by its text key."""
        found = []
        for service in self._services:
            if service.restart is not None:
                name = self._names[id(service)]
                noop: Callable[[], None] = lambda: None  # noqa: E731
                found.append(Watched(name, service.alive, service.restart, after.get(name, noop)))
        return found


def claim(data_dir: Path, notes: list[str]) -> Callable[[], None]:
    """Mark ``data_dir`` as this process's; returns the release. Refuses a folder another
    running `osae serve` uses; a pid file whose process is gone is an earlier crash."""
    data_dir.mkdir(parents=True, exist_ok=True)
    pidfile = data_dir / PID_FILE
    pid = _pid_in(pidfile)
    if pid is not None and pid != os.getpid():
        if _is_osae(pid):
            said = ops_texts.say("local.running", folder=data_dir.resolve(), pid=pid)
            raise localservices.ServiceError(said)
        notes.append(ops_texts.say("local.unclean", pid=pid))
    pidfile.write_text(str(os.getpid()))

    def release() -> None:
        if _pid_in(pidfile) == os.getpid():
            pidfile.unlink(missing_ok=True)

    return release


def load_demo_venue(engine: HoldEngine, search: list[Path]) -> str | None:
    """Load ``examples/venue.toml`` into a database with no venue; returns the file used."""
    if engine.venues.venue_ids():
        return None
    for base in search:
        candidate = base / DEMO_VENUE
        if candidate.exists():
            engine.venues.save_venue(read_venue_file(candidate), now=datetime.now(UTC))
            return str(candidate)
    return None


def data_place(data_dir: Path) -> str:
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


def demo_search_path() -> list[Path]:
    """The working directory, then the source tree this package was installed from."""
    return [Path.cwd(), Path(__file__).resolve().parent.parent]


def _pid_in(pidfile: Path) -> int | None:
    try:
        return int(pidfile.read_text())
    except (OSError, ValueError):
        return None


def _is_osae(pid: int) -> bool:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"osae" in command or b"cli.main" in command


def _with_database(url: str, name: str) -> str:
    return make_url(url).set(database=name).render_as_string(hide_password=False)
