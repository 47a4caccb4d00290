"""The four invariants of docs/rules.md, at hold and item level, checked on holds and on the
rows stored beside them.

Ranks and conflicts are counted by the test model (``tests.support.model``), not by
``core.rules``: the check shares no code with what it checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

import sqlalchemy as sa

from core.model import Hold, HoldItem, Status, Venue
from core.store import holds as hold_store
from tests.support.model import conflict, rank_among

Span = tuple[frozenset[str], object, object]
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def is_blocking(h: Hold) -> bool:
    return h.status is Status.CONFIRMED or (h.status is Status.TENTATIVE and h.rank == 1)


def item_blocks(h: Hold, item: HoldItem) -> bool:
    """Confirmed items and items of rank 1 (even while their hold waits on another item)."""
    return h.status is Status.CONFIRMED or (h.status is Status.TENTATIVE and item.rank == 1)


def span(item: HoldItem) -> Span:
    return (item.parts, item.start_at, item.span_end)


def check_holds(listed: Sequence[Hold], max_rank: int) -> None:
    """The invariants over ``listed`` (decided holds may be among them), at hold and item
    level, and that each stored item rank is the rank rule's and each hold's the largest."""
    for h in listed:
        for i, a in enumerate(h.items):
            for b in h.items[i + 1 :]:
                assert not conflict(span(a), span(b)), ("items of one hold conflict", h)
        if h.status is Status.TENTATIVE:
            assert h.rank is not None and 1 <= h.rank <= max_rank, ("invariant 3", h)
            assert h.rank == max(i.rank or 0 for i in h.items), ("hold rank is not its max", h)
            _check_deadline(h)
            earlier = [
                span(i)
                for o in listed
                if o.id < h.id and o.status is Status.TENTATIVE
                for i in o.items
            ]
            for item in h.items:
                assert item.rank == rank_among(span(item), earlier), ("stale item rank", h)
            if h.expires_at is not None:
                assert h.expires_at <= min(i.start_at for i in h.items), ("late deadline", h)
        else:
            assert h.rank is None and h.expires_at is None, ("decided hold keeps a rank", h)
            assert all(i.rank is None for i in h.items), ("decided item keeps a rank", h)
        for o in listed:
            if o.id <= h.id:
                continue
            for a in h.items:
                for b in o.items:
                    if not conflict(span(a), span(b)):
                        continue
                    blocking = item_blocks(h, a) and item_blocks(o, b)
                    assert not blocking, ("invariant 1", h.id, o.id)
                    statuses = {h.status, o.status}
                    assert statuses != {Status.TENTATIVE, Status.CONFIRMED}, (
                        "invariant 2",
                        h.id,
                        o.id,
                    )


def _check_deadline(h: Hold) -> None:
    """Invariant 4: a deadline iff every item is rank 1; a house hold (社内押さえ) has every
    item rank 1 and no deadline."""
    every_first = all(i.rank == 1 for i in h.items)
    if h.house:
        assert every_first and h.expires_at is None, ("invariant 4 (house)", h)
    else:
        assert (h.expires_at is not None) == every_first, ("invariant 4", h)


def live_holds(db: sa.Engine, venue: Venue) -> list[Hold]:
    with db.connect() as conn:
        return hold_store.listing(
            conn, venue, statuses=[Status.TENTATIVE, Status.CONFIRMED], limit=10**6
        )


def check(db: sa.Engine, venue: Venue) -> list[Hold]:
    """Assert the invariants on what the database holds for one venue, span rows, items and
    part-day counts included; return the live holds for further checks."""
    live = live_holds(db, venue)
    check_holds(live, venue.policy.max_rank)
    _check_span_rows(db, venue, live)
    _check_span_counts(db, venue, live)
    _check_ledger_spans(db, venue)
    _check_rows_belong(db, venue)
    return live


def part_days(item: HoldItem, venue: Venue) -> set[tuple[str, date]]:
    first = item.start_at.astimezone(venue.tz).date()
    last = (item.span_end - timedelta(microseconds=1)).astimezone(venue.tz).date()
    days = [first + timedelta(days=n) for n in range((last - first).days + 1)]
    return {(p, d) for p in item.parts for d in days}


def _check_span_counts(db: sa.Engine, venue: Venue, live: list[Hold]) -> None:
    """Each part-day row counts exactly the live item spans that touch it."""
    with db.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT part_id, day, live_spans FROM part_days WHERE venue_id = :v"),
            {"v": venue.id},
        ).all()
    got = {(r.part_id, r.day): r.live_spans for r in rows if r.live_spans}
    want = Counter(key for h in live for item in h.items for key in part_days(item, venue))
    assert got == dict(want), "part-day span counts out of step with the live holds"


def _check_ledger_spans(db: sa.Engine, venue: Venue) -> None:
    """Each part-day row carries exactly the span rows that touch it (the triggers of
    migration 0006), as the requests' decisions read them."""
    with db.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT part_id, day, spans FROM part_days WHERE venue_id = :v"),
            {"v": venue.id},
        ).all()
        spans = conn.execute(
            sa.text(
                "SELECT hold_id, item_no, part_id, starts_at, ends_at, blocking, confirmed"
                " FROM hold_spans WHERE venue_id = :v"
            ),
            {"v": venue.id},
        ).all()
    got = {(r.part_id, r.day, key): tuple(entry) for r in rows for key, entry in r.spans.items()}
    want: dict[tuple[str, date, str], tuple[object, ...]] = {}
    for s in spans:
        entry = (micros(s.starts_at), micros(s.ends_at), s.blocking, s.confirmed)
        first = s.starts_at.astimezone(venue.tz).date()
        last = (s.ends_at - timedelta(microseconds=1)).astimezone(venue.tz).date()
        for day in (first + timedelta(days=n) for n in range((last - first).days + 1)):
            want[(s.part_id, day, f"{s.hold_id}:{s.item_no}")] = entry
    differ = got.items() ^ want.items()
    assert got == want, ("part-day spans out of step with the span rows", differ)


