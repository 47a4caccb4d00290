"""What people do to a hold: confirm (and its dry run), release, extend, nudge, cancel."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from core import events
from core.model import Hold, Outcome, Status
from core.operations.deposits import set_at_confirm
from core.operations.promotion import promote_after, waiting_behind
from core.operations.tx import Snapshot, Tx
from core.results import (
    CancelAnswer,
    Code,
    ConfirmAnswer,
    ConfirmPlan,
    ExtendAnswer,
    NudgeAnswer,
    Refused,
    ReleaseAnswer,
)
from core.rules.deadlines import days_later, deadline_from, staff_deadline
from core.rules.promotion import new_ranks
from core.rules.reasons import MAX_NOTE, UNSPECIFIED, reason_code
from core.rules.requests import spans_of
from core.rules.spans import merge, part_day_keys, span_counts, touch
from core.store import enquiries, hold_writes, holds, part_days


def confirm(tx: Tx, hold_id: int, actor: str) -> ConfirmAnswer | Refused:
    """Every item is confirmed; every tentative hold with an item in the way of any of them
    is released as a whole, and so are the enquiry's other candidate dates."""
    target = _confirm_target(tx, hold_id, actor, tx.now)
    if isinstance(target, Refused):
        return target
    hold, losers, others = target
    # The enquiry's row first (as a new candidate date bumps it before its part-days): a
    # candidate added meanwhile makes this fail with 40001, and its retry releases it too.
    enquiries.bump(tx.conn, tx.venue, hold.enquiry_id, tx.now)
    leaving = [*losers, *others]
    bumped = _bump(tx, touching=[hold], leaving=leaving)
    hold_writes.leave(tx.conn, tx.venue, _ids(losers), Status.RELEASED, tx.now, Outcome.LOST)
    chosen = Outcome.OTHER_DATE_CHOSEN
    hold_writes.leave(tx.conn, tx.venue, _ids(others), Status.RELEASED, tx.now, chosen)
    lost = [h.left(Status.RELEASED, tx.now, Outcome.LOST) for h in losers]
    dropped = [h.left(Status.RELEASED, tx.now, chosen) for h in others]
    hold_writes.confirm(tx.conn, tx.venue, hold.id, tx.now)
    set_at_confirm(tx, hold)  # its deposit's due date (予約金), when the venue asks for one
    confirmed = _reload(tx, hold.id)
    tx.journal.record(
        events.Confirmed(hold, actor, _ids(losers), _ids(others)),
        *[events.Lost(h, actor, winner=confirmed) for h in lost],
        *[events.OtherDateChosen(h, actor, chosen=confirmed) for h in dropped],
    )
    causes = {
        **dict.fromkeys(_ids(lost), events.Action.LOST.value),
        **dict.fromkeys(_ids(dropped), events.Action.OTHER_DATE_CHOSEN.value),
    }
    promoted = promote_after(tx, [*lost, *dropped], bumped, actor, causes)
    released = tuple(sorted([*lost, *dropped], key=lambda h: h.id))
    tell_salesperson(tx, confirmed, actor, events.Action.CONFIRMED)
    return ConfirmAnswer(confirmed, released, tuple(promoted), tuple(dropped))


def confirm_plan(snap: Snapshot, hold_id: int, actor: str, now: datetime) -> ConfirmPlan | Refused:
    """What confirming would do, read-only: the holds it releases and the ones it promotes."""
    target = _confirm_target(snap, hold_id, actor, now)
    if isinstance(target, Refused):
        return target
    hold, losers, others = target
    leaving = sorted([*losers, *others], key=lambda h: h.id)
    waiting = waiting_behind(snap, leaving)
    around = holds.occupants(snap.conn, snap.venue, [s for h in waiting for s in spans_of(h)])
    moves = new_ranks(waiting, around, {h.id for h in leaving})
    promoted = tuple(m.hold for m in moves if m.rank == 1)
    return ConfirmPlan(hold, tuple(leaving), promoted, tuple(others))


