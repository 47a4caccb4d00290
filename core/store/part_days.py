"""The part-day rows: one row per (part, venue-local day), bumped before anything is written.

Each row also counts the live spans that touch its part on its day, and carries them
(``spans``, kept by triggers on ``hold_spans``: migration 0006). Any span that conflicts with
a request touches one of the request's part-day rows, and changing that row's spans is a
write to it. So a request reads what is in its way from the rows its own bump writes and
returns: no read of ``hold_spans``, whose index pages every concurrent request inserts into
(each such read is a predicate lock under SERIALIZABLE, and a false serialization failure
whenever two unrelated requests share a page).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import sqlalchemy as sa

from core.errors import StaleVenue
from core.model import Venue
from core.rules.requests import Occupant
from core.rules.spans import Span

Key = tuple[str, date]

# Rows are written in the order given: INSERT ... SELECT follows the ORDER BY.
_BUMP_ROWS = """
    INSERT INTO part_days (venue_id, part_id, day, version, live_spans)
    SELECT :venue, k.part_id, k.day, 1, k.delta
    FROM unnest(CAST(:parts AS text[]), CAST(:days AS date[]), CAST(:deltas AS int[]))
         WITH ORDINALITY AS k(part_id, day, delta, n)
    ORDER BY k.n
    ON CONFLICT (venue_id, part_id, day) DO UPDATE
      SET version = part_days.version + 1,
          live_spans = part_days.live_spans + EXCLUDED.live_spans
"""
_BUMP = sa.text(_BUMP_ROWS)
# The same bump, answering the spans its rows carry (it reads no others: the arbiter of
# ON CONFLICT takes no predicate lock) and the venue's revision (so a cached venue is
# checked in the same round trip).
_BUMP_COUNTED = sa.text(
    f"""
    WITH bumped AS ({_BUMP_ROWS} RETURNING part_id, spans)
    SELECT (SELECT revision FROM venues WHERE id = :venue) AS revision,
           (SELECT coalesce(jsonb_agg(jsonb_build_array(part_id, spans)), '[]')
            FROM bumped WHERE spans <> '{{}}') AS spans
    """  # noqa: S608 - a constant of this module, no input
)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Bumped:
    """What a request's bump answered: the live spans on its part-days, as the rows carry
    them (part, {"<hold>:<item>": [start µs, end µs, blocking, confirmed]})."""

    spans: Sequence[tuple[str, Mapping[str, Sequence[object]]]] = ()

    def occupants(self, spans: Sequence[Span]) -> list[Occupant]:
        """The live items whose spans conflict with one of ``spans``, on those spans' parts
        (what ``holds.occupants`` reads from ``hold_spans``)."""
        found: dict[tuple[int, int], tuple[set[str], list[object]]] = {}
        for wanted in spans:
            start, end = _micros(wanted.start), _micros(wanted.end)
            for part, entries in self.spans:
                if part not in wanted.parts:
                    continue
                for key, entry in entries.items():
                    if entry[0] < end and entry[1] > start:  # type: ignore[operator]
                        hold, item = key.split(":")
                        found.setdefault((int(hold), int(item)), (set(), list(entry)))[0].add(part)
        return [
            Occupant(
                hold_id=hold_id,
                item=item_no,
                span=Span(frozenset(parts), _instant(entry[0]), _instant(entry[1])),
                confirmed=bool(entry[3]),
                first=bool(entry[2]) and not entry[3],
            )
            for (hold_id, item_no), (parts, entry) in sorted(found.items())
        ]


def _micros(at: datetime) -> int:
    return (at - EPOCH) // timedelta(microseconds=1)


def _instant(micros: object) -> datetime:
    assert isinstance(micros, int)  # noqa: S101 - written so by migration 0006's triggers
    return EPOCH + timedelta(microseconds=micros)


# A read of the rows of some part-days (``_keyed``) with the venue's revision, so a cached
# venue is checked in the same round trip.
_READ_ROWS = """
    SELECT (SELECT revision FROM venues WHERE id = :venue) AS revision,
           (SELECT {what} FROM part_days
            WHERE venue_id = :venue {also}AND (part_id, day) IN (
              SELECT * FROM unnest(CAST(:parts AS text[]), CAST(:days AS date[])))) AS {name}
