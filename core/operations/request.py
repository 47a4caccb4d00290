"""Requesting a hold (one room or a package, a new enquiry or another candidate date of one):
what the request's transaction decides and writes. Its answer is worded after that
transaction (``core.operations.answering``); its preview is ``core.operations.preview``."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace
from datetime import datetime

from core.admission import Key
from core.events import Announced, Queued, Requested
from core.journal import audit_event
from core.model import Details, Enquiry, HoldItem, HoldRequest, Venue
from core.operations.candidates import joined, joining, no_room_in
from core.operations.tx import Snapshot, Tx
from core.results import Refused, RequestAnswer
from core.rules.customers import customer_key
from core.rules.requests import Blocked, Checked, Ranked, check_request, decide_rank
from core.rules.spans import part_day_keys, span_counts
from core.store import hold_writes, idempotency, part_days, venues
from core.store.hold_writes import NewHold
from core.uow import Retry


class Asked:
    """What was asked (the request, when, its idempotency key, whether to announce it),
    checked against one copy of its venue once: checked again only if the transaction gets
    another copy (a cached venue found stale) or joins an enquiry."""

    def __init__(
        self, req: HoldRequest, now: datetime, key: str | None = None, announce: bool = False
    ) -> None:
        self.req = req
        self.now = now
        self.key = key
        self.announce = announce  # the caller posts no card: the jobs post it
        self.digest = request_hash(req) if key else ""
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


@dataclass(frozen=True)
class InWay:
    """Refused on the ranks the part-day rows decided: the holds it names are read after
    the rollback, outside the request's turn (``answering.worded``)."""

    blocked: Blocked
    mine: tuple[HoldItem, ...]

    @classmethod
    def of(cls, blocked: Blocked, checked: Checked) -> InWay:
        return cls(blocked, mine(checked))


@dataclass(frozen=True)
class Replay:
    """A retry whose key was answered meanwhile: that answer, read after this transaction."""

    first: idempotency.Record


# What a request's transaction (or its look, ``refused_on_sight``) decides; only an
# answer with a hold is committed, and ``answering.answered`` words each.
Attempted = RequestAnswer | Refused | InWay | Replay


def request_hold(tx: Tx, asked: Asked) -> Attempted:
    """The request in its transaction: the enquiry's row (a candidate date), then every
    item's part-days in one statement, before any read; then the decision, and the hold.

    Only a retry (``tx.attempt > 1``) looks the idempotency key up first. Under
    SERIALIZABLE that lookup locks the index page every concurrent submission inserts its
    key into, so two unrelated submissions would abort each other. Without it a twin is
    still caught: the unique key at ``idempotency.save`` (Retry: the next attempt looks it
    up), and after any refusal (``answering``: the twin's own hold may be in the way, and a
    reused key with another request is refused as such whatever else is wrong with it).
    """
    conn, venue, now = tx.conn, tx.venue, tx.now
    if asked.key and tx.attempt > 1:
        first = idempotency.find(conn, venue.id, asked.key)
        if first is not None:
            venues.ensure_current(conn, venue)  # the answer is worded on this copy
            return Replay(first)
    enquiry = joined(tx, asked.req)
    checked = enquiry if isinstance(enquiry, Refused) else asked.against(venue, enquiry)
    if isinstance(checked, Refused):
        # Refused on the request or its enquiry alone, before the bump that would check the
        # cached venue: checked here instead (a stale copy starts the attempt again).
        venues.ensure_current(conn, venue)
        return checked
    assert not isinstance(enquiry, Refused)  # noqa: S101 - it would be ``checked``
    # Every item's part-days in one sorted statement, which also answers their live spans
    # (no read of its own) and checks the cached venue: a conflicting commit since this
    # transaction's snapshot makes the bump fail with 40001, and one after it must wait for
    # this transaction. The hold's id (its arrival order, one for all its items) is taken
    # after the bump, so it follows theirs.
    live = part_days.bump_counted(conn, venue, span_counts(checked.spans, venue.tz))
    full = no_room_in(tx, enquiry)
    if full is not None:
        return full  # rolled back: nothing written, the bump undone
    ranked = decide_rank(checked, live.occupants(checked.spans), venue, now)
    if isinstance(ranked, Blocked):
        return InWay.of(ranked, checked)
    return _tell(tx, _hold(tx, asked, checked, ranked, enquiry), asked)


