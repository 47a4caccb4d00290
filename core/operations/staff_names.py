"""People by name (docs/rules.md, The booking record): Slack's display names as cached, and
the venue file's [[staff]] for people without Slack."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from core.operations.tx import Snapshot, Tx
from core.store import staff_names

# A cached name is asked of Slack again once it is this old (people rename themselves).
REFRESH_AFTER = timedelta(days=1)


def names(snap: Snapshot) -> dict[str, str]:
    """Every name known: the venue file's [[staff]], then Slack's where it gave one."""
    return {**snap.venue.policy.staff, **staff_names.known(snap.conn, snap.venue.id)}


def stale(snap: Snapshot, users: frozenset[str], now: datetime) -> frozenset[str]:
    """Of ``users``, those whose Slack name is not cached or is older than a day."""
    fresh = staff_names.known(snap.conn, snap.venue.id, since=now - REFRESH_AFTER)
    return frozenset(u for u in users if u not in fresh)


def remember(tx: Tx, found: Mapping[str, str]) -> int:
    staff_names.remember(tx.conn, tx.venue.id, found, tx.now)
    return len(found)
