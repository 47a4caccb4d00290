"""Requesting a hold (one room or a package, a new enquiry or another candidate date of one),
and previewing what a request would get."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime

import sqlalchemy as sa

from core.admission import Key
from core.events import Announced, Queued, Requested
from core.journal import audit_event
from core.model import LIVE, Details, Enquiry, HoldItem, HoldRequest, Status, Venue
from core.operations.tx import Snapshot, Tx
from core.results import (
    Code,
    Preview,
    Refused,
    RequestAnswer,
    RequestWarning,
    WarningCode,
)
from core.rules.customers import customer_key
from core.rules.details import joined_details
from core.rules.obstacles import in_the_way
from core.rules.requests import Blocked, Checked, Occupant, Ranked, check_request, decide_rank
from core.rules.spans import part_day_keys, span_counts
from core.store import enquiries, holds, idempotency, part_days, venues
from core.store.holds import NewHold
from core.uow import Retry


class Check:
    """A request checked against one copy of its venue, once: checked again only if the
    transaction gets another copy (a cached venue found stale) or joins an enquiry."""

    def __init__(self, req: HoldRequest, now: datetime) -> None:
        self.req = req
        self.now = now
        self._last: tuple[Venue, Checked | Refused] | None = None

    def against(self, venue: Venue, enquiry: Enquiry | None = None) -> Checked | Refused:
        if enquiry is not None:
            return check_request(joining(self.req, enquiry), venue, self.now)
        if self._last is None or self._last[0] is not venue:
            self._last = (venue, check_request(self.req, venue, self.now))
        return self._last[1]

    def part_day_keys(self, venue: Venue | None) -> list[Key]:
        """The part-days the request would bump, from ``venue`` if there is one (admission).

        Rooms and times decide them: a candidate date's omitted fields stand in for now.
        """
        if venue is None:
            return []
        req = self.req
        if req.enquiry_id is not None:
            req = replace(
                req,
                kind=req.kind or "wedding",
                customer=req.customer or "-",
                salesperson=req.salesperson or "-",
            )
            checked = check_request(req, venue, self.now)
        else:
            checked = self.against(venue)
        return part_day_keys(checked.spans, venue.tz) if isinstance(checked, Checked) else []


def request_hold(
    tx: Tx, check: Check, key: str | None, announce: bool = False
) -> RequestAnswer | Refused:
    """Only a retry (``tx.attempt > 1``) looks the idempotency key up first.

    Under SERIALIZABLE that lookup locks the index page every concurrent submission inserts
    its key into, so two unrelated submissions would abort each other. Without it a twin is
    still caught: the unique key at ``idempotency.save`` (Retry: the next attempt looks it
    up), and after any refusal (``twin_instead``: the twin's own hold may be in the way, and
    a reused key with another request is refused as such whatever else is wrong with it).
    """
    digest = request_hash(check.req) if key else ""
    if key and tx.attempt > 1:
        replayed = _answered_before(tx, key, digest)
        if replayed is not None:
            return replayed
    answer = _request(tx, check, key, digest)
    if isinstance(answer, RequestAnswer):
        answer = _tell(tx, answer, check.req.creator, announce=announce)
    return answer


def twin_instead(
    snap: Snapshot, answer: RequestAnswer | Refused, req: HoldRequest, key: str | None
) -> RequestAnswer | Refused:
    """A refused request's twin, read after the refusal rolled back: the answer its key was
    first given (or, with another request, the refusal that says so), else the refusal.

    Read outside the transaction and its turn in the admission queue, where a crowd for one
    slot waits: it sees at least what the transaction's snapshot saw, and a twin that
    commits later was not in the way of this refusal either.
    """
    if not key or not isinstance(answer, Refused):
        return answer
    first = idempotency.find(snap.conn, snap.venue.id, key)
    if first is None:
        return answer
    return _replay(snap, first, request_hash(req))


def refused_on_sight(snap: Snapshot, check: Check, now: datetime) -> Unworded | None:
    """A request that waited for another's turn on its part-days, refused on what their
    part-day rows carry once that turn is over, read in one statement: no transaction, no
    bump, no rollback. A crowd for one slot is answered at the pace of that read.

    The refusal is what its transaction would answer on that committed state, which it
    could also have seen; a request with room goes on to its transaction (``None``), and so
    does a candidate date (its enquiry decides too) and a stale cached venue.
    """
    if check.req.enquiry_id is not None:
        return None
    checked = check.against(snap.venue)
    if not isinstance(checked, Checked):
        return None
    live = part_days.seen(snap.conn, snap.venue, part_day_keys(checked.spans, snap.venue.tz))
    if live is None:
        return None
    ranked = decide_rank(checked, live.occupants(checked.spans), snap.venue, now)
    return Unworded.of(ranked, checked) if isinstance(ranked, Blocked) else None


def _request(tx: Tx, check: Check, key: str | None, digest: str) -> RequestAnswer | Refused:
    conn, venue, now = tx.conn, tx.venue, tx.now
    enquiry = _enquiry(tx, check.req, bump=True)
    if isinstance(enquiry, Refused):
        venues.ensure_current(conn, venue)
        return enquiry
    checked = check.against(venue, enquiry)
    live: part_days.Bumped | None = None
    if isinstance(checked, Checked):
        # First, every item's part-days in one sorted statement, which also answers their
        # live span counts (no part-day read of its own) and checks the cached venue: a
        # conflicting commit since this transaction's snapshot makes the bump fail with
        # 40001, and one after it must wait for this transaction. The hold's id (its arrival
        # order, one for all its items) is taken after the bump, so it follows theirs.
        live = part_days.bump_counted(conn, venue, span_counts(checked.spans, venue.tz))
    decided = _decide(tx, checked, enquiry, now, live=live)
    if isinstance(decided, Refused):
        return decided  # rolled back: nothing written, the bump undone
    checked, ranked = decided
    items = ranked_items(checked, ranked)
    # Its audit event goes in with the insert (one statement), as the journal words it.
    event = Requested(
        check.req.creator,
        ranked.rank,
        ranked.expires_at,
        tuple((i.room_id, i.rank or 1) for i in items),
    )
    requested = audit_event(event, now)
    assert requested is not None  # noqa: S101 - every request leaves one
    hold = holds.insert(
        conn, venue, new_hold(check.req, checked, ranked, items, enquiry), now, requested
    )
    if key:
        answer = {
            "hold_id": hold.id,
            "rank": ranked.rank,
            "expires_at": ranked.expires_at.isoformat() if ranked.expires_at else None,
            "item_ranks": list(ranked.item_ranks),
        }
        if not idempotency.save(conn, venue.id, key, digest, answer, now):
            raise Retry  # a twin's answer is stored: the next attempt reads and replays it
    # The holds ahead are only shown: ``shown`` reads them after the commit, so that this
    # transaction reads no hold rows (each would be a predicate lock under SERIALIZABLE on
    # pages that concurrent requests insert into).
    return RequestAnswer(
        hold,
        ranked.rank,
        ranked.expires_at,
        ahead=(),
        item_ranks=ranked.item_ranks,
        ahead_ids=ranked.ahead,
        in_way_ids=ranked.in_way,
    )


def _tell(tx: Tx, answer: RequestAnswer, actor: str, *, announce: bool) -> RequestAnswer:
    """Its card, when its surface posts none; and the holds ahead of a hold that queues
    are named in one notice, whose delivery tells those still 1st.

    This transaction reads none of them: each read would take a predicate lock on the page
    every concurrent request inserts its hold into, and abort them (40001). The notice that
    names them commits with the hold (the outbox's rule); ``shown`` reads them for the answer
    after the commit.
    """
    hold = answer.hold
    if announce:
        tx.journal.record(Announced(hold, actor))
    if answer.rank > 1 and answer.ahead_ids and tx.venue.policy.notify_first_of_second:
        tx.journal.record(Queued(hold, answer.ahead_ids))
    return answer


def shown(snap: Snapshot, answer: RequestAnswer, *, warn: bool) -> RequestAnswer:
    """A committed request's answer with what it only shows, read outside its transaction:
    the holds ahead of it and, with ``warn`` (a new enquiry), the same customer elsewhere."""
    if answer.in_way_ids:
        around = holds.get_many(snap.conn, snap.venue, answer.in_way_ids)
        ahead = [h for h in around if h.id in answer.ahead_ids]
        in_way = in_the_way(answer.hold.items, around)
        answer = replace(answer, ahead=tuple(ahead), in_way=in_way)
    if warn:
        hold = answer.hold
        found = same_customer(snap.conn, snap.venue.id, hold.customer, hold.enquiry_id)
        answer = replace(answer, warnings=customer_warnings(snap, hold.customer, found))
    return answer


def preview(snap: Snapshot, req: HoldRequest, now: datetime) -> Preview | Refused:
    """The same decision as ``request_hold``, read-only: nothing is bumped or written."""
    enquiry = _enquiry(snap, req, bump=False)
    if isinstance(enquiry, Refused):
        venues.ensure_current(snap.conn, snap.venue)
        return enquiry
    checked = check_request(joining(req, enquiry) if enquiry else req, snap.venue, now)
    decided = _decide(snap, checked, enquiry, now)
    if isinstance(decided, Refused):
        return decided
    checked, ranked = decided
    around = holds.get_many(snap.conn, snap.venue, ranked.in_way)
    ahead = [h for h in around if h.id in ranked.ahead]
    in_way = in_the_way(ranked_items(checked, ranked), around)
    warnings: tuple[RequestWarning, ...] = ()
    if enquiry is None:
        found = same_customer(snap.conn, snap.venue.id, checked.customer, None)
        warnings = customer_warnings(snap, checked.customer, found)
    return Preview(
        ranked.rank, ranked.expires_at, tuple(ahead), ranked.item_ranks, warnings, in_way
    )


def same_customer(
    conn: sa.Connection, venue_id: str, customer: str, enquiry_id: int | None
) -> list[int]:
    """Live holds of enquiries other than ``enquiry_id`` for a customer whose name compares
    equal. After a request this is read on its own, outside the write: under SERIALIZABLE,
    every request reading the name index would abort the others inserting into it."""
    return holds.same_customer(conn, venue_id, customer_key(customer), enquiry_id)


def customer_warnings(
    snap: Snapshot, customer: str, hold_ids: Sequence[int]
) -> tuple[RequestWarning, ...]:
    """The warning (never a refusal) naming those holds, if there are any."""
    if not hold_ids:
        return ()
    found = tuple(holds.get_many(snap.conn, snap.venue, hold_ids))
    return (RequestWarning(WarningCode.SAME_CUSTOMER, customer, found),)


def joining(req: HoldRequest, enquiry: Enquiry) -> HoldRequest:
    """A candidate date takes its enquiry's customer, kind and salesperson (checked to match
    where given); a note it brings becomes the enquiry's."""
    return replace(
        req,
        customer=enquiry.customer,
        kind=enquiry.kind_id,
        salesperson=enquiry.salesperson,
        note=req.note.strip() or enquiry.note,
        guests=req.guests if req.guests is not None else enquiry.guests,
        contact=req.contact.strip() or enquiry.contact,
        details=joined_details(req.details, enquiry.details),
    )


