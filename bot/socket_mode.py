"""Socket Mode: the same Bolt app over a WebSocket, for running without a public URL."""

from __future__ import annotations

from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler


def run_socket_mode(app: App, app_token: str) -> None:
    """Connect with the app-level token (``xapp-…``, scope ``connections:write``) and serve
    until interrupted."""
    SocketModeHandler(app, app_token).start()  # type: ignore[no-untyped-call]
