"""Another candidate date of an enquiry: the enquiry it joins, and whether it has room for
one more (docs/rules.md, Candidate dates). A request and its preview ask the same."""

from __future__ import annotations

from dataclasses import replace

from core.model import LIVE, Enquiry, HoldRequest, Status, Venue
from core.operations.tx import Snapshot, Tx
from core.results import Code, Refused
from core.rules.customers import customer_key
from core.rules.details import joined_details
from core.store import enquiries, holds


def joined(tx: Tx, req: HoldRequest) -> Enquiry | Refused | None:
    """The enquiry a request's candidate date joins (None for a new enquiry), its row
    bumped first: the write's first statement, before its part-days."""
    if req.enquiry_id is None:
        return None
    found = enquiries.bump(tx.conn, tx.venue, req.enquiry_id, tx.now)
    return _checked(found, req, tx.venue)


def looked_up(snap: Snapshot, req: HoldRequest) -> Enquiry | Refused | None:
    """The same for a preview: read, not bumped."""
    if req.enquiry_id is None:
        return None
    return _checked(enquiries.get(snap.conn, snap.venue, req.enquiry_id), req, snap.venue)


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


def no_room_in(snap: Snapshot, enquiry: Enquiry | None) -> Refused | None:
    """A candidate date needs an enquiry still open, with fewer than max_candidates live
    (read after the part-day bump in a request: the bump comes before any read)."""
    if enquiry is None:
        return None
    live = [h for h in holds.of_enquiry(snap.conn, snap.venue, enquiry.id) if h.status in LIVE]
    if any(h.house for h in live):  # a house hold is an enquiry of its own
        return Refused(Code.ENQUIRY_MISMATCH, field="house", detail=str(enquiry.id))
    confirmed = [h for h in live if h.status is Status.CONFIRMED]
    if confirmed:
        return Refused(Code.ENQUIRY_CONFIRMED, hold=confirmed[0], detail=str(enquiry.id))
    limit = snap.venue.policy.max_candidates
    if len(live) >= limit:
        return Refused(Code.TOO_MANY_CANDIDATES, holders=tuple(live), limit=limit)
    return None


def _checked(found: Enquiry | None, req: HoldRequest, venue: Venue) -> Enquiry | Refused:
    """The enquiry, if the actor may add to it and what the request gives matches it."""
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
