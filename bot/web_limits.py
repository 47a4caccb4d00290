"""Bounds on what one HTTP client can hold of the web server (waitress).

waitress closes a connection only once it has been idle for ``channel_timeout``: a client
that drips a byte every few seconds is never idle and holds its connection, and a thread's
worth of buffers, forever. Here each request must arrive whole within ``REQUEST_DEADLINE``
of its first byte, an idle connection is closed after ``IDLE``, and one client address holds
at most ``PER_CLIENT`` connections at once (more are closed on accept, before any read).
Slack's requests are small and sent at once; behind a router, its addresses are the clients.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from waitress.channel import HTTPChannel

log = logging.getLogger("osae.web")

IDLE = 15  # seconds: a kept-alive connection with nothing to do (waitress's channel_timeout)
REQUEST_DEADLINE = 10.0  # seconds from a request's first byte to its last
PER_CLIENT = 64  # connections one address may hold at once (of waitress's 100 in all; benches
# send 20 at once from one address, with keep-alive)


def adjustments() -> dict[str, Any]:
    """What ``create_server`` is given: idle connections looked at every second."""
    return {"channel_timeout": IDLE, "cleanup_interval": 1}


class Limits:
    """Called by the server's own loop thread (``sweep``) and at each accept."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self._reading: dict[int, tuple[object, float]] = {}  # channel -> (its request, since)
        accept = server.handle_accept

        def handle_accept() -> None:
            before = set(server._map)
            accept()
            for fd in set(server._map) - before:
                self._admit(server._map[fd])

        server.handle_accept = handle_accept

    def sweep(self, now: float | None = None) -> None:
        """Close every connection whose request has been arriving for too long."""
        now = time.monotonic() if now is None else now
        channels = {id(c): c for c in self.server._map.values() if isinstance(c, HTTPChannel)}
        for key in set(self._reading) - set(channels):
            del self._reading[key]
        for key, channel in channels.items():
            request = channel.request  # the request being read, None between requests
            if request is None:
                self._reading.pop(key, None)
                continue
            seen, since = self._reading.setdefault(key, (request, now))
            if seen is not request:
                self._reading[key] = (request, now)
            elif now - since > REQUEST_DEADLINE:
                self._close(channel, "slow_request")

    def _admit(self, channel: object) -> None:
        if not isinstance(channel, HTTPChannel):
            return
        address = _address(channel)
        held = sum(
            1
            for other in self.server._map.values()
            if isinstance(other, HTTPChannel) and _address(other) == address
        )
        if held > PER_CLIENT:
            self._close(channel, "too_many_connections")

    def _close(self, channel: HTTPChannel, why: str) -> None:
        log.warning("web.connection_closed", extra={"outcome": why, "client": _address(channel)})
        self._reading.pop(id(channel), None)
        channel.close()


def _address(channel: HTTPChannel) -> str:
    addr = channel.addr
    return str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)