def release(
    tx: Tx, hold_id: int, actor: str, reason: str | None = None, note: str = ""
) -> ReleaseAnswer | Refused:
    """The customer declined (``reason``: a code of ``core.rules.reasons``, none given is
    ``unspecified``; ``note``: free text): the hold goes, whoever waited behind it may move
    up."""
    reasons = tx.venue.policy.reasons  # the venue file's [[reasons]], else the defaults
    code = reason_code(reason, reasons)
    if code is None:
        said = (reason or "").strip()[:40]
        codes = tuple(r.code for r in reasons)
        return Refused(Code.UNKNOWN_REASON, field="reason", detail=said, choices=codes)
    if len(note.strip()) > MAX_NOTE:
        return Refused(Code.BAD_NOTE, field="reason_note", limit=MAX_NOTE)
    hold = _actionable(tx, hold_id, actor)
    if isinstance(hold, Refused):
        return hold
    if hold.status is not Status.TENTATIVE:
        return Refused(Code.ALREADY_DECIDED, hold=hold)
    note = note.strip()
    released = events.Released(hold, actor, code, note)
    left = _leave(tx, hold, Status.RELEASED, released, actor, Outcome.WITHDRAWN, (code, note))
    tell_salesperson(tx, left[0], actor, events.Action.RELEASED, code, note)
    return ReleaseAnswer(*left)


def tell_salesperson(
    tx: Tx, hold: Hold, actor: str, action: events.Action, reason: str = "", note: str = ""
) -> None:
    """Someone other than the hold's salesperson acted on it: they are told, by DM."""
    if actor != hold.salesperson:
        tx.journal.record(events.ActedFor(hold, actor, action.value, reason, note))


def extend(tx: Tx, hold_id: int, actor: str) -> ExtendAnswer | Refused:
    venue = tx.venue
    hold = _first_in_time(tx, hold_id, actor, tx.now)
    if isinstance(hold, Refused):
        return hold
    assert hold.expires_at is not None  # noqa: S101 - a 1st hold has a deadline (invariant 4)
    if hold.extensions_used >= venue.policy.max_extensions:
        return Refused(Code.EXTENSION_LIMIT, hold=hold, limit=venue.policy.max_extensions)
    new_deadline = deadline_from(
        hold.expires_at, hold.kind, hold.first_start, venue.policy, venue.tz
    )
    if new_deadline <= hold.expires_at:
        return Refused(Code.EXTENSION_PAST_START, hold=hold)
    _bump(tx, touching=[hold])
    hold_writes.extend(tx.conn, venue, hold, new_deadline, tx.now)
    extended = _reload(tx, hold.id)
    behind = _behind(tx, hold)
    tx.journal.record(events.Extended(hold, actor, new_deadline, extended, behind))
    tell_salesperson(tx, extended, actor, events.Action.EXTENDED)
    return ExtendAnswer(extended, behind)


def nudge(tx: Tx, hold_id: int, actor: str) -> NudgeAnswer | Refused:
    """回答の催促: who waits behind a 1st asks it to answer; its deadline becomes the earlier
    of the present one and ``nudge_days`` from now (as staff read deadlines), once."""
    venue = tx.venue
    hold = _nudgeable(tx, hold_id)
    if isinstance(hold, Refused):
        return hold
    if hold.house:  # no deadline to bring nearer
        return Refused(Code.HOUSE_HOLD, hold=hold)
    asker = next((h for h in _behind(tx, hold) if h.may_act(actor, venue)), None)
    if asker is None:  # authority: only for a hold of one's own that waits behind this one
        return Refused(Code.NOT_WAITING, hold=hold)
    if hold.nudged_at is not None:
        return Refused(Code.ALREADY_NUDGED, hold=hold)
    assert hold.expires_at is not None  # noqa: S101 - a 1st hold has a deadline (invariant 4)
    policy = venue.policy
    soon = staff_deadline(days_later(tx.now, policy.nudge_days, venue.tz), policy, venue.tz)
    due = min(hold.expires_at, soon, hold.first_start).astimezone(venue.tz)
    _bump(tx, touching=[hold])
    hold_writes.nudge(tx.conn, venue, hold, due, tx.now)
    nudged = _reload(tx, hold.id)
    tx.journal.record(events.Nudged(hold, actor, asker, nudged))
    return NudgeAnswer(nudged, asker)


