"""Running `osae` commands as child processes, as an operator would."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import ClassVar

REPO = Path(__file__).resolve().parents[2]


def osae_env(**values: str) -> dict[str, str]:
    """The environment minus anything that points at the developer's own services."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SLACK_", "OSAE_")) and k not in ("DATABASE_URL", "REDIS_URL")
    }
    env.update(values)
    env["PYTHONUNBUFFERED"] = "1"
    return env


OSAE = [sys.executable, "-m", "cli.main"]
DEV_PY = [sys.executable, str(REPO / "dev.py")]  # as a newcomer runs it: `python3 dev.py run`


class Child:
    """One `osae ...` process (or `dev.py ...`); its output goes to files the test can read.
    Every Child is remembered, so a failing test leaves none running (``stop_leftovers``)."""

    started: ClassVar[list[Child]] = []

    def __init__(
        self, args: list[str], env: dict[str, str], logs: Path, program: list[str] = OSAE
    ) -> None:
        logs.mkdir(parents=True, exist_ok=True)
        self.out = logs / f"{args[0]}-{time.monotonic_ns()}.out"
        self.err = self.out.with_suffix(".err")
        self.proc = subprocess.Popen(
            [*program, *args],
            cwd=REPO,
            env=env,
            stdout=self.out.open("w"),
            stderr=self.err.open("w"),
        )
        Child.started.append(self)

    def output(self) -> str:
        return self.out.read_text() + self.err.read_text()

    def wait_for_output(self, text: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output():
            if self.proc.poll() is not None:
                raise AssertionError(f"exited {self.proc.returncode}:\n{self.output()[-3000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {text!r} in {timeout}s:\n{self.output()[-3000:]}")
            time.sleep(0.05)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
                raise AssertionError(f"did not stop on {sig}:\n{self.output()[-3000:]}") from None
        return self.proc.returncode


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` now (servers that detached themselves are not among them)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except (OSError, IndexError, ValueError):
                continue
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def servers(data: Path, serve: int) -> set[int]:
    """Every process `osae serve` started with ``data``: its children, and the servers that
    detached (PostgreSQL, Redis), by their pid files."""
    found = descendants(serve) | {serve}
    for pidfile in (data / "pgdata" / "postmaster.pid", data / "redis" / "redis.pid"):
        if pidfile.exists():
            found.add(int(pidfile.read_text().split()[0]))
    return found


def stop_leftovers() -> None:
    """Ctrl-C to every Child a test left running (it then stops its own servers)."""
    while Child.started:
        child = Child.started.pop()
        if child.proc.poll() is None:
            # Killed after the timeout if need be; the test has failed already then.
            with contextlib.suppress(AssertionError):
                child.stop(signal.SIGINT, timeout=60)
