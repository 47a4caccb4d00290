"""`osae serve`'s own PostgreSQL and Redis under the data folder, and the demo venue.

PostgreSQL keeps its data and its port (``<data_dir>/pgport``, which ``cli.context`` reads)
between runs, so a restart finds every hold and every unsent notice again. Redis keeps
nothing: queued messages are only wake-ups, and the outbox in PostgreSQL is the record.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.engine import make_url

from cli import localservices
from cli.settings import Settings
from core.engine import HoldEngine
from core.venue_file import read_venue_file

log = logging.getLogger(__name__)

DATABASE = "osae"
DEMO_VENUE = Path("examples") / "venue.toml"


@dataclass
class Stack:
    """Where the services are, and how to stop the ones we started (in reverse order)."""

    database_url: str
    redis_url: str
    own_database: bool  # started here, so the demo venue may be loaded into it
    server_url: str | None = None  # our PostgreSQL's maintenance database, to create ours
    _stops: list[Callable[[], None]] = field(default_factory=list)

    def stop(self) -> None:
        while self._stops:
            stop = self._stops.pop()
            try:
                stop()
            except localservices.ServiceError as err:
                log.error(  # noqa: TRY400 - the message says what failed; no traceback needed
                    "local service did not stop",
                    extra={"action": "serve.stop", "outcome": "error", "error": str(err)},
                )


def start(settings: Settings) -> Stack:
    """Use DATABASE_URL / REDIS_URL when set; otherwise start our own under OSAE_DATA_DIR."""
    stack = Stack(
        database_url=settings.database_url or "",
        redis_url=settings.redis_url or "",
        own_database=settings.database_url is None,
    )
    try:
        if stack.own_database:
            postgres = localservices.start_postgres(settings.data_dir)
            stack._stops.append(postgres.stop)
            stack.server_url = postgres.url
            stack.database_url = _with_database(postgres.url, DATABASE)
        if not stack.redis_url:
            redis = localservices.start_redis(settings.data_dir / "redis")
            stack._stops.append(redis.stop)
            stack.redis_url = redis.url
    except BaseException:
        stack.stop()  # nothing half-started is left behind
        raise
    return stack


def load_demo_venue(engine: HoldEngine, search: list[Path]) -> str | None:
    """Load ``examples/venue.toml`` into a database with no venue; returns the file used."""
    if engine.venue_ids():
        return None
    for base in search:
        candidate = base / DEMO_VENUE
        if candidate.exists():
            engine.save_venue(read_venue_file(candidate), now=datetime.now(UTC))
            return str(candidate)
    return None


def demo_search_path() -> list[Path]:
    """The working directory, then the source tree this package was installed from."""
    return [Path.cwd(), Path(__file__).resolve().parent.parent]


def _with_database(url: str, name: str) -> str:
    return make_url(url).set(database=name).render_as_string(hide_password=False)
