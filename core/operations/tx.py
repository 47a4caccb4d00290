"""What an operation is given: its transaction and the venue as that transaction sees it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from core.journal import Journal
from core.model import Venue


@dataclass(frozen=True)
class Snapshot:
    """A consistent view of one venue: what reads (previews, lists, dry runs) are given."""

    conn: sa.Connection
    venue: Venue


@dataclass(frozen=True)
class Tx(Snapshot):
    """One attempt of a write: events go to ``journal``, written when the operation answers."""

    now: datetime
    attempt: int  # 1, then 2, ... when a conflict made the unit of work start again
    journal: Journal
