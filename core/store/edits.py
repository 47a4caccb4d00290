"""Writing an edit in place: a hold's items take new rooms or times (its place kept), and its
enquiry takes a new customer, note or salesperson."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime

import sqlalchemy as sa

from core.model import Details, HoldItem, Kind, Venue
from core.store import details as stored_details
from core.store.schema import enquiries


@dataclass(frozen=True)
class Carried:
    """The rest of what an enquiry's row carries: its kind (and class), guests, contact."""

    kind_id: str
    kind: Kind
    guests: int | None
    contact: str = field(repr=False)


# The hold's row (its version counts the change), every item by number, and the span rows
# of the items as they are now; an item keeps its rank (a shrink keeps the place).
_RESHAPE = sa.text(
    """
    WITH edited AS (
      UPDATE holds SET local_date = :local_date, updated_at = :now, version = version + 1
      WHERE venue_id = :venue AND id = :id
    ), old_spans AS (
      DELETE FROM hold_spans WHERE venue_id = :venue AND hold_id = :id
    )
    UPDATE hold_items i
    SET room_id = m.room_id, start_at = m.start_at, end_at = m.end_at, span_end = m.span_end
    FROM unnest(CAST(:nos AS smallint[]), CAST(:rooms AS text[]),
                CAST(:starts AS timestamptz[]), CAST(:ends AS timestamptz[]),
                CAST(:span_ends AS timestamptz[])) AS m(item_no, room_id, start_at, end_at,
                                                        span_end)
    WHERE i.venue_id = :venue AND i.hold_id = :id AND i.item_no = m.item_no
    """
)
_SPANS = sa.text(
    """
    INSERT INTO hold_spans (venue_id, hold_id, item_no, part_id, starts_at, ends_at, blocking,
                            confirmed)
    SELECT :venue, :id, s.n, s.part_id, s.starts_at, s.ends_at, s.blocking, :confirmed
    FROM unnest(CAST(:nos AS smallint[]), CAST(:parts AS text[]),
                CAST(:starts AS timestamptz[]), CAST(:stops AS timestamptz[]),
                CAST(:blocking AS boolean[])) AS s(n, part_id, starts_at, ends_at, blocking)
    """
)


def reshape(
    conn: sa.Connection,
    venue: Venue,
    hold_id: int,
    local_date: date,
    items: Sequence[HoldItem],
    *,
    confirmed: bool,
    now: datetime,
) -> None:
    """The hold's items become ``items`` (same number, same order, ranks kept). The old span
    rows go before the new ones come: a blocking item moved inside its own old span never
    meets itself at the final gate."""
    params = {"venue": venue.id, "id": hold_id, "now": now}
    conn.execute(
        _RESHAPE,
        {
            **params,
            "local_date": local_date,
            "nos": list(range(1, len(items) + 1)),
            "rooms": [i.room_id for i in items],
            "starts": [i.start_at for i in items],
            "ends": [i.end_at for i in items],
            "span_ends": [i.span_end for i in items],
        },
    )
    spans = [
        (n, part, item.start_at, item.span_end, confirmed or item.rank == 1)
        for n, item in enumerate(items, start=1)
        for part in sorted(item.parts)
    ]
    conn.execute(
        _SPANS,
        {
            **params,
            "confirmed": confirmed,
            "nos": [s[0] for s in spans],
            "parts": [s[1] for s in spans],
            "starts": [s[2] for s in spans],
            "stops": [s[3] for s in spans],
            "blocking": [s[4] for s in spans],
        },
    )


def amend(
    conn: sa.Connection,
    venue: Venue,
    enquiry_id: int,
    *,
    customer: str,
    customer_key: str,
    note: str,
    salesperson: str,
    carried: Carried,
    details: Details,
    now: datetime,
) -> None:
    """The enquiry's customer, note, salesperson, kind, guests, contact and details (every
    candidate date shows them)."""
    conn.execute(
        enquiries.update()
        .where(enquiries.c.venue_id == venue.id, enquiries.c.id == enquiry_id)
        .values(
            customer=customer,
            customer_key=customer_key,
            note=note,
            salesperson=salesperson,
            kind=carried.kind_id,
            kind_class=carried.kind.value,
            guests=carried.guests,
            contact=carried.contact,
            **stored_details.params(details),
            version=enquiries.c.version + 1,
            updated_at=now,
        )
    )
