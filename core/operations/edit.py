"""Changing a hold (docs/rules.md, Changing a hold): an edit that takes nobody's place keeps
the hold's (``core.rules.edit_place``); any other is a swap for a new arrival, the old hold
released in the same transaction. And the dry run the form previews."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from zoneinfo import ZoneInfo

from core import events
from core.events import Requested
from core.journal import audit_event
from core.model import (
    LIVE,
    Hold,
    HoldEdit,
    HoldItem,
    HoldRequest,
    ItemRequest,
    Outcome,
    Status,
    Venue,
)
from core.operations.decisions import tell_salesperson
from core.operations.promotion import promote_after, waiting_behind
from core.operations.request import new_hold, ranked_items
from core.operations.tx import Snapshot, Tx
from core.results import Code, EditAnswer, EditPlan, Refused
from core.rules.customers import customer_key
from core.rules.deadlines import deadline_from
from core.rules.details import booking_row, changed_details
from core.rules.edit_place import Placement, Why, placement
from core.rules.promotion import new_ranks
from core.rules.requests import (
    Blocked,
    Checked,
    Occupant,
    check_request,
    decide_rank,
    item_span,
    spans_of,
)
from core.rules.spans import MINUTES_PER_DAY, end_minute, merge, span_counts
from core.store import edits, enquiries, hold_writes, holds, part_days
from core.store.edits import Carried


@dataclass(frozen=True)
class Plan:
    """An edit checked against the hold as this snapshot shows it."""

    hold: Hold  # as it stands
    req: HoldRequest  # the hold as it would be, as a request
    checked: Checked
    placement: Placement  # kept (its ranks) or a swap, and why
    people: bool  # what the enquiry's row carries changes (customer, note, guests, ...)

    @property
    def keep(self) -> bool:
        return self.placement.keep

    @property
    def items(self) -> tuple[HoldItem, ...]:
        """The new items with the ranks the old ones had (an edit in place keeps them; any
        that got better are ranked again after)."""
        return tuple(
            HoldItem(i.room.id, i.room.name, i.room.parts, i.start, i.end, i.span.end, old.rank)
            for i, old in zip(self.checked.items, self.hold.items, strict=True)
        )


def edit(tx: Tx, change: HoldEdit, announce: bool = False) -> EditAnswer | Refused:
    """The edit, or why not (a refusal writes nothing). The enquiry's row is written first,
    then the part-days of the old and the new items in one sorted statement. ``announce``:
    a swap's new hold gets its card from the jobs (its surface posts none)."""
    plan = prepare(tx, change, tx.now)
    if isinstance(plan, Refused):
        return plan
    hold = plan.hold
    if hold.status is Status.CONFIRMED:
        blocked = _in_the_way(tx, plan)
        if blocked is not None:
            return blocked
    enquiry = enquiries.bump(tx.conn, tx.venue, hold.enquiry_id, tx.now)
    assert enquiry is not None  # noqa: S101 - a hold's enquiry is never deleted
    if hold.status is Status.CONFIRMED or plan.keep:
        return _in_place(tx, plan, change.actor)
    return _swap(tx, plan, change.actor, announce=announce, may_lose_first=change.may_lose_first)


def plan_edit(snap: Snapshot, change: HoldEdit, now: datetime) -> EditPlan | Refused:
    """What the edit would do now, read-only: keep the place, or the rank it would get as a
    new arrival and the holds it would wait behind once the old hold is gone."""
    plan = prepare(snap, change, now)
    if isinstance(plan, Refused):
        return plan
    hold = plan.hold
    if hold.status is Status.CONFIRMED:
        return _in_the_way(snap, plan) or EditPlan(hold, True, None, None, ())
    if plan.keep:
        ranks = plan.placement.item_ranks
        rank = max(ranks)
        expires = hold.expires_at
        if rank == 1 and hold.rank != 1:
            expires = deadline_from(
                now, hold.kind, plan.checked.first_start, snap.venue.policy, snap.venue.tz
            )
        promoted = _would_promote(snap, plan)
        return EditPlan(hold, True, rank, expires, (), ranks, promoted)
    around = _around(snap, plan)
    ranked = decide_rank(plan.checked, around, snap.venue, now)
    if isinstance(ranked, Blocked):
        return _refusal(snap, ranked, plan)
    ahead = holds.get_many(snap.conn, snap.venue, _ahead(around))
    promoted = _would_promote(snap, plan)
    return EditPlan(
        hold, False, ranked.rank, ranked.expires_at, tuple(ahead), ranked.item_ranks, promoted
    )