def _enquiry(snap: Snapshot, req: HoldRequest, *, bump: bool) -> Enquiry | Refused | None:
    """The enquiry a candidate date joins (None for a new one), its row bumped first when
    the request may write (``bump``), then checked: the actor may add to it, and what the
    request gives matches it."""
    if req.enquiry_id is None:
        return None
    conn, venue = snap.conn, snap.venue
    if bump and isinstance(snap, Tx):
        found = enquiries.bump(conn, venue, req.enquiry_id, snap.now)
    else:
        found = enquiries.get(conn, venue, req.enquiry_id)
    if found is None:
        return Refused(Code.ENQUIRY_NOT_FOUND, field="enquiry", detail=str(req.enquiry_id))
    if not found.may_act(req.creator, venue):
        return Refused(Code.NOT_AUTHORIZED, field="enquiry", detail=str(found.id))
    # (field, given, differs, the enquiry's value): what is left out is the enquiry's
    given = [
        (
            "customer",
            req.customer.strip(),
            customer_key(req.customer) != customer_key(found.customer),
            found.customer,
        ),
        ("kind", req.kind, req.kind != found.kind_id, found.kind_id),
        (
            "salesperson",
            req.salesperson.strip(),
            req.salesperson.strip() != found.salesperson,
            found.salesperson,
        ),
    ]
    for field, value, differs, theirs in given:
        if value and differs:
            return Refused(Code.ENQUIRY_MISMATCH, field=field, detail=theirs)
    return found


