"""Building the SQLAlchemy engine from a DATABASE_URL (done by entry points, never at import)."""

from __future__ import annotations

from urllib.parse import unquote

import sqlalchemy as sa
from sqlalchemy.engine import URL, make_url

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


def create_engine(raw_url: str, *, pool_size: int = 10, echo: bool = False) -> sa.Engine:
    return sa.create_engine(
        database_url(raw_url),
        pool_size=pool_size,
        max_overflow=pool_size,
        pool_pre_ping=True,
        echo=echo,
    )
