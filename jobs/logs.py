"""The fields every job log line carries (``extra=``), so they can be searched alike."""

from __future__ import annotations

from typing import Any


def fields(venue_id: str, action: str, outcome: str, **more: Any) -> dict[str, Any]:
    return {"venue": venue_id, "action": action, "outcome": outcome, **more}