def _decide(
    snap: Snapshot,
    checked: Checked | Refused,
    enquiry: Enquiry | None,
    now: datetime,
    *,
    live: part_days.Bumped | None = None,
) -> tuple[Checked, Ranked] | Refused:
    """The rank a checked request gets now, or why not.

    ``live``: the live spans on its part-days, when the caller's bump has answered them.
    ``snap.venue`` may be a cached copy: the first part-day read (or the bump) checks its
    revision, and a refusal given before that checks it on its own.
    """
    refused = checked if isinstance(checked, Refused) else _no_room_in(snap, enquiry)
    if refused is not None:
        if live is None:
            venues.ensure_current(snap.conn, snap.venue)
        return refused
    assert isinstance(checked, Checked)  # noqa: S101 - refusals returned above
    ranked = decide_rank(checked, _occupants(snap, checked, live), snap.venue, now)
    if isinstance(ranked, Blocked):
        # A request's own transaction names the holds in the way by id only: they are read
        # after its rollback, outside its turn in the admission queue (``worded``).
        return Unworded.of(ranked, checked) if live is not None else _refusal(snap, ranked, checked)
    return checked, ranked


def _no_room_in(snap: Snapshot, enquiry: Enquiry | None) -> Refused | None:
    """A candidate date needs an enquiry still open, with fewer than max_candidates live."""
    if enquiry is None:
        return None
    live = [h for h in holds.of_enquiry(snap.conn, snap.venue, enquiry.id) if h.status in LIVE]
    confirmed = [h for h in live if h.status is Status.CONFIRMED]
    if confirmed:
        return Refused(Code.ENQUIRY_CONFIRMED, hold=confirmed[0], detail=str(enquiry.id))
    limit = snap.venue.policy.max_candidates
    if len(live) >= limit:
        return Refused(Code.TOO_MANY_CANDIDATES, holders=tuple(live), limit=limit)
    return None


