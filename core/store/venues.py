"""Venues, their parts and rooms, as stored."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert

from core.errors import NoSchema, StaleVenue, VenueConflict
from core.model import (
    DEFAULT_KINDS,
    DEFAULT_SOURCES,
    EventKind,
    Kind,
    Policy,
    Room,
    Slot,
    Status,
    Venue,
)
from core.rules.reasons import DEFAULT_REASONS, Reason
from core.store.schema import hold_items, holds, parts, room_parts, rooms, venues


def policy_to_json(policy: Policy) -> dict[str, Any]:
    return {
        "max_rank": policy.max_rank,
        "hold_days": {k.value: v for k, v in policy.hold_days.items()},
        "banquet_open_days": policy.banquet_open_days,
        "priority_days": list(policy.priority_days),
        "max_extensions": policy.max_extensions,
        "horizon_days": policy.horizon_days,
        "show_rokuyo": policy.show_rokuyo,
        "max_items": policy.max_items,
        "max_candidates": policy.max_candidates,
        "deadline_time": policy.deadline_time,
        "closed_weekdays": sorted(policy.closed_weekdays),
        "kinds": [{"id": k.id, "name": k.name, "class": k.cls.value} for k in policy.kinds],
        "notify_first_of_second": policy.notify_first_of_second,
        "sources": [list(pair) for pair in policy.sources],
        "staff": dict(policy.staff),
        "nudge_days": policy.nudge_days,
        "deposit_days": policy.deposit_days,
        "reasons": [[r.code, r.name, r.loss] for r in policy.reasons],
        "max_event_hours": policy.max_event_hours,
    }


def policy_from_json(data: Mapping[str, Any]) -> Policy:
    return Policy(
        max_rank=data["max_rank"],
        hold_days={Kind(k): v for k, v in data["hold_days"].items()},
        banquet_open_days=data["banquet_open_days"],
        priority_days=tuple(data["priority_days"]),
        max_extensions=data["max_extensions"],
        horizon_days=data["horizon_days"],
        # rows saved before these settings existed get their defaults
        show_rokuyo=data.get("show_rokuyo", True),
        max_items=data.get("max_items", Policy.max_items),
        max_candidates=data.get("max_candidates", Policy.max_candidates),
        deadline_time=data.get("deadline_time"),
        closed_weekdays=frozenset(data.get("closed_weekdays", ())),
        kinds=tuple(EventKind(k["id"], k["name"], Kind(k["class"])) for k in data.get("kinds", ()))
        or DEFAULT_KINDS,
        notify_first_of_second=data.get("notify_first_of_second", True),
        sources=tuple((code, name) for code, name in data.get("sources", ())) or DEFAULT_SOURCES,
        staff=MappingProxyType(dict(data.get("staff", {}))),
        nudge_days=data.get("nudge_days", Policy.nudge_days),
        deposit_days=data.get("deposit_days"),
        reasons=tuple(Reason(c, n, loss) for c, n, loss in data.get("reasons", ()))
        or DEFAULT_REASONS,
        max_event_hours=data.get("max_event_hours", Policy.max_event_hours),
    )


def slots_to_json(slots: tuple[Slot, ...]) -> list[dict[str, Any]]:
    return [{"name": s.name, "start_min": s.start_min, "end_min": s.end_min} for s in slots]


def slots_from_json(data: list[dict[str, Any]]) -> tuple[Slot, ...]:
    return tuple(Slot(s["name"], s["start_min"], s["end_min"]) for s in data)


def revision(conn: sa.Connection, venue_id: str) -> int | None:
    """The venue's save counter: a cached ``Venue`` is current while this is unchanged."""
    found: int | None = conn.execute(
        sa.select(venues.c.revision).where(venues.c.id == venue_id)
    ).scalar()
    return found


def ensure_current(conn: sa.Connection, venue: Venue) -> None:
    """Raise ``StaleVenue`` if ``venue`` (a cached copy) is not the stored revision."""
    if revision(conn, venue.id) != venue.revision:
        raise StaleVenue(venue.id)


def load(conn: sa.Connection, venue_id: str) -> Venue | None:
    row = conn.execute(sa.select(venues).where(venues.c.id == venue_id)).first()
    if row is None:
        return None
    members: dict[str, set[str]] = {}
    for room_id, part_id in conn.execute(
        sa.select(room_parts.c.room_id, room_parts.c.part_id).where(
            room_parts.c.venue_id == venue_id
        )
    ):
        members.setdefault(room_id, set()).add(part_id)
    found = {
        r.id: Room(
            id=r.id,
            name=r.name,
            parts=frozenset(members.get(r.id, ())),
            turnover_min=r.turnover_min,
            position=r.position,
            active=r.active,
            capacity=r.capacity,
        )
        for r in conn.execute(sa.select(rooms).where(rooms.c.venue_id == venue_id))
    }
    return Venue(
        id=row.id,
        name=row.name,
        timezone=row.timezone,
        managers=frozenset(row.managers),
        policy=policy_from_json(row.policy),
        rooms=dict(sorted(found.items(), key=lambda kv: (kv[1].position, kv[0]))),
        revision=row.revision,
        slots=slots_from_json(row.slots),
        sales_channel=row.sales_channel,
        language=row.language,
    )


