"""`osae serve` watching its own parts: one that died (its PostgreSQL, its Redis, the worker)
is started again where it was, with a line before and after; one that cannot be started
again stops `osae serve` with one line saying why, rather than serving half a stack.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from cli import ops_texts

log = logging.getLogger(__name__)

EVERY = 0.5  # seconds between looks: a part is back well within the 10 s promised
ATTEMPTS = 8  # starts tried before giving up on a part (a killed postmaster's children may
# hold its shared memory for a moment)
PAUSE = 0.5  # seconds between attempts


@dataclass(frozen=True)
class Watched:
    part: str  # its name for people: a key of ``cli.ops_texts`` ("part.postgres")
    alive: Callable[[], bool]
    restart: Callable[[], None]
    after: Callable[[], None] = lambda: None  # what the others need once it is back


class Supervisor:
    """A background thread; ``failed`` holds the line said when it gave up."""

    def __init__(
        self,
        watched: list[Watched],
        say: Callable[[str], None],
        *,
        command: str,
        every: float = EVERY,
    ) -> None:
        self.watched, self.say, self.command, self.every = watched, say, command, every
        self.failed: str | None = None
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="osae-supervisor", daemon=True)

    def start(self) -> Supervisor:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Before anything is stopped on purpose: nothing is started again after this."""
        self._stopping.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self._stopping.wait(self.every):
            for watched in self.watched:
                if self._stopping.is_set():
                    return
                if not watched.alive() and not self._revive(watched):
                    return

    def _revive(self, watched: Watched) -> bool:
        name = ops_texts.say(watched.part)
        self.say(ops_texts.say("part.died", part=name))
        log.info("part died", extra={"action": "serve.revive", "part": watched.part})
        started = time.monotonic()
        reason = ""
        for _ in range(ATTEMPTS):
            if self._stopping.is_set():
                return False
            try:
                watched.restart()
            except Exception as err:  # noqa: BLE001 - any failure to start is said, once
                reason = str(err).strip().splitlines()[0] if str(err).strip() else repr(err)
                time.sleep(PAUSE)
                continue
            watched.after()
            took = time.monotonic() - started
            self.say(ops_texts.say("part.back", part=name, seconds=took))
            return True
        self.failed = ops_texts.say("part.gave_up", part=name, reason=reason, command=self.command)
        self.say(self.failed)
        self._stopping.set()
        # The one way `osae serve` stops: as on Ctrl-C. A real SIGINT to the main thread, as
        # _thread.interrupt_main() would not wake its sleep.
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
        return False