def _occupants(
    snap: Snapshot, checked: Checked, live: part_days.Bumped | None = None
) -> list[Occupant]:
    """The live items in the way: from the caller's bump if there was one, else read (the
    part-day rows' span counts say when there cannot be any)."""
    if live is not None:
        return live.occupants(checked.spans)
    if not part_days.live_spans(snap.conn, snap.venue, part_day_keys(checked.spans, snap.venue.tz)):
        return []
    return holds.occupants(snap.conn, snap.venue, checked.spans)


@dataclass(frozen=True)
class Unworded(Refused):
    """A refusal the ledger decided in a request's transaction, the holds it names still to
    be read (``worded``): never an answer itself."""

    blocked: Blocked | None = None
    mine: tuple[HoldItem, ...] = ()

    @classmethod
    def of(cls, blocked: Blocked, checked: Checked) -> Unworded:
        return cls(blocked.code, blocked=blocked, mine=_mine(checked))


def worded(snap: Snapshot, answer: RequestAnswer | Refused) -> RequestAnswer | Refused:
    """A request's answer with the holds its refusal names read now, after the rollback: those
    still live (one that left since is no longer in the way)."""
    if not isinstance(answer, Unworded) or answer.blocked is None:
        return answer
    return _blocked(snap, answer.blocked, answer.mine, live_only=True)


def _refusal(snap: Snapshot, blocked: Blocked, checked: Checked) -> Refused:
    """The refusal with the holds in the way, read only now that they are needed."""
    return _blocked(snap, blocked, _mine(checked))


