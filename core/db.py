"""Building the SQLAlchemy engine from a DATABASE_URL (done by entry points, never at import)."""

from __future__ import annotations

import time
from typing import Any, cast
from urllib.parse import unquote

import psycopg
import sqlalchemy as sa
from sqlalchemy.engine import URL, make_url
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import ConnectionPoolEntry

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def database_url(raw: str) -> URL:
    """Accept ``postgres://``, ``postgresql://`` and ``postgresql+psycopg://`` URLs.

    A unix-socket directory may be given as a percent-encoded host
    (``postgresql://%2Fvar%2Frun%2Fpostgresql/db``) or as ``?host=/var/run/postgresql``.
    """
    url = make_url(raw or DEFAULT_URL)
    if url.drivername in {"postgres", "postgresql", "postgresql+psycopg2"}:
        url = url.set(drivername="postgresql+psycopg")
    if url.drivername != "postgresql+psycopg":
        raise ValueError(f"DATABASE_URL must be a PostgreSQL URL, not {url.drivername}://")
    if url.host and unquote(url.host).startswith("/"):
        socket_dir = unquote(url.host)
        url = URL.create(
            url.drivername,
            username=url.username,
            password=url.password,
            port=url.port,
            database=url.database,
            query={**url.query, "host": socket_dir},
        )
    return url


# A pooled connection that sat idle this long is pinged before it is used again: the server
# may have closed it meanwhile (a restart, an idle timeout), and the pool then opens another.
# One in steady use is not pinged: a ping on every checkout (pool_pre_ping) is a round trip
# per transaction, taken inside a request's turn in the admission queue.
IDLE_BEFORE_PING_S = 1.0


def create_engine(
    raw_url: str,
    *,
    pool_size: int = 10,
    echo: bool = False,
    idle_before_ping: float = IDLE_BEFORE_PING_S,
    connect_args: dict[str, Any] | None = None,
) -> sa.Engine:
    engine = sa.create_engine(
        database_url(raw_url),
        pool_size=pool_size,
        max_overflow=pool_size,
        echo=echo,
        connect_args=connect_args or {},
    )
    ping_when_idle(engine, idle_before_ping)
    return engine


def ping_when_idle(engine: sa.Engine, seconds: float) -> None:
    """Ping a connection at checkout if it was checked in more than ``seconds`` ago; one
    that does not answer is replaced (the pool retries the checkout on a new connection)."""

    def checked_in(dbapi_connection: object, record: ConnectionPoolEntry) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    def checkout(dbapi_connection: object, record: ConnectionPoolEntry, proxy: object) -> None:
        since = record.info.get(_IDLE_SINCE)
        if since is None or time.monotonic() - since <= seconds:
            return
        try:
            engine.dialect.do_ping(cast(DBAPIConnection, dbapi_connection))
        except psycopg.Error as err:
            raise DisconnectionError(str(err)) from err

    sa.event.listen(engine, "checkin", checked_in)
    sa.event.listen(engine, "checkout", checkout)


_IDLE_SINCE = "osae_idle_since"


def roll_back_keeping_statements(conn: sa.Connection) -> None:
    """End ``conn``'s transaction with a ROLLBACK sent as a plain command, before SQLAlchemy
    rolls it back (then a no-op: the connection is idle).

    psycopg forgets every prepared statement of a connection on ``rollback()`` and sends
    DEALLOCATE ALL: a transaction rolled back may have dropped what they refer to. A write
    that only decided to write nothing (a refused request: its bump undone) drops nothing,
    and PostgreSQL keeps a session's prepared statements across a rollback; without this,
    each refusal costs that connection a round trip and its next statements' parse and plan.
    """
    dbapi = cast(psycopg.Connection[Any], conn.connection.dbapi_connection)
    if dbapi.pgconn.exec_(b"ROLLBACK").status != psycopg.pq.ExecStatus.COMMAND_OK:
        dbapi.rollback()  # let psycopg say why, and forget what it must
