"""The log line of each hold action taken from Slack, with the fields every such line has."""

from __future__ import annotations

import logging

log = logging.getLogger("osae.bot")


def log_action(action: str, venue_id: str, user: str, hold_id: int | None, outcome: str) -> None:
    """``hold.<action>``: who acted on which hold, and how it went (``ok`` or a refusal code)."""
    log.info(
        f"hold.{action}",
        extra={
            "venue": venue_id,
            "hold_id": hold_id,
            "user": user,
            "action": action,
            "outcome": outcome,
        },
    )
