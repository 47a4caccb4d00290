"""What each kind of event leaves behind: one entry per kind, read by ``core.journal``.

An entry says, for one event class, the line it writes to the audit trail (its ``Action``
and detail), the DMs it sends (their ``NoticeKind`` and to whom), and whether it redraws its
hold's card (adding one line, ``thread.<action>``, to the card's thread). ``bot.notices``
renders each declared DM kind and card line; ``tests/engine/test_event_kinds.py`` checks
that every kind is declared here, rendered there, and worded in both languages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Generic, TypeVar

from core import events
from core.events import SYSTEM, Action, Event
from core.model import Hold
from core.notices import QUEUED_RECIPIENT, NoticeKind
from core.pings import WindowPing, ping_to_json
from core.rules.pipeline import last_week_json
from core.serialize import hold_to_json

E = TypeVar("E")


@dataclass(frozen=True)
class Line:
    """A line of the audit trail: the hold (None: the new hold, filled in at its insert),
    who did it, and the detail stored with it."""

    hold: Hold | None
    actor: str
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Dm:
    """One DM to write: to whom, about which hold, what it says (holds as JSON), and its
    dedupe key (at most one row per key and venue: reminders, digests, queued)."""

    recipient: str
    payload: Mapping[str, Any]
    hold_id: int | None = None
    dedupe_key: str | None = None


@dataclass(frozen=True)
class Redraw:
    """A card row: the hold whose card is redrawn, who acted, and the facts of its line."""

    hold: Hold
    actor: str
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Kind(Generic[E]):
    """One kind's declaration: its trail line, its DMs, its card (None: it leaves none)."""

    trail: tuple[Action, Callable[[E], Line]] | None = None
    dms: tuple[NoticeKind, Callable[[E, datetime], list[Dm]]] | None = None
    card: tuple[Action, Callable[[E], Redraw]] | None = None


def told(hold: Hold, dedupe_key: str | None = None, **extra: Any) -> Dm:
    """A DM to the hold's own salesperson: the hold, and ``extra`` (holds as JSON)."""
    return Dm(hold.salesperson, {"hold": hold_to_json(hold), **_json(extra)}, hold.id, dedupe_key)


def _json(extra: Mapping[str, Any]) -> dict[str, Any]:
    return {k: hold_to_json(v) if isinstance(v, Hold) else v for k, v in extra.items()}


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _day(value: date | None) -> str:
    return value.isoformat() if value else ""


# -- what each kind needs beyond a line ------------------------------------------------------
def _requested(e: events.Requested) -> Line:
    items = [{"room": room, "rank": rank} for room, rank in e.items]
    return Line(None, e.actor, {"rank": e.rank, "expires_at": _iso(e.expires_at), "items": items})


def _promoted(e: events.Promoted, now: datetime) -> list[Dm]:
    # A hold whose event has begun moves up with a deadline already due: no Confirm button
    # could work, so it gets no DM; the next sweep expires it and says so.
    if e.hold.is_due(now):
        return []
    return [told(e.hold, cause=e.cause, after=list(e.after))]


def _queued(e: events.Queued, now: datetime) -> list[Dm]:
    # Whom to tell is read at delivery (``core.journal.told_queued``): one row names them all.
    payload = {"hold": hold_to_json(e.hold), "ahead": list(e.ahead)}
    return [Dm(QUEUED_RECIPIENT, payload, e.hold.id, f"queued:{e.hold.id}")]


def _digest(e: events.DigestDue, now: datetime) -> list[Dm]:
    payload = {
        "holds": [hold_to_json(h) for h in e.holds],
        "week": e.week,
        "from": e.start.isoformat(),
        "until": e.until.isoformat(),
        "follow_ups": [hold_to_json(h) for h in e.follow_ups],
    }
    return [Dm(e.salesperson, payload, dedupe_key=f"digest:{e.salesperson}:{e.week}")]


