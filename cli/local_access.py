"""Who may reach `osae serve`'s own PostgreSQL and Redis: only osae.

A password is generated into the data folder (readable by its owner only) for each server.
PostgreSQL listens on 127.0.0.1 with scram-sha-256 for everyone, and on a Unix socket in
its own folder that only its account (and root) may open, which is how osae sets the
password at each start; its ``pg_hba.conf`` is ours (``-c hba_file``), so a cluster made by
an older osae (trust for everyone) is locked down by its next start. Redis reads its
password from a config file of the same mode, never from its command line (``ps`` shows
that to every user).
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from urllib.parse import quote

import psycopg
from psycopg import sql

PG_PASSWORD = "pgpassword"  # noqa: S105 - a file name: in the data folder, beside pgport
REDIS_PASSWORD = "password"  # noqa: S105 - a file name: in the Redis folder
HBA = "osae_hba.conf"  # in the cluster's home, beside its socket
SOCKET_MODE = "0700"  # the socket: the server's account (and root) only

_HBA_LINES = (
    "# Written by osae at every start: edits are replaced.\n"
    "# The socket sits in a folder of the server's account, mode 0700: it is how osae sets\n"
    "# the password. Every TCP connection needs that password.\n"
    "local all postgres trust\n"
    "host all all 127.0.0.1/32 scram-sha-256\n"
    "host all all ::1/128 scram-sha-256\n"
)


def password(path: Path) -> tuple[str, bool]:
    """The password kept in ``path``, made now (mode 0600) if there is none; and whether it
    was made now."""
    try:
        kept = path.read_text().strip()
    except FileNotFoundError:
        kept = ""
    if kept:
        return kept, False
    made = secrets.token_hex(24)  # hex: safe in a URL and in a config file as it is
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(made + "\n")
    return made, True


def kept_password(path: Path) -> str | None:
    """The password an `osae serve` wrote, if any (for the commands beside it)."""
    try:
        return path.read_text().strip() or None
    except OSError:
        return None


def write_hba(home: Path) -> Path:
    """Our pg_hba.conf in the cluster's home (nothing secret in it: readable by all)."""
    hba = home / HBA
    hba.write_text(_HBA_LINES)
    hba.chmod(0o644)
    return hba


def server_options(home: Path) -> str:
    """What `postgres` is started with, beside port and fsync."""
    return (
        f"-k {home} -c listen_addresses=127.0.0.1 -c hba_file={home / HBA} "
        f"-c unix_socket_permissions={SOCKET_MODE} -c password_encryption=scram-sha-256"
    )


def set_password(home: Path, port: int, secret: str) -> None:
    """Over the private socket: the role osae connects as gets the data folder's password."""
    with psycopg.connect(
        host=str(home), port=port, user="postgres", dbname="postgres", autocommit=True
    ) as conn:
        conn.execute(sql.SQL("ALTER ROLE postgres PASSWORD {}").format(sql.Literal(secret)))


def locked_down(url: str) -> bool:
    """Whether the server at ``url`` runs with our hba file (an older osae's did not)."""
    try:
        with psycopg.connect(url, connect_timeout=2) as conn:
            found = conn.execute("SHOW hba_file").fetchone()
    except psycopg.Error:
        return False
    return found is not None and str(found[0]).endswith(HBA)


def pg_url(port: int, secret: str | None, database: str = "postgres") -> str:
    who = f"postgres:{quote(secret, safe='')}" if secret else "postgres"
    return f"postgresql://{who}@127.0.0.1:{port}/{database}"


def redis_url(port: int, secret: str | None) -> str:
    who = f":{quote(secret, safe='')}@" if secret else ""
    return f"redis://{who}127.0.0.1:{port}/0"


def redis_config(folder: Path, secret: str) -> Path:
    """A config file (mode 0600) that gives Redis its password."""
    config = folder / "redis.conf"
    fd = os.open(config, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(f"requirepass {secret}\n")
    return config


def shown(url: str) -> str:
    """``url`` as it may be printed: its password as ``***``."""
    return re.sub(r"(://[^:/@]*):[^@/]+@", r"\1:***@", url)
