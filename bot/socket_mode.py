"""Socket Mode: the same Bolt app over a WebSocket, for running without a public URL.

The socket itself is authenticated (the app-level token), so there is no signature to check;
each payload still goes through the same shape checks as an HTTP body (``bot.payloads``),
and a malformed one is logged and left unanswered, as HTTP answers it 400.
"""

from __future__ import annotations

import logging

from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_sdk.socket_mode.builtin import SocketModeClient
from slack_sdk.socket_mode.request import SocketModeRequest

from bot.payloads import check
from bot.shapes import Malformed

log = logging.getLogger("osae.bot")


class CheckedSocketModeHandler(SocketModeHandler):
    def handle(self, client: SocketModeClient, req: SocketModeRequest) -> None:  # type: ignore[override]
        try:
            check(req.payload)
        except Malformed as err:
            log.warning("socket.malformed", extra={"where": err.where, "why": err.why})
            return
        super().handle(client, req)


# The client pings Slack this often and gives up on a link after about four unanswered
# intervals: a dropped socket is replaced in ~10 s instead of ~50 s with the default 10.
PING_SECONDS = 2.0


def run_socket_mode(app: App, app_token: str) -> None:
    """Connect with the app-level token (``xapp-…``, scope ``connections:write``) and serve
    until interrupted."""
    CheckedSocketModeHandler(app, app_token, ping_interval=PING_SECONDS).start()  # type: ignore[no-untyped-call]
