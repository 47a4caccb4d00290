"""A venue's ledger brought in (docs/rules.md, Import): the rows of a file placed as holds in
one transaction, all or nothing. Rows of one booking on one date are one hold (its rooms);
its other dates, candidate dates of the same enquiry. 本予約 rows are placed first, then by
the rank the file gives (file order within each), so each hold takes back its place; a
row's request and confirmation are the engine's own, in a savepoint, so one that cannot be
placed is named with its lines and why, and the others still tried."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from core.exports.reading import PlaceAs, Problem, Sheet, SheetRow
from core.journal import Journal
from core.model import Details, HoldRequest, ItemRequest, Venue
from core.operations import answering, decisions
from core.operations.request import Asked, Attempted, InWay, request_hold
from core.operations.tx import Tx
from core.results import Refused, RequestAnswer
from core.store import deadlines
from core.uow import Rollback


@dataclass(frozen=True)
class RowRefusal:
    """Lines that could not be placed: a problem of the file, or the engine's refusal."""

    lines: tuple[int, ...]
    problem: Problem | None = None
    refused: Refused | None = None


@dataclass(frozen=True)
class ImportAnswer:
    rows: int  # lines placed (or placeable, for a dry run)
    holds: tuple[int, ...]  # the ids of the holds placed (none kept after a dry run)
    confirmed: int
    skipped: int  # lines of holds that had left
    refusals: tuple[RowRefusal, ...]
    dry_run: bool

    @property
    def placed(self) -> bool:
        return not self.refusals and not self.dry_run


@dataclass(frozen=True)
class _Group:
    rows: tuple[SheetRow, ...]

    @property
    def first(self) -> SheetRow:
        return self.rows[0]

    @property
    def lines(self) -> tuple[int, ...]:
        return tuple(r.line for r in self.rows)


def place(tx: Tx, sheet: Sheet, actor: str | None, dry_run: bool) -> ImportAnswer:
    """Every row placed, or nothing written (a refusal, or a dry run, rolls all back).
    ``actor``: who places them (None: each row's salesperson, as a request of theirs)."""
    refusals = [RowRefusal((p.line,), problem=p) for p in sheet.problems]
    groups, wrong = _groups(sheet.rows, tx.venue)
    refusals += wrong
    enquiries: dict[str, int] = {}
    placed: list[int] = []
    confirmed = rows = 0
    for group in sorted(groups, key=_order):
        done = _place(tx, group, actor or group.first.salesperson, enquiries)
        if isinstance(done, RowRefusal):
            refusals.append(done)
            continue
        placed.append(done)
        rows += len(group.rows)
        confirmed += group.first.placement.how is PlaceAs.CONFIRMED
    refusals.sort(key=lambda r: r.lines)
    answer = ImportAnswer(rows, tuple(placed), confirmed, sheet.skipped, tuple(refusals), dry_run)
    if not answer.placed:
        raise Rollback(answer)  # all or nothing: what was placed is rolled back with the rest
    return answer


def _order(group: _Group) -> tuple[int, int]:
    how = group.first.placement
    return (0 if how.how is PlaceAs.CONFIRMED else how.rank or 1, group.first.line)


def _groups(rows: Sequence[SheetRow], venue: Venue) -> tuple[list[_Group], list[RowRefusal]]:
    """Rows of one booking on one date together (one hold); a row without a booking number
    is a hold of its own. A room or kind the venue does not have is named here."""
    by_key: dict[tuple[str, object], list[SheetRow]] = {}
    refusals = []
    for row in rows:
        problem = _unknown(row, venue)
        if problem is not None:
            refusals.append(RowRefusal((row.line,), problem=problem))
            continue
        key = (row.booking, row.day) if row.booking else (f"line {row.line}", row.day)
        by_key.setdefault(key, []).append(row)
    groups = []
    for found in by_key.values():
        first = found[0]
        same = {(r.customer, r.kind, r.salesperson, r.placement.how) for r in found}
        if len(same) > 1:
            mixed = Problem(first.line, "mixed_booking", {"value": first.booking})
            refusals.append(RowRefusal(tuple(r.line for r in found), problem=mixed))
            continue
        groups.append(_Group(tuple(found)))
    return groups, refusals