"""
_LIVE = sa.text(_READ_ROWS.format(what="coalesce(sum(live_spans), 0)", also="", name="live"))
# What a bump would answer, read without writing (one statement: one snapshot of every row).
_SEEN = sa.text(
    _READ_ROWS.format(
        what="coalesce(jsonb_agg(jsonb_build_array(part_id, spans)), '[]')",
        also="AND spans <> '{}' ",
        name="spans",
    )
)


def bump(conn: sa.Connection, venue_id: str, changes: Mapping[Key, int]) -> None:
    """Write each (part, day) row in key order, adding ``changes[key]`` to its span count.

    Under SERIALIZABLE, a second writer of a row fails with 40001 on that row whatever plan
    its reads used (docs/concurrency.md); the unit of work retries it on a new
    snapshot.
    """
    if changes:
        conn.execute(_BUMP, _bumped(venue_id, changes))


def bump_counted(conn: sa.Connection, venue: Venue, changes: Mapping[Key, int]) -> Bumped:
    """``bump``, answering the live spans that touch these part-days: a write's first
    statement, so that it needs no read of the part-day rows or of the spans of its own.

    Raises ``StaleVenue`` if ``venue`` (perhaps a cached copy) is not the stored revision.
    """
    row = conn.execute(_BUMP_COUNTED, _bumped(venue.id, changes)).one()
    if row.revision != venue.revision:
        raise StaleVenue(venue.id)
    return _carried(row)


def seen(conn: sa.Connection, venue: Venue, keys: Iterable[Key]) -> Bumped | None:
    """The live spans on these part-days as committed now, as ``bump_counted`` answers them,
    with nothing written; ``None`` if ``venue`` is not the stored revision."""
    row = conn.execute(_SEEN, _keyed(venue.id, keys)).one()
    return _carried(row) if row.revision == venue.revision else None


def _carried(row: sa.Row[tuple[object, ...]]) -> Bumped:
    return Bumped([(part, spans) for part, spans in row.spans])


def _keyed(venue_id: str, keys: Iterable[Key]) -> dict[str, object]:
    wanted = sorted(set(keys))
    return {"venue": venue_id, "parts": [k[0] for k in wanted], "days": [k[1] for k in wanted]}


def _bumped(venue_id: str, changes: Mapping[Key, int]) -> dict[str, object]:
    return {**_keyed(venue_id, changes), "deltas": [changes[k] for k in sorted(changes)]}


_PREPARE = sa.text(
    """
    INSERT INTO part_days (venue_id, part_id, day, version, live_spans)
    SELECT :venue, p, CAST(d AS date), 0, 0
    FROM unnest(CAST(:parts AS text[])) AS p,
         generate_series(CAST(:first AS date), CAST(:last AS date), interval '1 day') AS d
    ON CONFLICT DO NOTHING
    """
)


def prepare(
    conn: sa.Connection, venue_id: str, parts: Iterable[str], first: date, last: date
) -> None:
    """Create the rows for every part and day in ``[first, last]`` ahead of any booking.

    A bump of an existing row is an in-place (HOT) update; a bump that creates its row
    inserts into the primary-key index, and under SERIALIZABLE that insert conflicts with
    every transaction that read a key on the same index page. Rows made ahead avoid it.
    """
    conn.execute(
        _PREPARE, {"venue": venue_id, "parts": sorted(set(parts)), "first": first, "last": last}
    )


def live_spans(conn: sa.Connection, venue: Venue, keys: Iterable[Key]) -> int:
    """How many live spans touch these part-days (0 when they are all empty).

    Raises ``StaleVenue`` if ``venue`` (perhaps a cached copy) is not the stored revision.
    """
    row = conn.execute(_LIVE, _keyed(venue.id, keys)).one()
    if row.revision != venue.revision:
        raise StaleVenue(venue.id)
    live: int = row.live
    return live
