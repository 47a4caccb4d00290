"""What people do to a hold: confirm (and its dry run), release, extend, cancel."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

import sqlalchemy as sa

from core.model import Hold, Status, Venue
from core.notices import NoticeKind, event, notice
from core.operations.promotion import promote_after, waiting_behind
from core.results import (
    Cancelled,
    Code,
    Confirmed,
    ConfirmPlan,
    Extended,
    Refused,
    Released,
)
from core.rules.deadlines import extended_deadline
from core.rules.promotion import new_ranks
from core.rules.requests import span_of
from core.rules.spans import merge, part_days, span_counts, touch
from core.store import audit, holds, ledger, outbox


def confirm(
    conn: sa.Connection, venue: Venue, hold_id: int, actor: str, now: datetime
) -> Confirmed | Refused:
    target = _confirm_target(conn, venue, hold_id, actor, now)
    if isinstance(target, Refused):
        return target
    hold, losers = target
    bumped = _bump(conn, venue, touching=[hold], leaving=losers)
    loser_ids = [h.id for h in losers]
    holds.leave(conn, venue, loser_ids, Status.RELEASED, now)
    released = [h.left(Status.RELEASED, now) for h in losers]
    holds.confirm(conn, venue, hold.id, now)
    confirmed = _reload(conn, venue, hold.id)
    outbox.add(
        conn, venue.id, [notice(NoticeKind.LOST, h, winner=confirmed) for h in released], now
    )
    audit.record(
        conn,
        venue.id,
        [event(hold, actor, "confirmed", now, released=loser_ids)]
        + [event(h, actor, "lost", now, winner=hold.id) for h in released],
    )
    promoted = promote_after(conn, venue, released, bumped, now, actor)
    return Confirmed(confirmed, tuple(released), tuple(promoted))


def confirm_plan(
    conn: sa.Connection, venue: Venue, hold_id: int, actor: str, now: datetime
) -> ConfirmPlan | Refused:
    """What confirming would do, read-only: the holds it releases and the ones it promotes."""
    target = _confirm_target(conn, venue, hold_id, actor, now)
    if isinstance(target, Refused):
        return target
    hold, losers = target
    gone = {h.id for h in losers}
    waiting = waiting_behind(conn, venue, losers)
    around = holds.occupants(conn, venue, [span_of(h) for h in waiting])
    moves = new_ranks(waiting, around, gone)
    return ConfirmPlan(hold, tuple(losers), tuple(h for h, rank in moves if rank == 1))


def release(
    conn: sa.Connection, venue: Venue, hold_id: int, actor: str, now: datetime
) -> Released | Refused:
    """The customer declined: the hold goes, whoever waited behind it may move up."""
    hold = _actionable(conn, venue, hold_id, actor)
    if isinstance(hold, Refused):
        return hold
    if hold.status is not Status.TENTATIVE:
        return Refused(Code.ALREADY_DECIDED, hold=hold)
    bumped = _bump(conn, venue, leaving=[hold])
    holds.leave(conn, venue, [hold.id], Status.RELEASED, now)
    audit.record(conn, venue.id, [event(hold, actor, "released", now, rank=hold.rank)])
    promoted = promote_after(conn, venue, [hold], bumped, now, actor)
    return Released(_reload(conn, venue, hold.id), tuple(promoted))


def extend(
    conn: sa.Connection, venue: Venue, hold_id: int, actor: str, now: datetime
) -> Extended | Refused:
    hold = _first_in_time(conn, venue, hold_id, actor, now)
    if isinstance(hold, Refused):
        return hold
    assert hold.expires_at is not None  # noqa: S101 - a 1st hold has a deadline (invariant 4)
    if hold.extensions_used >= venue.policy.max_extensions:
        return Refused(Code.EXTENSION_LIMIT, hold=hold, limit=venue.policy.max_extensions)
    new_deadline = extended_deadline(
        hold.expires_at, hold.kind, hold.start_at, venue.policy, venue.tz
    )
    if new_deadline <= hold.expires_at:
        return Refused(Code.EXTENSION_PAST_START, hold=hold)
    _bump(conn, venue, touching=[hold])
    holds.extend(conn, venue, hold, new_deadline, now)
    extended = _reload(conn, venue, hold.id)
    behind = [
        h
        for h in holds.live_conflicting(conn, venue, [span_of(hold)])
        if h.status is Status.TENTATIVE and (h.rank or 0) > 1
    ]
    outbox.add(
        conn, venue.id, [notice(NoticeKind.EXTENDED, h, ahead=extended) for h in behind], now
    )
    audit.record(
        conn,
        venue.id,
        [event(hold, actor, "extended", now, expires_at=new_deadline.isoformat())],
    )
    return Extended(extended, tuple(behind))


def cancel(
    conn: sa.Connection, venue: Venue, hold_id: int, actor: str, now: datetime
) -> Cancelled | Refused:
    """A manager cancels a confirmed booking; its span is free again."""
    hold = holds.get(conn, venue, hold_id)
    if hold is None:
        return Refused(Code.HOLD_NOT_FOUND, detail=str(hold_id))
    if not venue.is_manager(actor):
        return Refused(Code.NOT_AUTHORIZED, hold=hold, detail="manager")
    if hold.status is Status.TENTATIVE:
        return Refused(Code.NOT_CONFIRMED, hold=hold)
    if hold.status is not Status.CONFIRMED:
        return Refused(Code.ALREADY_DECIDED, hold=hold)
    bumped = _bump(conn, venue, leaving=[hold])
    holds.leave(conn, venue, [hold.id], Status.CANCELLED, now)
    audit.record(conn, venue.id, [event(hold, actor, "cancelled", now)])
    promoted = promote_after(conn, venue, [hold], bumped, now, actor)
    return Cancelled(_reload(conn, venue, hold.id), tuple(promoted))


def _confirm_target(
    conn: sa.Connection, venue: Venue, hold_id: int, actor: str, now: datetime
) -> tuple[Hold, list[Hold]] | Refused:
    """The hold to confirm and the tentative holds confirming it would release."""
    hold = _first_in_time(conn, venue, hold_id, actor, now)
    if isinstance(hold, Refused):
        return hold
    conflicting = holds.live_conflicting(conn, venue, [span_of(hold)])
    return hold, [h for h in conflicting if h.id != hold.id]


def _actionable(conn: sa.Connection, venue: Venue, hold_id: int, actor: str) -> Hold | Refused:
    hold = holds.get(conn, venue, hold_id)
    if hold is None:
        return Refused(Code.HOLD_NOT_FOUND, detail=str(hold_id))
    if not hold.may_act(actor, venue):
        return Refused(Code.NOT_AUTHORIZED, hold=hold)
    return hold


def _first_in_time(
    conn: sa.Connection, venue: Venue, hold_id: int, actor: str, now: datetime
) -> Hold | Refused:
    """The actor's 1st hold, still before its deadline (what confirm and extend act on)."""
    hold = _actionable(conn, venue, hold_id, actor)
    if isinstance(hold, Refused):
        return hold
    return _confirmable(hold, now) or hold


def _confirmable(hold: Hold, now: datetime) -> Refused | None:
    """Only a 1st hold before its deadline; at ``now == expires_at`` it is already too late."""
    if hold.status is not Status.TENTATIVE:
        return Refused(Code.ALREADY_DECIDED, hold=hold)
    if hold.rank != 1 or hold.expires_at is None:
        return Refused(Code.NOT_FIRST, hold=hold, rank=hold.rank)
    if now >= hold.expires_at:
        return Refused(Code.DEADLINE_PASSED, hold=hold)
    return None


def _bump(
    conn: sa.Connection,
    venue: Venue,
    *,
    touching: Sequence[Hold] = (),
    leaving: Sequence[Hold] = (),
) -> set[tuple[str, date]]:
    """Bump the part-days of holds that change and of holds that stop being live."""
    changes = merge(
        touch(part_days([span_of(h) for h in touching], venue.tz)),
        span_counts([span_of(h) for h in leaving], venue.tz, sign=-1),
    )
    ledger.bump(conn, venue.id, changes)
    return set(changes)


def _reload(conn: sa.Connection, venue: Venue, hold_id: int) -> Hold:
    hold = holds.get(conn, venue, hold_id)
    assert hold is not None  # noqa: S101 - holds are never deleted
    return hold
