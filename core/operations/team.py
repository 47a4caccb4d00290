"""Reads of the whole team's ledger, as managers see it (docs/rules.md, The team's ledger).

Each is a handful of statements on one read-only snapshot, whatever the number of holds: a
day is one read of its holds; a manager's home is the deadlines, the waiting holds, the holds
ahead of them (one span read, one hold read) and one count of the month's audit events.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, datetime, time, timedelta

from core.events import Action
from core.ledger_views import Booking, DayLedger, MonthCounts, RoomDay, TeamHome
from core.model import Hold, HoldItem, Room
from core.operations.tx import Snapshot
from core.results import Waiting
from core.rules.reasons import not_losses
from core.rules.requests import spans_of
from core.store import audit, deposits, holds

WEEK = timedelta(days=7)


def day(snap: Snapshot, on: date, rooms: Collection[str] | None = None) -> DayLedger:
    """Each active room (or only ``rooms``) with every live item that takes one of its parts
    on that local day, turnover included, in time order. A hold of the day before that runs
    past midnight shows too."""
    venue = snap.venue
    tz = venue.tz
    start = datetime.combine(on, time(), tz)
    until = datetime.combine(on + timedelta(days=1), time(), tz)
    found = holds.live_on(snap.conn, venue, [on - timedelta(days=1), on])
    items = [
        (h, item)
        for h in found
        for item in h.items
        if item.start_at < until and item.span_end > start
    ]
    shown = sorted(
        (r for r in venue.rooms.values() if r.active and (rooms is None or r.id in rooms)),
        key=lambda r: (r.position, r.id),
    )
    return DayLedger(on, tuple(RoomDay(room, _bookings(room, items)) for room in shown))


def _bookings(room: Room, items: list[tuple[Hold, HoldItem]]) -> tuple[Booking, ...]:
    taking = [
        Booking(h, item, shared=item.room_id != room.id)
        for h, item in items
        if item.parts & room.parts
    ]
    return tuple(sorted(taking, key=lambda b: (b.item.start_at, b.hold.id)))


def home(snap: Snapshot, now: datetime) -> TeamHome:
    """The team's 1st holds due today and within the week, every 2nd queue, this month."""
    tz = snap.venue.tz
    today = now.astimezone(tz).date()
    tonight = datetime.combine(today + timedelta(days=1), time(), tz)
    week_end = datetime.combine(today + WEEK, time(), tz)
    due = holds.firsts_due(snap.conn, snap.venue, week_end, after=now)
    return TeamHome(
        today=tuple(h for h in due if h.expires_at is not None and h.expires_at < tonight),
        week=tuple(h for h in due if h.expires_at is not None and h.expires_at >= tonight),
        queues=tuple(queues(snap, today)),
        month=month(snap, today.year, today.month),
        overdue=tuple(deposits.past_due(snap.conn, snap.venue, today, told=None)),
    )


def queues(snap: Snapshot, since: date) -> list[Waiting]:
    """Every waiting hold from ``since`` on with the holds whose blocking item is in its way
    (three statements for all of them)."""
    waiting = holds.waiting(snap.conn, snap.venue, since)
    spans = [s for h in waiting for s in spans_of(h)]
    occupants = [o for o in holds.occupants(snap.conn, snap.venue, spans) if o.first or o.confirmed]
    ahead = {h.id: h for h in holds.get_many(snap.conn, snap.venue, {o.hold_id for o in occupants})}
    result = []
    for h in waiting:
        mine = spans_of(h)
        ids = sorted(
            {
                o.hold_id
                for o in occupants
                if o.hold_id != h.id and any(o.span.conflicts(s) for s in mine)
            }
        )
        result.append(Waiting(h, tuple(ahead[i] for i in ids if i in ahead)))
    return result


def month(snap: Snapshot, year: int, number: int) -> MonthCounts:
    """Confirmed, expired, released, lost and cancelled in a venue-local month."""
    tz = snap.venue.tz
    first = date(year, number, 1)
    following = date(year + number // 12, number % 12 + 1, 1)
    start, until = datetime.combine(first, time(), tz), datetime.combine(following, time(), tz)
    counted, house = audit.counts(snap.conn, snap.venue.id, start, until)
    by_reason, replaced = audit.month_reasons(snap.conn, snap.venue.id, start, until)
    return MonthCounts(
        month=f"{year:04d}-{number:02d}",
        start=start,
        until=until,
        confirmed=counted.get(Action.CONFIRMED, 0),
        expired=counted.get(Action.EXPIRED, 0),
        released=counted.get(Action.RELEASED, 0),
        lost=counted.get(Action.LOST, 0) + counted.get(Action.OTHER_DATE_CHOSEN, 0),
        cancelled=counted.get(Action.CANCELLED, 0),
        by_reason=by_reason,
        replaced=replaced,
        other_date_chosen=counted.get(Action.OTHER_DATE_CHOSEN, 0),
        house_held=house.get(Action.REQUESTED, 0),
        house_released=house.get(Action.RELEASED, 0),
        no_loss=not_losses(snap.venue.policy.reasons),
    )
