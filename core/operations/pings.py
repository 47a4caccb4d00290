"""The window ping (開放日に知らせる; DESIGN.md, The manager's pipeline): a banquet refused
because its date's banquet window is not open yet is kept with who asked; at the opening
instant (venue-local midnight ``banquet_open_days`` before the date, as the refusal says)
each asker is told, in the order they asked, once: the DM's outbox row is written in the
transaction that marks the ping sent."""

from __future__ import annotations

from dataclasses import replace

from core import events
from core.model import HoldRequest, Kind, Venue
from core.operations.tx import Snapshot, Tx
from core.pings import PingAnswer, PingStatus, WindowPing
from core.results import Code, Refused
from core.rules.deadlines import banquet_opens_at
from core.rules.requests import check_request
from core.store import window_pings


def opening(ping: WindowPing, venue: Venue) -> WindowPing:
    """The ping with when its date's banquet window opens, by the venue's rules as they are
    now (None: no window on that date any more, so it is open)."""
    return replace(ping, opens_at=banquet_opens_at(ping.day, venue.policy, venue.tz))


def add(tx: Tx, req: HoldRequest, asker: str) -> PingAnswer | Refused:
    """Kept only when the request is refused for its window alone; any other refusal of its
    input is answered as the request would be, and one that would be taken now is refused
    saying so (hold it instead). The same asker asking the same again gets the first."""
    venue = tx.venue
    checked = check_request(req, venue, tx.now)
    if isinstance(checked, Refused) and checked.code is not Code.BANQUET_NOT_OPEN:
        return checked
    if not isinstance(checked, Refused):
        return _not_needed(req, venue)
    for ping in window_pings.waiting(tx.conn, venue.id, asker=asker):
        if _same(ping.request, req):
            return PingAnswer(opening(ping, venue), replayed=True)
    ping = opening(window_pings.add(tx.conn, venue.id, asker, req, tx.now), venue)
    tx.journal.record(events.PingAsked(ping))
    return PingAnswer(ping)


def _not_needed(req: HoldRequest, venue: Venue) -> Refused:
    kind = venue.policy.kind(req.kind)
    opens = banquet_opens_at(req.local_date, venue.policy, venue.tz)
    if opens is None and kind is not None and kind.cls is Kind.BANQUET:
        return Refused(Code.NOT_PRIORITY_DAY, field="date", detail=req.local_date.isoformat())
    return Refused(
        Code.WINDOW_OPEN,
        field="date",
        opens_at=opens,
        kinds=(kind,) if kind else (),
        detail=req.local_date.isoformat(),
    )


def _same(a: HoldRequest, b: HoldRequest) -> bool:
    keep = ("room_id", "local_date", "start_min", "end_min", "kind", "customer", "also")
    return all(getattr(a, f) == getattr(b, f) for f in keep)


def drop(tx: Tx, ping_id: int, actor: str) -> WindowPing | Refused:
    """Its asker or a manager; a ping told already or dropped is not found."""
    ping = window_pings.get(tx.conn, tx.venue.id, ping_id)
    if ping is None or ping.status is not PingStatus.WAITING:
        return Refused(Code.PING_NOT_FOUND, detail=str(ping_id))
    if not ping.may_drop(actor, tx.venue.managers):
        return Refused(Code.NOT_AUTHORIZED, detail="ping")
    window_pings.mark_dropped(tx.conn, tx.venue.id, ping_id, actor, tx.now)
    dropped = replace(ping, status=PingStatus.DROPPED, done_at=tx.now, dropped_by=actor)
    tx.journal.record(events.PingDropped(dropped, actor))
    return opening(dropped, tx.venue)


def deliver_due(tx: Tx) -> list[WindowPing]:
    """Every waiting ping whose window has opened by now, in the order asked: marked sent,
    and its DM written in the same transaction (its dedupe key: once per ping)."""
    venue = tx.venue
    due = [
        p
        for p in (opening(w, venue) for w in window_pings.waiting(tx.conn, venue.id, lock=True))
        if p.opens_at is None or p.opens_at <= tx.now
    ]
    window_pings.mark_sent(tx.conn, venue.id, [p.id for p in due], tx.now)
    sent = [replace(p, status=PingStatus.SENT, done_at=tx.now) for p in due]
    tx.journal.record(*[_opened(p, venue) for p in sent])
    return sent


def _opened(ping: WindowPing, venue: Venue) -> events.WindowOpened:
    rooms = [i.room_id for i in ping.request.items]
    names = tuple((r, venue.rooms[r].name if r in venue.rooms else r) for r in rooms)
    kind = venue.policy.kind(ping.request.kind)
    return events.WindowOpened(ping, names, kind.name if kind else ping.request.kind)


def one(snap: Snapshot, ping_id: int) -> WindowPing | Refused:
    found = window_pings.get(snap.conn, snap.venue.id, ping_id)
    return (
        opening(found, snap.venue) if found else Refused(Code.PING_NOT_FOUND, detail=str(ping_id))
    )


def listing(snap: Snapshot, asker: str | None = None, everything: bool = False) -> list[WindowPing]:
    """The waiting pings (of ``asker``), in the order asked; ``everything``: sent and dropped
    too, after them."""
    conn, venue = snap.conn, snap.venue
    if everything:
        found = window_pings.listing(conn, venue.id)
        found = [p for p in found if asker is None or p.asker == asker]
    else:
        found = window_pings.waiting(conn, venue.id, asker=asker)
    return [opening(p, venue) for p in found]
