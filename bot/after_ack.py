"""Work that follows an ack (posting, App Home, preview updates) runs on its own threads.

Bolt runs each listener on a pool of threads and a listener cannot ack before it has one. If
the listeners also did their slow after-ack work there (Slack calls, App Home queries), a
burst of requests would wait behind the previous burst's posting. Here that work gets a pool
of its own, so the listener pool is free for acks; a failure still reaches the one error
handler, as an unacknowledged listener's would.

It also yields to the acks: all of it shares one interpreter, so work that ran while Slack
requests were still being answered slowed every answer of a rush (twenty salespeople
submitting at once) by its own CPU. Handed-over work starts once no request is being answered
(``answering``), or after ``patience`` seconds under a load that never pauses.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from slack_bolt import BoltResponse
from slack_sdk import WebClient

ErrorHandler = Callable[[Exception, dict[str, Any], BoltResponse | None, WebClient], object]

log = logging.getLogger("osae.bot")


class AfterAck:
    def __init__(self, on_error: ErrorHandler, threads: int = 8, patience: float = 1.0) -> None:
        self.on_error = on_error
        self.patience = patience
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="osae-after-ack")
        self._pending = 0
        self._idle = threading.Condition()
        self._answering = 0
        self._quiet = threading.Condition()

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Around a Slack request until its answer is written: work waits for none."""
        with self._quiet:
            self._answering += 1
        try:
            yield
        finally:
            with self._quiet:
                self._answering -= 1
                if not self._answering:
                    self._quiet.notify_all()

    def __call__(self, body: dict[str, Any], client: WebClient, work: Callable[[], None]) -> None:
        with self._idle:
            self._pending += 1
        self._pool.submit(self._when_quiet, body, client, work)

    def drain(self, timeout: float = 30.0) -> bool:
        """Wait until all the work handed over so far is done (also work that work handed
        over); False if some is still running after ``timeout`` seconds."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def _when_quiet(
        self, body: dict[str, Any], client: WebClient, work: Callable[[], None]
    ) -> None:
        with self._quiet:
            self._quiet.wait_for(lambda: not self._answering, timeout=self.patience)
        self._guarded(body, client, work)

    def _guarded(self, body: dict[str, Any], client: WebClient, work: Callable[[], None]) -> None:
        try:
            work()
        except Exception as err:  # noqa: BLE001 - handed to the error handler, like Bolt does
            try:
                self.on_error(err, body, None, client)
            except Exception:
                log.exception("bot.error_handler_failed")
        finally:
            with self._idle:
                self._pending -= 1
                self._idle.notify_all()