def micros(at: datetime) -> int:
    return (at - EPOCH) // timedelta(microseconds=1)


def _check_span_rows(db: sa.Engine, venue: Venue, live: list[Hold]) -> None:
    """Span rows exist for exactly the live holds' items' parts, flagged blocking as they
    should be (an item of rank 1 blocks even while its hold waits)."""
    with db.connect() as conn:
        rows = conn.execute(
            sa.text(
                "SELECT hold_id, item_no, part_id, starts_at, ends_at, blocking, confirmed"
                " FROM hold_spans WHERE venue_id = :v"
            ),
            {"v": venue.id},
        ).all()
    got = {
        (r.hold_id, r.item_no, r.part_id): (r.starts_at, r.ends_at, r.blocking, r.confirmed)
        for r in rows
    }
    want = {
        (h.id, n, p): (i.start_at, i.span_end, item_blocks(h, i), h.status is Status.CONFIRMED)
        for h in live
        for n, i in enumerate(h.items, start=1)
        for p in i.parts
    }
    assert got == want, "span rows out of step with the live holds"


def _check_rows_belong(db: sa.Engine, venue: Venue) -> None:
    """Without foreign keys, every hold has its enquiry and items 1..n, and nothing else."""
    with db.connect() as conn:
        orphans = conn.execute(
            sa.text(
                """
                SELECT
                  (SELECT count(*) FROM holds h WHERE h.venue_id = :v AND NOT EXISTS (
                     SELECT 1 FROM enquiries e WHERE e.venue_id = :v AND e.id = h.enquiry_id)),
                  (SELECT count(*) FROM hold_items i WHERE i.venue_id = :v AND NOT EXISTS (
                     SELECT 1 FROM holds h WHERE h.venue_id = :v AND h.id = i.hold_id)),
                  (SELECT count(*) FROM hold_spans s WHERE s.venue_id = :v AND NOT EXISTS (
                     SELECT 1 FROM hold_items i WHERE i.venue_id = :v AND i.hold_id = s.hold_id
                       AND i.item_no = s.item_no)),
                  (SELECT count(*) FROM (
                     SELECT hold_id FROM hold_items WHERE venue_id = :v GROUP BY hold_id
                     HAVING min(item_no) <> 1 OR max(item_no) <> count(*)) AS gaps),
                  (SELECT count(*) FROM holds h WHERE h.venue_id = :v AND NOT EXISTS (
                     SELECT 1 FROM hold_items i WHERE i.venue_id = :v AND i.hold_id = h.id))
                """
            ),
            {"v": venue.id},
        ).one()
    assert tuple(orphans) == (0, 0, 0, 0, 0), ("rows without their hold / enquiry", orphans)
