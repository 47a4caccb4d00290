"""Where the outbox's messages go: one small interface, whatever carries them.

The Courier claims, leases, retries and records notices the same way whichever transport it
is given: :class:`jobs.slack_post.SlackDM` (a DM through the Web API) or
:class:`jobs.console.Console` (a block on the terminal, when osae runs without Slack).
A transport says how a send went with one of the outcomes below; the Courier decides what
the row does next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from core.notices import Notice


class Message(Protocol):
    """A message as ``bot.notices`` renders it: the fallback text and Block Kit blocks."""

    @property
    def text(self) -> str: ...
    @property
    def blocks(self) -> Sequence[dict[str, Any]]: ...


@dataclass(frozen=True)
class Delivered:
    channel: str  # where it went: a Slack DM channel id, or "console"
    ref: str  # its reference there: Slack's ts, or the console's sequence


@dataclass(frozen=True)
class RateLimited:
    retry_after: float  # seconds
    error: str = "ratelimited"


@dataclass(frozen=True)
class Transient:
    error: str


@dataclass(frozen=True)
class Permanent:
    error: str
    token_refused: bool = False  # every other send would be refused too


DeliveryOutcome = Delivered | RateLimited | Transient | Permanent


class Transport(Protocol):
    """Delivers one rendered message to one person (or channel), in their language."""

    @property
    def timeout(self) -> float:
        """Seconds one send may take at most: a send starts only if it ends inside the lease."""
        ...

    def locale(self, recipient: str) -> str:
        """The recipient's language (``ja-JP``, ``en-US``, ``ja``...) to render in."""
        ...

    def send(
        self, to: str, message: Message, *, notice: Notice | None = None, thread: str | None = None
    ) -> DeliveryOutcome:
        """``notice`` is the outbox row when the message is one (not a failure report);
        ``thread``: the ts of the message to reply under (a card's thread)."""
        ...

    def update(self, channel: str, ts: str, message: Message, *, notice: Notice) -> DeliveryOutcome:
        """Redraw a message in place (a hold's card): sent again, the same message results."""
        ...