def _mine(checked: Checked) -> tuple[HoldItem, ...]:
    return tuple(
        HoldItem(i.room.id, i.room.name, i.room.parts, i.start, i.end, i.span.end, None)
        for i in checked.items
    )


def _blocked(
    snap: Snapshot, blocked: Blocked, mine: tuple[HoldItem, ...], *, live_only: bool = False
) -> Refused:
    """A package's refusal names the room at fault."""
    room = snap.venue.rooms.get(blocked.room or "")
    around = holds.get_many(snap.conn, snap.venue, {*blocked.holders, *blocked.in_way})
    if live_only:
        around = [h for h in around if h.status in LIVE]
    return Refused(
        blocked.code,
        holders=tuple(h for h in around if h.id in blocked.holders),
        rank=blocked.rank,
        limit=blocked.limit,
        room=blocked.room,
        room_name=room.name if room and len(mine) > 1 else "",
        in_way=in_the_way(mine, [h for h in around if h.id in blocked.in_way]),
    )


def request_hash(req: HoldRequest) -> str:
    """A request's fingerprint; a one-room request hashes as it did before packages."""
    fields = asdict(req)
    fields["local_date"] = req.local_date.isoformat()
    if not req.also:
        del fields["also"]
    if req.enquiry_id is None:
        del fields["enquiry_id"]
    # Requests without what a hold carries since 0004 hash as they did before it.
    if req.guests is None:
        del fields["guests"]
    if not req.contact:
        del fields["contact"]
    if req.details == Details():
        del fields["details"]  # and those without details (0011) too
    elif req.details.next_action is not None:
        fields["details"]["next_action"] = req.details.next_action.isoformat()
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def _answered_before(tx: Tx, key: str, digest: str) -> RequestAnswer | Refused | None:
    first = idempotency.find(tx.conn, tx.venue.id, key)
    if first is None:
        return None
    venues.ensure_current(tx.conn, tx.venue)
    return _replay(tx, first, digest)


def _replay(snap: Snapshot, first: idempotency.Record, digest: str) -> RequestAnswer | Refused:
    if first.request_hash != digest:
        return Refused(Code.IDEMPOTENCY_MISMATCH)
    hold = holds.get(snap.conn, snap.venue, first.response["hold_id"])
    if hold is None:  # pragma: no cover - holds are never deleted
        return Refused(Code.HOLD_NOT_FOUND, detail=str(first.response["hold_id"]))
    expires = first.response["expires_at"]
    # Answers stored before packages had one room: its rank was the hold's.
    item_ranks = first.response.get("item_ranks", [first.response["rank"]])
    return RequestAnswer(
        hold,
        first.response["rank"],
        datetime.fromisoformat(expires) if expires else None,
        ahead=(),
        replayed=True,
        item_ranks=tuple(item_ranks),
    )


def ranked_items(checked: Checked, ranked: Ranked) -> tuple[HoldItem, ...]:
    """A request's items as a hold carries them, each with its rank."""
    return tuple(
        HoldItem(i.room.id, i.room.name, i.room.parts, i.start, i.end, i.span.end, rank)
        for i, rank in zip(checked.items, ranked.item_ranks, strict=True)
    )


def new_hold(
    req: HoldRequest,
    checked: Checked,
    ranked: Ranked,
    items: tuple[HoldItem, ...],
    enquiry: Enquiry | None,
) -> NewHold:
    """What a tentative hold writes: its items and its enquiry (new, or the one it joins)."""
    return NewHold(
        enquiry_id=enquiry.id if enquiry else None,
        customer=checked.customer,
        customer_key=customer_key(checked.customer),
        kind=checked.kind,
        salesperson=req.salesperson.strip() if enquiry is None else enquiry.salesperson,
        creator=req.creator if enquiry is None else enquiry.creator,
        note=checked.note,
        local_date=req.local_date,
        rank=ranked.rank,
        expires_at=ranked.expires_at,
        items=items,
        kind_id=checked.kind_id,
        guests=checked.guests,
        contact=checked.contact,
        details=checked.details,
    )
