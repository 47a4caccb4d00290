"""The engine as tests call it: ``HoldEngine`` with each role's operations under the
engine's own name as well (``engine.request`` is ``engine.writes.request``, ``engine.holds``
is ``engine.reads.holds``), so a test says what it does, not which role does it.

Only tests use this: production code is handed the role it needs (docs/architecture.md).
``sweep`` is the sweep job's loop (``jobs.sweeping``), as ``osae sweep`` runs it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from core.engine import HoldEngine
from core.results import Refused, Swept
from jobs import sweeping


class EngineForTests(HoldEngine):
    def __getattr__(self, name: str) -> Any:
        # Only for names the engine itself lacks, and only once its roles are built.
        roles = [self.__dict__.get(r) for r in ("writes", "reads", "venues", "delivery", "pings")]
        if not name.startswith("_"):
            for role in roles:
                if role is not None and callable(getattr(type(role), name, None)):
                    return getattr(role, name)
        raise AttributeError(f"no operation {name!r} on any role of the engine")

    def sweep(
        self, venue_id: str, *, now: datetime, batch: int = sweeping.BATCH
    ) -> Swept | Refused:
        return sweeping.sweep(self.writes, venue_id, now=now, batch=batch)
