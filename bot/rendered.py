"""A message as the jobs send it: its notification text and its Block Kit blocks; and what a
renderer of a notice is (``bot.notices`` and the modules it registers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from bot.texts.dates import DateStyle


@dataclass(frozen=True)
class Rendered:
    text: str  # the notification fallback (push notifications, screen readers)
    blocks: list[dict[str, Any]]


Payload = dict[str, Any]
Renderer = Callable[[Payload, ZoneInfo, str | None, DateStyle, datetime], Rendered]