def prepare(snap: Snapshot, change: HoldEdit, now: datetime) -> Plan | Refused:
    """The hold, who may edit it, the form's version, and the hold as it would be, checked
    as a request is (bad input is refused here, before anything is written)."""
    venue = snap.venue
    hold = _editable(snap, change)
    if isinstance(hold, Refused):
        return hold
    req = as_request(hold, change, venue)
    if isinstance(req, Refused):
        return req
    checked = check_request(req, venue, now)
    if isinstance(checked, Refused):
        return checked
    people = booking_row(checked, req.salesperson.strip()) != booking_row(hold, hold.salesperson)
    same_day = req.local_date == hold.local_date
    if same_day and not people and _same_items(checked, hold):
        return Refused(Code.NO_CHANGE, hold=hold)
    return Plan(hold, req, checked, _placement(snap, hold, checked), people)


def _editable(snap: Snapshot, change: HoldEdit) -> Hold | Refused:
    """The live hold, if the actor may edit it and the form saw its current version."""
    hold = holds.get(snap.conn, snap.venue, change.hold_id)
    if hold is None:
        return Refused(Code.HOLD_NOT_FOUND, detail=str(change.hold_id))
    if not hold.may_act(change.actor, snap.venue):  # a house hold: a manager's alone
        return Refused(Code.NOT_A_MANAGER if hold.house else Code.NOT_AUTHORIZED, hold=hold)
    # Before its status: a form opened on a hold that has since been swapped, confirmed or
    # released is stale, whatever happened to it.
    if change.version != hold.version:
        return Refused(Code.STALE_VERSION, hold=hold, limit=hold.version)
    if hold.status not in LIVE:
        return Refused(Code.ALREADY_DECIDED, hold=hold)
    if hold.status is Status.CONFIRMED and not snap.venue.is_manager(change.actor):
        return Refused(Code.NOT_AUTHORIZED, hold=hold, detail="edit_confirmed")
    return hold


def as_request(hold: Hold, change: HoldEdit, venue: Venue) -> HoldRequest | Refused:
    """The hold with the change applied, as the request that would ask for it."""
    tz, day = venue.tz, hold.local_date
    asked = [
        ItemRequest(i.room_id, _minute(i.start_at, day, tz), _minute(i.end_at, day, tz))
        for i in hold.items
    ]
    moves_item = (change.room_id, change.start_min, change.end_min) != (None, None, None)
    which = None if change.items else _which(hold, change.item_room, needed=moves_item)
    if isinstance(which, Refused):
        return which
    if change.items:  # every room as it should be: rooms added or removed make it a swap
        if hold.status is Status.CONFIRMED and len(change.items) != len(hold.items):
            return Refused(Code.ROOMS_OF_CONFIRMED, hold=hold)
        asked = list(change.items)
    elif which is not None:
        old = asked[which]
        start = old.start_min if change.start_min is None else change.start_min
        end = old.end_min if change.end_min is None else end_minute(start, change.end_min)
        asked[which] = ItemRequest(change.room_id or old.room_id, start, end)
    first, *also = asked
    return HoldRequest(
        room_id=first.room_id,
        local_date=change.local_date or hold.local_date,
        start_min=first.start_min,
        end_min=first.end_min,
        kind=hold.kind_id if change.kind is None else change.kind,
        customer=hold.customer if change.customer is None else change.customer,
        salesperson=hold.salesperson if change.salesperson is None else change.salesperson,
        creator=change.actor,
        note=hold.note if change.note is None else change.note,
        also=tuple(also),
        # Everything else the booking carries goes with it (a swap's new hold, every date).
        guests=hold.guests if change.guests is None else change.guests,
        contact=hold.contact if change.contact is None else change.contact,
        details=changed_details(hold.details, change),
        house=hold.house,
    )


def _which(hold: Hold, item_room: str | None, *, needed: bool) -> int | Refused | None:
    """The index of the item the change is about: the one in ``item_room`` (by id or name),
    a one-room hold's only item, or None when no room or time changes."""
    if item_room is not None:
        wanted = item_room.strip()
        for n, item in enumerate(hold.items):
            if wanted in (item.room_id, item.room_name):
                return n
        return Refused(Code.ITEM_NOT_FOUND, field="item", hold=hold, detail=wanted)
    if not needed:
        return None
    if hold.is_package:
        return Refused(Code.ITEM_NOT_FOUND, field="which", hold=hold)
    return 0


