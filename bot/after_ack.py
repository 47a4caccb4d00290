"""Work that follows an ack (posting, App Home, preview updates) runs on its own threads.

Bolt runs each listener on a pool of threads and a listener cannot ack before it has one. If
the listeners also did their slow after-ack work there (Slack calls, App Home queries), a
burst of requests would wait behind the previous burst's posting. Here that work gets a pool
of its own, so the listener pool is free for acks; a failure still reaches the one error
handler, as an unacknowledged listener's would.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from slack_bolt import BoltResponse
from slack_sdk import WebClient

ErrorHandler = Callable[[Exception, dict[str, Any], BoltResponse | None, WebClient], object]

log = logging.getLogger("osae.bot")


class AfterAck:
    def __init__(self, on_error: ErrorHandler, threads: int = 8) -> None:
        self.on_error = on_error
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="osae-after-ack")
        self._pending = 0
        self._idle = threading.Condition()

    def __call__(self, body: dict[str, Any], client: WebClient, work: Callable[[], None]) -> None:
        with self._idle:
            self._pending += 1
        self._pool.submit(self._guarded, body, client, work)

    def drain(self, timeout: float = 30.0) -> bool:
        """Wait until all the work handed over so far is done (also work that work handed
        over); False if some is still running after ``timeout`` seconds."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

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