def nudge_ahead(tx: Tx, hold_id: int, actor: str) -> NudgeAnswer | Refused:
    """The button on a waiting hold: nudge the 1st ahead of it (of several, the one not yet
    asked whose deadline comes first)."""
    waiting = holds.get(tx.conn, tx.venue, hold_id)
    if waiting is None:
        return Refused(Code.HOLD_NOT_FOUND, detail=str(hold_id))
    firsts = sorted(
        (h for h in holds.live_conflicting(tx.conn, tx.venue, spans_of(waiting)) if h.is_first),
        key=lambda h: (h.house, h.nudged_at is not None, h.expires_at or h.first_start, h.id),
    )
    if waiting.status is not Status.TENTATIVE or waiting.is_first or not firsts:
        return Refused(Code.NOT_WAITING, hold=waiting)
    return nudge(tx, firsts[0].id, actor)


def _nudgeable(tx: Tx, hold_id: int) -> Hold | Refused:
    """A 1st hold still before its deadline, at a venue that uses nudges."""
    hold = holds.get(tx.conn, tx.venue, hold_id)
    if hold is None:
        return Refused(Code.HOLD_NOT_FOUND, detail=str(hold_id))
    if tx.venue.policy.nudge_days == 0:
        return Refused(Code.NUDGE_OFF, hold=hold)
    if hold.status is not Status.TENTATIVE:
        return Refused(Code.ALREADY_DECIDED, hold=hold)
    if not hold.is_first:
        return Refused(Code.NOT_FIRST, hold=hold, rank=hold.rank)
    if hold.is_due(tx.now):
        return Refused(Code.DEADLINE_PASSED, hold=hold)
    return hold


def _behind(tx: Tx, hold: Hold) -> tuple[Hold, ...]:
    """The tentative holds waiting behind a 1st (an item of theirs meets one of its)."""
    return tuple(
        h
        for h in holds.live_conflicting(tx.conn, tx.venue, spans_of(hold))
        if h.status is Status.TENTATIVE and (h.rank or 0) > 1 and h.id != hold.id
    )


def cancel(tx: Tx, hold_id: int, actor: str, reason: str = "") -> CancelAnswer | Refused:
    """A manager cancels a confirmed booking, saying why; its span is free again and its
    salesperson is told who cancelled it and why."""
    hold = holds.get(tx.conn, tx.venue, hold_id)
    if hold is None:
        return Refused(Code.HOLD_NOT_FOUND, detail=str(hold_id))
    if not tx.venue.is_manager(actor):
        return Refused(Code.NOT_AUTHORIZED, hold=hold, detail="manager")
    if hold.status is Status.TENTATIVE:
        return Refused(Code.NOT_CONFIRMED, hold=hold)
    if hold.status is not Status.CONFIRMED:
        return Refused(Code.ALREADY_DECIDED, hold=hold)
    happened = events.Cancelled(hold, actor, reason.strip())
    return CancelAnswer(*_leave(tx, hold, Status.CANCELLED, happened, actor))


def announce(tx: Tx, hold_id: int, actor: str) -> Hold | Refused:
    """Its card could not be posted where it was asked for: the jobs post it in the sales
    channel (a card row, like a hold from the CLI)."""
    hold = holds.get(tx.conn, tx.venue, hold_id)
    if hold is None:
        return Refused(Code.HOLD_NOT_FOUND, detail=str(hold_id))
    tx.journal.record(events.Announced(hold, actor))
    return hold