def _minute(at: datetime, day: date, tz: ZoneInfo) -> int:
    """Minutes from local midnight of ``day`` (past 1440 the next day): ``local_instant``'s
    inverse."""
    local = at.astimezone(tz)
    return (local.date() - day).days * MINUTES_PER_DAY + local.hour * 60 + local.minute


def _same_items(checked: Checked, hold: Hold) -> bool:
    return [(i.room.id, i.start, i.end) for i in checked.items] == [
        (i.room_id, i.start_at, i.end_at) for i in hold.items
    ]


def _placement(snap: Snapshot, hold: Hold, checked: Checked) -> Placement:
    """Keep or swap (``core.rules.edit_place``), read from the live items around the old
    and the new spans. A confirmed hold is never ranked; a 1st whose deadline would fall
    after its new start cannot keep it."""
    if hold.status is Status.CONFIRMED:
        return Placement(Why.KEPT, tuple(i.rank or 1 for i in hold.items))
    if hold.expires_at is not None and hold.expires_at > checked.first_start:
        return Placement(Why.DEADLINE)
    conn, venue, new = snap.conn, snap.venue, checked.spans
    met = {o.hold_id for o in holds.occupants(conn, venue, spans_of(hold))} - {hold.id}
    near = [o for o in holds.occupants(conn, venue, new) if o.hold_id != hold.id]
    later = [
        o
        for o in near
        if not o.confirmed and o.hold_id > hold.id and any(o.span.conflicts(s) for s in new)
    ]
    if later:
        probes = [*new, *(o.span for o in later)]
        near = [o for o in holds.occupants(conn, venue, probes) if o.hold_id != hold.id]
    stored = {
        (h.id, n): item.rank or 1
        for h in holds.get_many(conn, venue, sorted({o.hold_id for o in later}))
        for n, item in enumerate(h.items, start=1)
    }
    old_ranks = [i.rank or 1 for i in hold.items]
    return placement(hold.id, old_ranks, new, met, near, stored)


def _would_promote(snap: Snapshot, plan: Plan) -> tuple[int, ...]:
    """The holds that would become 1st: those waiting behind the old items, ranked again
    with the edited hold's new spans (kept) or without it (a swap)."""
    hold, conn, venue = plan.hold, snap.conn, snap.venue
    waiting = [h for h in waiting_behind(snap, [hold], gone=()) if h.id != hold.id]
    if not waiting:
        return ()
    probes = [item_span(i) for h in waiting for i in h.items if (i.rank or 1) > 1]
    around = [o for o in holds.occupants(conn, venue, probes) if o.hold_id != hold.id]
    if plan.keep:
        ranks = plan.placement.item_ranks
        around += [
            Occupant(hold.id, n, s, False, ranks[n - 1] == 1)
            for n, s in enumerate(plan.checked.spans, start=1)
        ]
    return tuple(m.hold.id for m in new_ranks(waiting, around) if m.rank == 1)


def _around(snap: Snapshot, plan: Plan) -> list[Occupant]:
    """The live items of other holds in the way of the new items."""
    found = holds.occupants(snap.conn, snap.venue, plan.checked.spans)
    return [o for o in found if o.hold_id != plan.hold.id]


def _ahead(around: list[Occupant]) -> list[int]:
    """The tentative holds a new arrival there would wait behind (the old hold gone)."""
    return sorted({o.hold_id for o in around if not o.confirmed})


def _in_the_way(snap: Snapshot, plan: Plan) -> Refused | None:
    """A confirmed hold moves only where no live hold of anyone else is."""
    around = _around(snap, plan)
    if not around:
        return None
    found = holds.get_many(snap.conn, snap.venue, [o.hold_id for o in around])
    return Refused(Code.EDIT_BLOCKED, hold=plan.hold, holders=tuple(found))


def _refusal(snap: Snapshot, blocked: Blocked, plan: Plan) -> Refused:
    room = snap.venue.rooms.get(blocked.room or "")
    return Refused(
        blocked.code,
        holders=tuple(holds.get_many(snap.conn, snap.venue, blocked.holders)),
        rank=blocked.rank,
        limit=blocked.limit,
        hold=plan.hold,
        room=blocked.room,
        room_name=room.name if room and len(plan.checked.items) > 1 else "",
    )