def ids(conn: sa.Connection) -> list[str]:
    """The loaded venues' ids; ``NoSchema`` when the statement cannot run (no tables)."""
    try:
        return list(conn.execute(sa.select(venues.c.id).order_by(venues.c.id)).scalars())
    except sa.exc.ProgrammingError as err:
        raise NoSchema(str(err.orig or err)) from err


def save(conn: sa.Connection, venue: Venue, now: datetime) -> None:
    """Insert or update a venue so that it matches ``venue``; rooms it no longer lists retire."""
    before = load(conn, venue.id)
    if before and before.timezone != venue.timezone and _has_live_holds(conn, venue.id):
        # Holds and the part-day rows are kept by venue-local day; a new zone would move them.
        raise VenueConflict(
            f"venue {venue.id!r} has live holds, so its time zone cannot change from "
            f"{before.timezone} to {venue.timezone}; release or cancel them first"
        )
    conn.execute(
        insert(venues)
        .values(
            id=venue.id,
            name=venue.name,
            timezone=venue.timezone,
            policy=policy_to_json(venue.policy),
            managers=sorted(venue.managers),
            slots=slots_to_json(venue.slots),
            sales_channel=venue.sales_channel,
            language=venue.language,
            revision=1,
            updated_at=now,
        )
        .on_conflict_do_update(
            index_elements=[venues.c.id],
            set_={
                "name": venue.name,
                "timezone": venue.timezone,
                "policy": policy_to_json(venue.policy),
                "managers": sorted(venue.managers),
                "slots": slots_to_json(venue.slots),
                "sales_channel": venue.sales_channel,
                "language": venue.language,
                "revision": venues.c.revision + 1,
                "updated_at": now,
            },
        )
    )
    old_rooms = before.rooms if before else {}
    all_parts = sorted({p for room in venue.rooms.values() for p in room.parts})
    if all_parts:
        conn.execute(
            insert(parts)
            .values([{"venue_id": venue.id, "id": p} for p in all_parts])
            .on_conflict_do_nothing()
        )
    for room in venue.rooms.values():
        _save_room(conn, venue.id, room, old_rooms.get(room.id))
    retired = [rid for rid in old_rooms if rid not in venue.rooms]
    if retired:
        conn.execute(
            rooms.update()
            .where(rooms.c.venue_id == venue.id, rooms.c.id.in_(retired))
            .values(active=False)
        )


def _save_room(conn: sa.Connection, venue_id: str, room: Room, old: Room | None) -> None:
    if old is not None and old.parts != room.parts and _has_live_holds(conn, venue_id, room.id):
        raise VenueConflict(
            f"room {room.id!r} has live holds, so its parts cannot change "
            f"from {sorted(old.parts)} to {sorted(room.parts)}; release or cancel them first"
        )
    values = {
        "name": room.name,
        "turnover_min": room.turnover_min,
        "position": room.position,
        "active": True,
        "capacity": room.capacity,
    }
    conn.execute(
        insert(rooms)
        .values(venue_id=venue_id, id=room.id, **values)
        .on_conflict_do_update(index_elements=[rooms.c.venue_id, rooms.c.id], set_=values)
    )
    if old is not None and old.parts == room.parts:
        return
    conn.execute(
        room_parts.delete().where(
            room_parts.c.venue_id == venue_id, room_parts.c.room_id == room.id
        )
    )
    conn.execute(
        room_parts.insert(),
        [{"venue_id": venue_id, "room_id": room.id, "part_id": p} for p in sorted(room.parts)],
    )


def _has_live_holds(conn: sa.Connection, venue_id: str, room_id: str | None = None) -> bool:
    query = sa.select(holds.c.id).where(
        holds.c.venue_id == venue_id, holds.c.status.in_([Status.TENTATIVE, Status.CONFIRMED])
    )
    if room_id is not None:
        query = query.where(
            sa.exists().where(
                hold_items.c.venue_id == holds.c.venue_id,
                hold_items.c.hold_id == holds.c.id,
                hold_items.c.room_id == room_id,
            )
        )
    return conn.execute(query.limit(1)).first() is not None
