"""A client that drips bytes is closed after a bounded wait, an idle one too, and one client
holds a bounded number of connections, while others are served as before."""

from __future__ import annotations

import json
import socket
import time
import urllib.request
from typing import Any

from bot import web_limits
from bot.web import Server, build_wsgi


def healthy() -> tuple[bool, dict[str, Any]]:
    return True, {"database": "ok"}


def closed_by_server(sock: socket.socket, within: float) -> float | None:
    """Seconds until the server closed ``sock`` (recv gives b"" or a reset), else None."""
    started = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - started < within:
        try:
            if sock.recv(1024) == b"":
                return time.monotonic() - started
        except TimeoutError:
            continue
        except ConnectionResetError:
            return time.monotonic() - started
    return None


def closed_now(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` already (without waiting)."""
    sock.setblocking(False)
    try:
        return sock.recv(1024) == b""
    except BlockingIOError:
        return False
    except ConnectionResetError:
        return True
    finally:
        sock.setblocking(True)


def answers(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/healthz", timeout=5) as answer:  # noqa: S310
        return dict(json.loads(answer.read()))


def test_a_client_dripping_bytes_is_closed_and_others_are_served() -> None:
    with Server(build_wsgi(None, healthy)) as server:
        host, port = server.url.removeprefix("http://").split(":")
        drips = [socket.create_connection((host, int(port))) for _ in range(5)]
        started = time.monotonic()
        request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200
        sent = 0
        open_ = list(drips)
        while open_ and time.monotonic() - started < web_limits.REQUEST_DEADLINE + 6:
            for sock in list(open_):
                try:
                    sock.sendall(request[sent : sent + 1])
                except OSError:
                    open_.remove(sock)
            sent += 1
            assert answers(server.url)["ok"] is True, "served while the slow ones drip"
            time.sleep(0.3)
        took = time.monotonic() - started
        assert open_ == [], f"{len(open_)} dripping connections still open after {took:.1f}s"
        assert took <= web_limits.REQUEST_DEADLINE + 3
        for sock in drips:
            sock.close()


def test_one_client_holds_a_bounded_number_of_connections() -> None:
    with Server(build_wsgi(None, healthy)) as server:
        host, port = server.url.removeprefix("http://").split(":")
        held = [
            socket.create_connection((host, int(port))) for _ in range(web_limits.PER_CLIENT + 5)
        ]
        try:
            time.sleep(1.0)
            refused = [s for s in held if closed_now(s)]
            assert len(refused) == 5, f"{len(refused)} of {len(held)} closed"
            kept = [s for s in held if s not in refused]
            # the ones kept are idle: closed after IDLE, not held forever
            waited = closed_by_server(kept[0], within=web_limits.IDLE + 5)
            assert waited is not None, "an idle connection is closed"
            assert answers(server.url)["ok"] is True
        finally:
            for sock in held:
                sock.close()
