"""A venue as the document its venue file holds: ``parse_venue(document(v))`` is ``v`` again.

What ``osae venue export`` writes (as TOML) and what the venue setup in Slack edits before
it is checked by ``core.venue_file.parse_venue``, exactly as a file loaded from the terminal
is: one set of checks for every way a venue comes in.
"""

from __future__ import annotations

from typing import Any

from core.model import DEFAULT_SOURCES, Policy, Room, Slot, Venue
from core.rules.reasons import DEFAULT_REASONS
from core.rules.spans import MINUTES_PER_DAY
from core.venue_file import WEEKDAYS


def document(venue: Venue) -> dict[str, Any]:
    """The venue's file as a dict of TOML-able values: the active rooms in menu order."""
    head: dict[str, Any] = {
        "id": venue.id,
        "name": venue.name,
        "timezone": venue.timezone,
        "managers": sorted(venue.managers),
    }
    if venue.sales_channel:
        head["sales_channel"] = venue.sales_channel
    if venue.language:
        head["language"] = venue.language
    doc: dict[str, Any] = {"venue": head, "policy": _policy(venue.policy)}
    doc["kinds"] = [{"id": k.id, "name": k.name, "class": k.cls.value} for k in venue.policy.kinds]
    if venue.policy.sources != DEFAULT_SOURCES:
        doc["sources"] = [{"code": c, "name": n} for c, n in venue.policy.sources]
    if venue.policy.reasons != DEFAULT_REASONS:
        doc["reasons"] = [
            {"code": r.code, "name": r.name, "loss": r.loss} for r in venue.policy.reasons
        ]
    if venue.policy.staff:
        doc["staff"] = [{"id": u, "name": n} for u, n in sorted(venue.policy.staff.items())]
    if venue.slots:
        doc["slots"] = [_slot(s) for s in venue.slots]
    doc["rooms"] = [room_entry(r) for r in venue.rooms.values() if r.active]
    return doc


def room_entry(room: Room) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": room.id,
        "name": room.name,
        "parts": sorted(room.parts),
        "turnover_min": room.turnover_min,
    }
    if room.capacity is not None:
        entry["capacity"] = room.capacity
    return entry


def _policy(policy: Policy) -> dict[str, Any]:
    out: dict[str, Any] = {
        "max_rank": policy.max_rank,
        "hold_days": {kind.value: days for kind, days in sorted(policy.hold_days.items())},
        "banquet_open_days": policy.banquet_open_days,
        "priority_days": list(policy.priority_days),
        "max_extensions": policy.max_extensions,
        "horizon_days": policy.horizon_days,
        "show_rokuyo": policy.show_rokuyo,
        "max_items": policy.max_items,
        "max_candidates": policy.max_candidates,
        "closed_weekdays": [WEEKDAYS[d] for d in sorted(policy.closed_weekdays)],
        "notify_first_of_second": policy.notify_first_of_second,
    }
    if policy.deadline_time is not None:
        out["deadline_time"] = _clock(policy.deadline_time)
    if (
        policy.nudge_days != Policy.nudge_days
    ):  # written only when set: older files stay as they were
        out["nudge_days"] = policy.nudge_days
    if policy.deposit_days is not None:  # unset: no deposits, and no key
        out["deposit_days"] = policy.deposit_days
    if policy.max_event_hours != Policy.max_event_hours:  # as nudge_days: only when set
        out["max_event_hours"] = policy.max_event_hours
    return out


def _slot(slot: Slot) -> dict[str, Any]:
    entry = {"name": slot.name, "start": _clock(slot.start_min)}
    if slot.end_min != MINUTES_PER_DAY:  # without an end a slot runs to midnight
        entry["end"] = _clock(slot.end_min % MINUTES_PER_DAY)
    return entry


def _clock(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"
