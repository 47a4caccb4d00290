"""House holds (社内押さえ): the venue's own use of a room, held by a manager (docs/rules.md,
House holds). Pure: what a request for one must be, and what stands in its way."""

from __future__ import annotations

from core.model import HoldRequest, Venue
from core.results import Code, Refused


def check_house(req: HoldRequest, venue: Venue) -> Refused | None:
    """A house hold is asked for by a manager, as an enquiry of its own (never another
    candidate date); anything else is no house hold and passes."""
    if not req.house:
        return None
    if not venue.is_manager(req.creator):
        return Refused(Code.NOT_A_MANAGER, field="house", detail=req.creator[:64])
    if req.enquiry_id is not None:
        return Refused(Code.ENQUIRY_MISMATCH, field="house", detail=str(req.enquiry_id))
    return None
