"""What one drain of a venue's outbox did: the courier's tally, which the actor logs and
follows up on."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class Drained:
    """What one drain did. ``more``: it stopped with due rows possibly left; ``due``: when
    the rows it put off become due (someone must drain then)."""

    sent: int = 0
    failed: int = 0
    more: bool = False
    due: list[datetime] = field(default_factory=list)

    @property
    def deferred(self) -> int:
        return len(self.due)

    def defer_until(self, at: datetime) -> None:
        self.due.append(at)
