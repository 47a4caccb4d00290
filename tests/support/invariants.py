"""DESIGN.md's four invariants, checked against what the database holds for one venue."""

from __future__ import annotations

from itertools import combinations

import sqlalchemy as sa

from core.model import Hold, Status, Venue
from core.rules.rank import rank_of
from core.rules.requests import span_of
from core.rules.spans import span_counts
from core.store import holds as hold_store


def live_holds(db: sa.Engine, venue: Venue) -> list[Hold]:
    with db.connect() as conn:
        return hold_store.listing(
            conn, venue, statuses=[Status.TENTATIVE, Status.CONFIRMED], limit=10**6
        )


def check(db: sa.Engine, venue: Venue) -> list[Hold]:
    """Assert the invariants; return the live holds for further checks."""
    live = live_holds(db, venue)
    for a, b in combinations(live, 2):
        if span_of(a).conflicts(span_of(b)):
            assert not (a.is_blocking and b.is_blocking), (
                f"1: blocking holds conflict {a.id} {b.id}"
            )
            confirmed = {a.status, b.status} & {Status.CONFIRMED}
            assert not confirmed, f"2: a tentative conflicts with a confirmed hold: {a.id} {b.id}"
    for h in live:
        if h.status is Status.TENTATIVE:
            earlier = [span_of(o) for o in live if o.status is Status.TENTATIVE and o.id < h.id]
            assert h.rank == rank_of(span_of(h), earlier), f"3: stored rank of {h.id} is stale"
            assert 1 <= h.rank <= venue.policy.max_rank, f"3: rank {h.rank} of {h.id}"
            assert (h.expires_at is not None) == (h.rank == 1), f"4: deadline of {h.id}"
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
