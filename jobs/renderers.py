"""What the courier is handed to draw its messages with (``bot.notices`` and
``bot.card_notices``, given by the composition root: the jobs import nothing of the bot)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Protocol
from zoneinfo import ZoneInfo

from core.model import Hold
from core.notices import Notice
from jobs.transport import Message


class RenderNotice(Protocol):
    """Raises ValueError for a row it cannot render (unknown kind, unreadable payload)."""

    def __call__(
        self, notice: Notice, *, tz: ZoneInfo, locale: str, rokuyo: bool, now: datetime
    ) -> Message: ...


class RenderReport(Protocol):
    def __call__(
        self, notices: list[Notice], *, tz: ZoneInfo, locale: str, rokuyo: bool, now: datetime
    ) -> Message: ...


class RenderCard(Protocol):
    """A hold's card as it stands (``extend``: its Extend button can still act), its dates
    as the venue shows them (``rokuyo``) at ``now``; ``capacities`` (room id: seated guests)
    warn of guests over a room's."""

    def __call__(
        self,
        hold: Hold,
        *,
        tz: ZoneInfo,
        locale: str,
        extend: bool,
        rokuyo: bool,
        now: datetime,
        capacities: Mapping[str, int] | None = None,
    ) -> Message: ...


class RenderCardLine(Protocol):
    """A card row's line in the card's thread, or None (a new card says it all itself)."""

    def __call__(
        self, notice: Notice, *, tz: ZoneInfo, locale: str, rokuyo: bool, now: datetime
    ) -> Message | None: ...
