"""A message as the jobs send it: its notification text and its Block Kit blocks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Rendered:
    text: str  # the notification fallback (push notifications, screen readers)
    blocks: list[dict[str, Any]]