def _manager_digest(e: events.ManagerDigestDue, now: datetime) -> list[Dm]:
    waiting = [
        {"hold": hold_to_json(h), "ahead": [hold_to_json(a) for a in ahead]}
        for h, ahead in e.waiting
    ]
    payload = {
        "holds": [hold_to_json(h) for h in e.holds],
        "waiting": waiting,
        "overdue": [hold_to_json(h) for h in e.overdue],
        "last_week": last_week_json(e.last_week),
        "week": e.week,
        "from": e.start.isoformat(),
        "until": e.until.isoformat(),
    }
    return [Dm(e.manager, payload, dedupe_key=f"manager-digest:{e.manager}:{e.week}")]


def _nudged(e: events.Nudged, now: datetime) -> list[Dm]:
    """The 1st hears who asks and its new deadline; the waiting hold's salesperson, that the
    1st was asked (with the same deadline)."""
    facts = {"actor": e.actor, "first": hold_to_json(e.nudged), "asker": hold_to_json(e.asker)}
    return [
        Dm(
            e.nudged.salesperson,
            {"hold": hold_to_json(e.nudged), "to": "first", **facts},
            e.nudged.id,
        ),
        Dm(
            e.asker.salesperson, {"hold": hold_to_json(e.asker), "to": "asker", **facts}, e.asker.id
        ),
    ]


def _deposit_paid(e: events.DepositPaid) -> Line:
    paid = e.paid.deposit
    detail = {"amount": paid.amount, "paid_at": _iso(paid.paid_at), "due": _day(paid.due)}
    return Line(e.hold, e.actor, detail)


def _deposit_key(what: str, hold: Hold) -> str:
    """One row per booking and due date (a booking confirmed again gets a new due date)."""
    return f"deposit-{what}:{hold.enquiry_id}:{_day(hold.deposit.due)}"


def _ping_line(ping: WindowPing, actor: str) -> Line:
    """A ping's trail line: no hold's (hold_id None), naming the ping, its date and rooms."""
    rooms = [i.room_id for i in ping.request.items]
    detail = {"ping": ping.id, "local_date": ping.day.isoformat(), "rooms": rooms}
    return Line(None, actor, {**detail, "customer": ping.request.customer})


def _window_opened(e: events.WindowOpened, now: datetime) -> list[Dm]:
    """Its asker, once per ping: the request as asked (the DM's button fills the form)."""
    ping = e.ping
    payload = {"ping": ping_to_json(ping), "room_names": dict(e.room_names), "kind": e.kind_name}
    return [Dm(ping.asker, payload, dedupe_key=f"window_ping:{ping.id}")]


def _edited_card(e: events.Edited) -> Redraw:
    if e.kept_place:
        return Redraw(e.after, e.actor, {"before": e.before})
    # Swapped: the old card shows it released, replaced by the new hold (whose card its
    # surface posts, or the jobs when asked to: ``Announced``).
    return Redraw(e.before, e.actor, {"replaced_by": e.after})


def _as_edited(hold: Hold) -> dict[str, Any]:
    """What an edit may change, and the place it had: the before and after of the trail."""
    return {
        "id": hold.id,
        "local_date": hold.local_date.isoformat(),
        "items": [
            {"room": i.room_id, "start_at": i.start_at.isoformat(), "end_at": i.end_at.isoformat()}
            for i in hold.items
        ],
        "customer": hold.customer,
        "note": hold.note,
        "salesperson": hold.salesperson,
        "status": hold.status.value,
        "rank": hold.rank,
        "expires_at": _iso(hold.expires_at),
    }


def _edited(e: events.Edited) -> Line:
    detail = {
        "kept_place": e.kept_place,
        "now_id": e.after.id,
        "before": _as_edited(e.before),
        "after": _as_edited(e.after),
    }
    return Line(e.before, e.actor, detail)


