"""Socket Mode: the same Bolt app over a WebSocket, for running without a public URL."""

from __future__ import annotations

from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler

# The client pings Slack this often and gives up on a link after about four unanswered
# intervals: a dropped socket is replaced in ~10 s instead of ~50 s with the default 10.
PING_SECONDS = 2.0


def run_socket_mode(app: App, app_token: str) -> None:
    """Connect with the app-level token (``xapp-…``, scope ``connections:write``) and serve
    until interrupted."""
    SocketModeHandler(app, app_token, ping_interval=PING_SECONDS).start()  # type: ignore[no-untyped-call]
