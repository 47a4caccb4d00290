"""What a request would get now, read-only (the /hold modal's live preview, `osae hold
--dry-run`): the same decision as ``request.request_hold``, nothing bumped or written."""

from __future__ import annotations

from datetime import datetime

from core.model import HoldRequest
from core.operations.answering import blocked_by, customer_warnings, same_customer
from core.operations.candidates import joining, looked_up, no_room_in
from core.operations.request import mine, ranked_items
from core.operations.tx import Snapshot
from core.results import Preview, Refused, RequestWarning
from core.rules.capacity import over_capacity
from core.rules.obstacles import in_the_way
from core.rules.requests import Blocked, Checked, check_request, decide_rank
from core.rules.spans import part_day_keys
from core.store import holds, part_days, venues


def preview(snap: Snapshot, req: HoldRequest, now: datetime) -> Preview | Refused:
    """The rank, deadline and holds ahead a request would get, or its refusal. ``snap``'s
    venue may be the cached copy: its first read of the part-day rows checks it."""
    enquiry = looked_up(snap, req)
    checked: Checked | Refused
    if isinstance(enquiry, Refused):
        checked = enquiry
    else:
        checked = check_request(joining(req, enquiry) if enquiry else req, snap.venue, now)
    if isinstance(checked, Refused):
        # Refused before any read of the part-day rows that would check the cached venue.
        venues.ensure_current(snap.conn, snap.venue)
        return checked
    assert not isinstance(enquiry, Refused)  # noqa: S101 - it would be ``checked``
    keys = part_day_keys(checked.spans, snap.venue.tz)
    anyone = part_days.live_spans(snap.conn, snap.venue, keys)  # checks the cached venue
    full = no_room_in(snap, enquiry)
    if full is not None:
        return full
    occupants = holds.occupants(snap.conn, snap.venue, checked.spans) if anyone else []
    ranked = decide_rank(checked, occupants, snap.venue, now)
    if isinstance(ranked, Blocked):
        return blocked_by(snap, ranked, mine(checked))
    around = holds.get_many(snap.conn, snap.venue, ranked.in_way)
    ahead = [h for h in around if h.id in ranked.ahead]
    in_way = in_the_way(ranked_items(checked, ranked), around)
    rooms = (i.room.id for i in checked.items)
    warnings: tuple[RequestWarning, ...] = over_capacity(snap.venue.rooms, rooms, checked.guests)
    if enquiry is None:
        found = same_customer(snap.conn, snap.venue.id, checked.customer, None)
        warnings = customer_warnings(snap, checked.customer, found) + warnings
    return Preview(
        ranked.rank, ranked.expires_at, tuple(ahead), ranked.item_ranks, warnings, in_way
    )