def writes(attempted: Attempted) -> bool:
    """Whether the transaction that decided ``attempted`` commits (else it rolls back)."""
    return isinstance(attempted, RequestAnswer)


def refused_on_sight(snap: Snapshot, asked: Asked) -> InWay | None:
    """A request that waited for another's turn on its part-days, refused on what their
    part-day rows carry once that turn is over, read in one statement: no transaction, no
    bump, no rollback. A crowd for one slot is answered at the pace of that read.

    The refusal is what its transaction would answer on that committed state, which it
    could also have seen; a request with room goes on to its transaction (``None``), and so
    does a candidate date (its enquiry decides too) and a stale cached venue.
    """
    if asked.req.enquiry_id is not None:
        return None
    checked = asked.against(snap.venue)
    if not isinstance(checked, Checked):
        return None
    live = part_days.seen(snap.conn, snap.venue, part_day_keys(checked.spans, snap.venue.tz))
    if live is None:
        return None
    ranked = decide_rank(checked, live.occupants(checked.spans), snap.venue, asked.now)
    return InWay.of(ranked, checked) if isinstance(ranked, Blocked) else None


def _hold(
    tx: Tx, asked: Asked, checked: Checked, ranked: Ranked, enquiry: Enquiry | None
) -> RequestAnswer:
    """The hold written (with its audit event, in one statement) and its key's answer.

    The holds ahead are only shown: ``answering.shown`` reads them after the commit, so that
    this transaction reads no hold rows (each would be a predicate lock under SERIALIZABLE
    on pages that concurrent requests insert into).
    """
    conn, venue, now = tx.conn, tx.venue, tx.now
    items = ranked_items(checked, ranked)
    event = Requested(
        asked.req.creator,
        ranked.rank,
        ranked.expires_at,
        tuple((i.room_id, i.rank or 1) for i in items),
    )
    requested = audit_event(event, now)
    assert requested is not None  # noqa: S101 - every request leaves one
    new = new_hold(asked.req, checked, ranked, items, enquiry)
    hold = hold_writes.insert(conn, venue, new, now, requested)
    if asked.key:
        answer = {
            "hold_id": hold.id,
            "rank": ranked.rank,
            "expires_at": ranked.expires_at.isoformat() if ranked.expires_at else None,
            "item_ranks": list(ranked.item_ranks),
        }
        if not idempotency.save(conn, venue.id, asked.key, asked.digest, answer, now):
            raise Retry  # a twin's answer is stored: the next attempt reads and replays it
    return RequestAnswer(
        hold,
        ranked.rank,
        ranked.expires_at,
        ahead=(),
        item_ranks=ranked.item_ranks,
        ahead_ids=ranked.ahead,
        in_way_ids=ranked.in_way,
    )


def _tell(tx: Tx, answer: RequestAnswer, asked: Asked) -> RequestAnswer:
    """Its card, when its surface posts none; and the holds ahead of a hold that queues
    are named in one notice, whose delivery tells those still 1st.

    This transaction reads none of them: each read would take a predicate lock on the page
    every concurrent request inserts its hold into, and abort them (40001). The notice that
    names them commits with the hold (the outbox's rule); ``shown`` reads them for the answer
    after the commit.
    """
    hold = answer.hold
    if asked.announce:
        tx.journal.record(Announced(hold, asked.req.creator))
    if answer.rank > 1 and answer.ahead_ids and tx.venue.policy.notify_first_of_second:
        tx.journal.record(Queued(hold, answer.ahead_ids))
    return answer


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
    if not req.house:
        del fields["house"]  # and those that are not house holds (0014) too
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()


def ranked_items(checked: Checked, ranked: Ranked) -> tuple[HoldItem, ...]:
    """A request's items as a hold carries them, each with its rank."""
    return tuple(
        HoldItem(i.room.id, i.room.name, i.room.parts, i.start, i.end, i.span.end, rank)
        for i, rank in zip(checked.items, ranked.item_ranks, strict=True)
    )


def mine(checked: Checked) -> tuple[HoldItem, ...]:
    """A checked request's items as the holds in its way are compared with (no rank yet)."""
    return tuple(
        HoldItem(i.room.id, i.room.name, i.room.parts, i.start, i.end, i.span.end, None)
        for i in checked.items
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
        house=checked.house,
    )