def _bump(tx: Tx, plan: Plan) -> set[tuple[str, date]]:
    """The part-days of the old items and of the new ones, in one sorted statement."""
    changes = merge(
        span_counts(plan.checked.spans, tx.venue.tz),
        span_counts(spans_of(plan.hold), tx.venue.tz, sign=-1),
    )
    part_days.bump(tx.conn, tx.venue.id, changes)
    return set(changes)


def _amend(tx: Tx, plan: Plan) -> None:
    if plan.people:
        checked = plan.checked
        edits.amend(
            tx.conn,
            tx.venue,
            plan.hold.enquiry_id,
            customer=checked.customer,
            customer_key=customer_key(checked.customer),
            note=checked.note,
            salesperson=plan.req.salesperson.strip(),
            carried=Carried(checked.kind_id, checked.kind, checked.guests, checked.contact),
            details=checked.details,
            now=tx.now,
        )


def _in_place(tx: Tx, plan: Plan, actor: str) -> EditAnswer:
    """An edit that takes nobody's place, or a confirmed hold moved by a manager: same id,
    same place; whoever waited behind what it gave up may move up, and so may the hold."""
    hold = plan.hold
    bumped = _bump(tx, plan)
    confirmed = hold.status is Status.CONFIRMED
    edits.reshape(
        tx.conn, tx.venue, hold.id, plan.req.local_date, plan.items, confirmed=confirmed, now=tx.now
    )
    _amend(tx, plan)
    tx.journal.record(events.Edited(hold, _reload(tx, hold.id), actor, kept_place=True))
    causes = {hold.id: events.Action.EDITED.value}
    # The hold as it is now is looked around too: moved clear of who it waited behind, it
    # is ranked again there (its rank only gets better, core.rules.edit_place).
    leaving = [hold, _reload(tx, hold.id)]
    promoted = [] if confirmed else promote_after(tx, leaving, bumped, actor, causes, gone=())
    now_hold = _reload(tx, hold.id)
    tell_salesperson(tx, now_hold, actor, events.Action.EDITED)
    return EditAnswer(now_hold, hold, True, (), tuple(promoted))


def _swap(
    tx: Tx, plan: Plan, actor: str, *, announce: bool, may_lose_first: bool
) -> EditAnswer | Refused:
    """The new items as a new arrival; if accepted, the old hold is released here too."""
    hold, checked, venue = plan.hold, plan.checked, tx.venue
    around = _around(tx, plan)
    ranked = decide_rank(checked, around, venue, tx.now)
    if isinstance(ranked, Blocked):
        return _refusal(tx, ranked, plan)
    if hold.rank == 1 and ranked.rank > 1 and not may_lose_first:
        waits = tuple(holds.get_many(tx.conn, venue, _ahead(around)))
        return Refused(Code.WOULD_LOSE_FIRST, hold=hold, rank=ranked.rank, holders=waits)
    bumped = _bump(tx, plan)
    _amend(tx, plan)
    # The old spans go first: the new hold may block where the old one did.
    hold_writes.leave(tx.conn, venue, [hold.id], Status.RELEASED, tx.now, Outcome.REPLACED)
    items = ranked_items(checked, ranked)
    happened = Requested(
        actor, ranked.rank, ranked.expires_at, tuple((i.room_id, i.rank or 1) for i in items)
    )
    requested = audit_event(happened, tx.now)
    assert requested is not None  # noqa: S101 - every request leaves one
    requested = replace(requested, detail={**requested.detail, "replaces": hold.id})
    enquiry = enquiries.get(tx.conn, venue, hold.enquiry_id)
    new = hold_writes.insert(
        tx.conn, venue, new_hold(plan.req, checked, ranked, items, enquiry), tx.now, requested
    )
    released = _reload(tx, hold.id)
    tx.journal.record(events.Edited(hold, new, actor, kept_place=False))
    if announce:
        tx.journal.record(events.Announced(new, actor, replaces=hold.id))
    promoted = promote_after(tx, [hold], bumped, actor, {hold.id: events.Action.EDITED.value})
    ahead = holds.get_many(tx.conn, venue, _ahead(around))
    now_hold = _reload(tx, new.id)
    tell_salesperson(tx, now_hold, actor, events.Action.EDITED)
    return EditAnswer(now_hold, hold, False, (released,), tuple(promoted), tuple(ahead))


def _reload(snap: Snapshot, hold_id: int) -> Hold:
    hold = holds.get(snap.conn, snap.venue, hold_id)
    assert hold is not None  # noqa: S101 - holds are never deleted
    return hold
