"""Reads of one venue's ledger: a hold, a list of holds, a salesperson's overview."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta

from core.model import LIVE, Hold, Status
from core.operations.tx import Snapshot
from core.results import Code, EnquiryView, Overview, Refused, Waiting
from core.rules.requests import spans_of
from core.store import deposits, enquiries, holds

RECENT = timedelta(days=14)


def hold(snap: Snapshot, hold_id: int) -> Hold | Refused:
    found = holds.get(snap.conn, snap.venue, hold_id)
    return found if found else Refused(Code.HOLD_NOT_FOUND, detail=str(hold_id))


def enquiry(snap: Snapshot, enquiry_id: int) -> EnquiryView | Refused:
    found = enquiries.get(snap.conn, snap.venue, enquiry_id)
    if found is None:
        return Refused(Code.ENQUIRY_NOT_FOUND, detail=str(enquiry_id))
    return EnquiryView(found, tuple(holds.of_enquiry(snap.conn, snap.venue, enquiry_id)))


def listing(
    snap: Snapshot,
    on: date | None = None,
    salesperson: str | None = None,
    statuses: Sequence[Status] | None = None,
    limit: int | None = 500,
    since: date | None = None,
) -> list[Hold]:
    return holds.listing(
        snap.conn,
        snap.venue,
        on=on,
        salesperson=salesperson,
        statuses=statuses,
        limit=limit,
        since=since,
    )


def overview(snap: Snapshot, user: str, now: datetime) -> Overview:
    """A salesperson's 1st holds, waiting holds with who is ahead, and recent outcomes."""
    conn, venue = snap.conn, snap.venue
    live = holds.listing(conn, venue, salesperson=user, statuses=LIVE)
    recent = holds.listing(
        conn,
        venue,
        salesperson=user,
        statuses=[s for s in Status if s is not Status.TENTATIVE],
        updated_since=now - RECENT,
    )
    queued = [h for h in live if h.status is Status.TENTATIVE and h.rank != 1]
    aheads = ahead_of_each(snap, queued)
    waiting = [Waiting(h, tuple(ahead)) for h, ahead in zip(queued, aheads, strict=True)]
    recent_first = sorted(recent, key=lambda h: h.updated_at, reverse=True)
    return Overview(
        firsts=tuple(h for h in live if h.is_first),
        waiting=tuple(waiting),
        recent=tuple(recent_first),
        deposits=tuple(deposits.waiting_of(conn, venue, user)),
    )


def ahead_of_each(snap: Snapshot, waiting: Sequence[Hold]) -> list[list[Hold]]:
    """For each of ``waiting``, the holds with a blocking item (confirmed, or rank 1) in the
    way of one of its items, in arrival order: one read of the ledger and one of holds,
    whatever their number (App Home lists a salesperson's every 2nd)."""
    spans = [spans_of(h) for h in waiting]
    found = holds.occupants(snap.conn, snap.venue, [s for mine in spans for s in mine])
    blocking = [o for o in found if o.first or o.confirmed]
    # One statement found them all; each hold keeps the ones on its own spans: an
    # occupant's span carries the parts it was found on, so this is the statement's test.
    ids = [
        sorted(
            {o.hold_id for o in blocking if o.hold_id != h.id and any(map(o.span.conflicts, mine))}
        )
        for h, mine in zip(waiting, spans, strict=True)
    ]
    read = {h.id: h for h in holds.get_many(snap.conn, snap.venue, {i for a in ids for i in a})}
    return [[read[i] for i in mine if i in read] for mine in ids]