def _leave(
    tx: Tx,
    hold: Hold,
    status: Status,
    happened: events.Event,
    actor: str,
    outcome: Outcome | None = None,
    why: tuple[str, str] = (UNSPECIFIED, ""),
) -> tuple[Hold, tuple[Hold, ...]]:
    """``hold`` stops being live and whoever waited behind it may move up: the hold as it
    is now, and the holds promoted. ``why``: a withdrawal's reason code and note."""
    bumped = _bump(tx, leaving=[hold])
    reason, note = why if outcome is Outcome.WITHDRAWN else (None, "")
    hold_writes.leave(tx.conn, tx.venue, [hold.id], status, tx.now, outcome, reason, note)
    tx.journal.record(happened)
    promoted = promote_after(tx, [hold], bumped, actor, {hold.id: status.value})
    return _reload(tx, hold.id), tuple(promoted)


def _confirm_target(
    snap: Snapshot, hold_id: int, actor: str, now: datetime
) -> tuple[Hold, list[Hold], list[Hold]] | Refused:
    """The hold to confirm, the tentative holds in its way, and its enquiry's other
    tentative candidate dates (released for that reason even if also in its way)."""
    hold = _first_in_time(snap, hold_id, actor, now)
    if isinstance(hold, Refused):
        return hold
    others = [
        h
        for h in holds.of_enquiry(snap.conn, snap.venue, hold.enquiry_id)
        if h.status is Status.TENTATIVE and h.id != hold.id
    ]
    skip = {hold.id, *(h.id for h in others)}
    conflicting = holds.live_conflicting(snap.conn, snap.venue, spans_of(hold))
    return hold, [h for h in conflicting if h.id not in skip], others


def _actionable(snap: Snapshot, hold_id: int, actor: str) -> Hold | Refused:
    hold = holds.get(snap.conn, snap.venue, hold_id)
    if hold is None:
        return Refused(Code.HOLD_NOT_FOUND, detail=str(hold_id))
    if not hold.may_act(actor, snap.venue):  # a house hold: a manager's alone
        return Refused(Code.NOT_A_MANAGER if hold.house else Code.NOT_AUTHORIZED, hold=hold)
    return hold


def _first_in_time(snap: Snapshot, hold_id: int, actor: str, now: datetime) -> Hold | Refused:
    """The actor's 1st hold, still before its deadline (what confirm and extend act on)."""
    hold = _actionable(snap, hold_id, actor)
    if isinstance(hold, Refused):
        return hold
    if hold.status is not Status.TENTATIVE:
        return Refused(Code.ALREADY_DECIDED, hold=hold)
    if hold.house:  # no deadline to meet or move: it is released when the venue is done
        return Refused(Code.HOUSE_HOLD, hold=hold)
    if not hold.is_first:
        return Refused(Code.NOT_FIRST, hold=hold, rank=hold.rank)
    if hold.is_due(now):
        return Refused(Code.DEADLINE_PASSED, hold=hold)
    return hold


def _bump(
    tx: Tx, *, touching: Sequence[Hold] = (), leaving: Sequence[Hold] = ()
) -> set[tuple[str, date]]:
    """Bump the part-days of holds that change and of holds that stop being live."""
    changes = merge(
        touch(part_day_keys([s for h in touching for s in spans_of(h)], tx.venue.tz)),
        span_counts([s for h in leaving for s in spans_of(h)], tx.venue.tz, sign=-1),
    )
    part_days.bump(tx.conn, tx.venue.id, changes)
    return set(changes)


def _ids(found: Sequence[Hold]) -> tuple[int, ...]:
    return tuple(h.id for h in found)


def _reload(snap: Snapshot, hold_id: int) -> Hold:
    hold = holds.get(snap.conn, snap.venue, hold_id)
    assert hold is not None  # noqa: S101 - holds are never deleted
    return hold