def _unknown(row: SheetRow, venue: Venue) -> Problem | None:
    if room_id(row.room, venue) is None:
        rooms = "、".join(r.name for r in venue.rooms.values() if r.active)
        return Problem(row.line, "unknown_room", {"value": row.room, "rooms": rooms})
    if kind_id(row.kind, venue) is None:
        kinds = "、".join(k.name for k in venue.policy.kinds)
        return Problem(row.line, "unknown_kind", {"value": row.kind, "kinds": kinds})
    return None


def room_id(said: str, venue: Venue) -> str | None:
    """A room by its id or its name, as the file says it."""
    if said in venue.rooms:
        return said
    return next((r.id for r in venue.rooms.values() if r.name == said), None)


def kind_id(said: str, venue: Venue) -> str | None:
    return next((k.id for k in venue.policy.kinds if said in (k.id, k.name)), None)


def _place(tx: Tx, group: _Group, actor: str, enquiries: dict[str, int]) -> int | RowRefusal:
    """One hold, in a savepoint with its own journal: written only if it is placed."""
    req = _request(group, tx.venue, actor, enquiries.get(group.first.booking))
    mine = replace(tx, journal=Journal(tx.conn, tx.venue.id, tx.now))
    point = tx.conn.begin_nested()
    answer = request_hold(mine, Asked(req, tx.now))
    if not isinstance(answer, RequestAnswer):
        point.rollback()
        return RowRefusal(group.lines, refused=_worded(mine, answer))
    hold = answer.hold
    if group.first.placement.how is PlaceAs.CONFIRMED:
        done = decisions.confirm(mine, hold.id, actor)
        if isinstance(done, Refused):
            point.rollback()
            return RowRefusal(group.lines, refused=done)
    else:
        _keep_deadline(mine, answer, group.first.deadline)
    mine.journal.flush()
    point.commit()
    if group.first.booking:
        enquiries.setdefault(group.first.booking, hold.enquiry_id)
    return hold.id


def _worded(tx: Tx, answer: Attempted) -> Refused:
    """A row's refusal naming the holds in its way, read in the import's transaction."""
    if isinstance(answer, InWay):
        return answering.worded(tx, answer)
    assert isinstance(answer, Refused)  # noqa: S101 - no key, so no replay
    return answer


def _keep_deadline(tx: Tx, answer: RequestAnswer, said: datetime | None) -> None:
    """A 1st hold keeps the file's 期限 when it is still ahead and before the event."""
    hold = answer.hold
    if said is None or not hold.is_first:
        return
    deadline = said.replace(tzinfo=tx.venue.tz)
    if tx.now < deadline <= hold.first_start:
        deadlines.keep_deadline(tx.conn, tx.venue, hold.id, deadline)


def _request(group: _Group, venue: Venue, actor: str, enquiry: int | None) -> HoldRequest:
    first = group.first
    also = tuple(
        ItemRequest(room_id(r.room, venue) or r.room, r.start_min, r.end_min)
        for r in group.rows[1:]
    )
    joining = enquiry is not None
    return HoldRequest(
        room_id=room_id(first.room, venue) or first.room,
        local_date=first.day,
        start_min=first.start_min,
        end_min=first.end_min,
        kind="" if joining else kind_id(first.kind, venue) or first.kind,
        customer="" if joining else first.customer,
        salesperson="" if joining else first.salesperson,
        creator=actor,
        note=first.note,
        also=also,
        enquiry_id=enquiry,
        guests=first.guests,
        contact=first.contact,
        details=Details(estimate=first.estimate, source=source_code(first.source, venue)),
        house=first.placement.how is PlaceAs.HOUSE,  # 社内押さえ: its placer must be a manager
    )


def source_code(said: str, venue: Venue) -> str:
    """媒体 as the export wrote it (the venue's name) or as typed (a code); an unknown one is
    kept as written, for the request's check to refuse by name."""
    for code, name in venue.policy.sources:
        if said in (code, name):
            return code
    return said
