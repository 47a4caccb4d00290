"""The four invariants of docs/rules.md, checked on holds and on the rows stored beside them.

Ranks and conflicts are counted by the test model (``tests.support.model``), not by
``core.rules``: the check shares no code with what it checks.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from core.model import Hold, Status, Venue
from core.rules.requests import span_of
from core.rules.spans import span_counts
from core.store import holds as hold_store
from tests.support.model import conflict, rank_among


def is_blocking(h: Hold) -> bool:
    return h.status is Status.CONFIRMED or (h.status is Status.TENTATIVE and h.rank == 1)


def check_holds(listed: Sequence[Hold], max_rank: int) -> None:
    """The invariants over ``listed`` (decided holds may be among them), and that each stored
    rank is the rank rule's."""
    span = {h.id: (h.parts, h.start_at, h.span_end) for h in listed}
    for h in listed:
        if h.status is Status.TENTATIVE:
            assert h.rank is not None and 1 <= h.rank <= max_rank, ("invariant 3", h)
            assert (h.expires_at is not None) == (h.rank == 1), ("invariant 4", h)
            earlier = [span[o.id] for o in listed if o.id < h.id and o.status is Status.TENTATIVE]
            assert h.rank == rank_among(span[h.id], earlier), ("stale rank", h)
        else:
            assert h.rank is None and h.expires_at is None, ("decided hold keeps a rank", h)
        for o in listed:
            if o.id <= h.id or not conflict(span[h.id], span[o.id]):
                continue
            assert not (is_blocking(h) and is_blocking(o)), ("invariant 1", h.id, o.id)
            statuses = {h.status, o.status}
            assert statuses != {Status.TENTATIVE, Status.CONFIRMED}, ("invariant 2", h.id, o.id)


def live_holds(db: sa.Engine, venue: Venue) -> list[Hold]:
    with db.connect() as conn:
        return hold_store.listing(
            conn, venue, statuses=[Status.TENTATIVE, Status.CONFIRMED], limit=10**6
        )


def check(db: sa.Engine, venue: Venue) -> list[Hold]:
    """Assert the invariants on what the database holds for one venue, span rows and
    part-day counts included; return the live holds for further checks."""
    live = live_holds(db, venue)
    check_holds(live, venue.policy.max_rank)
    _check_span_rows(db, venue, live)
    _check_span_counts(db, venue, live)
    return live


def _check_span_counts(db: sa.Engine, venue: Venue, live: list[Hold]) -> None:
    """Each part-day row counts exactly the live spans that touch it."""
    with db.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT part_id, day, live_spans FROM part_days WHERE venue_id = :v"),
            {"v": venue.id},
        ).all()
    got = {(r.part_id, r.day): r.live_spans for r in rows if r.live_spans}
    want = span_counts([span_of(h) for h in live], venue.tz)
    assert got == want, "part-day span counts out of step with the live holds"


def _check_span_rows(db: sa.Engine, venue: Venue, live: list[Hold]) -> None:
    """Span rows exist for exactly the live holds' parts, flagged blocking as they should be."""
    with db.connect() as conn:
        rows = conn.execute(
            sa.text(
                "SELECT hold_id, part_id, blocking, confirmed FROM hold_spans WHERE venue_id = :v"
            ),
            {"v": venue.id},
        ).all()
    got = {(r.hold_id, r.part_id): (r.blocking, r.confirmed) for r in rows}
    want = {(h.id, p): (h.is_blocking, h.status is Status.CONFIRMED) for h in live for p in h.parts}
    assert got == want, "span rows out of step with the live holds"