# -- the entries: one per kind ---------------------------------------------------------------
KINDS: dict[type[Any], Kind[Any]] = {
    events.Requested: Kind[events.Requested](trail=(Action.REQUESTED, _requested)),
    events.Announced: Kind[events.Announced](
        card=(
            Action.REQUESTED,
            lambda e: Redraw(e.hold, e.actor, {"replaces": e.replaces} if e.replaces else {}),
        ),
    ),
    events.Queued: Kind[events.Queued](dms=(NoticeKind.QUEUED, _queued)),
    events.Confirmed: Kind[events.Confirmed](
        trail=(
            Action.CONFIRMED,
            lambda e: Line(
                e.hold, e.actor, {"released": [*e.released], "candidates": [*e.candidates]}
            ),
        ),
        card=(Action.CONFIRMED, lambda e: Redraw(e.hold, e.actor)),
    ),
    events.Lost: Kind[events.Lost](
        trail=(Action.LOST, lambda e: Line(e.hold, e.actor, {"winner": e.winner.id})),
        dms=(NoticeKind.LOST, lambda e, now: [told(e.hold, winner=e.winner)]),
        card=(Action.LOST, lambda e: Redraw(e.hold, e.actor, {"winner": e.winner})),
    ),
    events.OtherDateChosen: Kind[events.OtherDateChosen](
        trail=(Action.OTHER_DATE_CHOSEN, lambda e: Line(e.hold, e.actor, {"chosen": e.chosen.id})),
        dms=(NoticeKind.OTHER_DATE_CHOSEN, lambda e, now: [told(e.hold, chosen=e.chosen)]),
        card=(Action.OTHER_DATE_CHOSEN, lambda e: Redraw(e.hold, e.actor, {"chosen": e.chosen})),
    ),
    events.Released: Kind[events.Released](
        trail=(
            Action.RELEASED,
            lambda e: Line(
                e.hold, e.actor, {"rank": e.hold.rank, "reason": e.reason, "note": e.note}
            ),
        ),
        card=(Action.RELEASED, lambda e: Redraw(e.hold, e.actor)),
    ),
    events.Extended: Kind[events.Extended](
        trail=(
            Action.EXTENDED,
            lambda e: Line(e.hold, e.actor, {"expires_at": e.expires_at.isoformat()}),
        ),
        dms=(NoticeKind.EXTENDED, lambda e, now: [told(h, ahead=e.extended) for h in e.behind]),
        card=(Action.EXTENDED, lambda e: Redraw(e.extended, e.actor)),
    ),
    events.Nudged: Kind[events.Nudged](
        trail=(
            Action.NUDGED,
            lambda e: Line(
                e.hold, e.actor, {"expires_at": _iso(e.nudged.expires_at), "asker": e.asker.id}
            ),
        ),
        dms=(NoticeKind.NUDGED, _nudged),
        card=(Action.NUDGED, lambda e: Redraw(e.nudged, e.actor)),
    ),
    events.Cancelled: Kind[events.Cancelled](
        trail=(Action.CANCELLED, lambda e: Line(e.hold, e.actor, {"reason": e.reason})),
        # A manager's act: its salesperson hears who cancelled and why.
        dms=(
            NoticeKind.CANCELLED,
            lambda e, now: [told(e.hold, actor=e.actor, reason=e.reason)],
        ),
        card=(Action.CANCELLED, lambda e: Redraw(e.hold, e.actor, {"reason": e.reason})),
    ),
    events.Promoted: Kind[events.Promoted](
        trail=(
            Action.PROMOTED,
            lambda e: Line(e.hold, e.actor, {"expires_at": _iso(e.hold.expires_at)}),
        ),
        dms=(NoticeKind.PROMOTED, _promoted),
        card=(
            Action.PROMOTED,
            lambda e: Redraw(e.hold, e.actor, {"cause": e.cause, "after": list(e.after)}),
        ),
    ),
    events.Expired: Kind[events.Expired](
        trail=(Action.EXPIRED, lambda e: Line(e.hold, SYSTEM)),
        dms=(NoticeKind.EXPIRED, lambda e, now: [told(e.hold)]),
        card=(Action.EXPIRED, lambda e: Redraw(e.hold, SYSTEM)),
    ),
    events.Edited: Kind[events.Edited](
        trail=(Action.EDITED, _edited), card=(Action.EDITED, _edited_card)
    ),
    events.ReminderDue: Kind[events.ReminderDue](
        dms=(
            NoticeKind.REMINDER,
            lambda e, now: [
                told(e.hold, dedupe_key=f"reminder:{e.hold.id}:{_iso(e.hold.expires_at) or ''}")
            ],
        ),
    ),
    # Someone else acted on a salesperson's hold: they hear who did what, and why.
    events.ActedFor: Kind[events.ActedFor](
        dms=(
            NoticeKind.ACTED_FOR,
            lambda e, now: [
                told(e.hold, actor=e.actor, action=e.action, reason=e.reason, note=e.note)
            ],
        ),
    ),
    events.NextActionDue: Kind[events.NextActionDue](
        dms=(
            NoticeKind.NEXT_ACTION,
            lambda e, now: [
                told(
                    e.hold,
                    dedupe_key=f"next_action:{e.hold.enquiry_id}:{_day(e.hold.details.next_action)}",
                )
            ],
        ),
    ),
    # 予約金 (docs/rules.md, Deposits): each reminder and past-due notice once per booking.
    events.DepositPaid: Kind[events.DepositPaid](
        trail=(Action.DEPOSIT_PAID, _deposit_paid),
        card=(Action.DEPOSIT_PAID, lambda e: Redraw(e.paid, e.actor)),
    ),
    events.DepositReminderDue: Kind[events.DepositReminderDue](
        dms=(
            NoticeKind.DEPOSIT_REMINDER,
            lambda e, now: [told(e.hold, dedupe_key=_deposit_key("reminder", e.hold))],
        ),
    ),
    events.DepositOverdue: Kind[events.DepositOverdue](
        trail=(
            Action.DEPOSIT_OVERDUE,
            lambda e: Line(e.hold, SYSTEM, {"due": _day(e.hold.deposit.due)}),
        ),
        dms=(
            NoticeKind.DEPOSIT_OVERDUE,
            lambda e, now: [told(e.hold, dedupe_key=_deposit_key("overdue", e.hold))],
        ),
    ),
    events.DigestDue: Kind[events.DigestDue](dms=(NoticeKind.DIGEST, _digest)),
    events.ManagerDigestDue: Kind[events.ManagerDigestDue](
        dms=(NoticeKind.MANAGER_DIGEST, _manager_digest)
    ),
    events.PingAsked: Kind[events.PingAsked](
        trail=(Action.PING_ASKED, lambda e: _ping_line(e.ping, e.ping.asker)),
    ),
    events.PingDropped: Kind[events.PingDropped](
        trail=(Action.PING_DROPPED, lambda e: _ping_line(e.ping, e.actor)),
    ),
    events.WindowOpened: Kind[events.WindowOpened](
        trail=(Action.PING_SENT, lambda e: _ping_line(e.ping, SYSTEM)),
        dms=(NoticeKind.WINDOW_OPEN, _window_opened),
    ),
}


def kind_of(event: Event) -> Kind[Any]:
    """The entry of ``event``'s kind (a KeyError names a kind nobody declared)."""
    return KINDS[type(event)]


def dm_kinds() -> frozenset[NoticeKind]:
    """Every kind of DM some event sends (``bot.notices`` renders each)."""
    return frozenset(k.dms[0] for k in KINDS.values() if k.dms is not None)


def card_lines() -> frozenset[Action]:
    """Every action a card row names (``bot.notices`` draws its line in the card's thread)."""
    return frozenset(k.card[0] for k in KINDS.values() if k.card is not None)
