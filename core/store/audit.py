"""Audit events: who did what to which hold, when; written with the change itself."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa

from core.events import Action, AuditEvent
from core.store.schema import audit_events, holds

# An event of a house hold (社内押さえ): counted apart from sales (docs/rules.md, House holds).
_OF_HOUSE = (
    sa.select(holds.c.id)
    .where(
        holds.c.venue_id == audit_events.c.venue_id,
        holds.c.id == audit_events.c.hold_id,
        holds.c.house,
    )
    .exists()
)

# One fixed statement for any number of events, sent as one JSON document.
_RECORD = sa.text(
    """
    INSERT INTO audit_events (venue_id, hold_id, actor, action, at, detail)
    SELECT :venue, CAST(e.doc ->> 'hold_id' AS bigint), e.doc ->> 'actor', e.doc ->> 'action',
           CAST(e.doc ->> 'at' AS timestamptz), e.doc -> 'detail'
    FROM jsonb_array_elements(CAST(:events AS jsonb)) WITH ORDINALITY AS e(doc, i)
    ORDER BY e.i
    """
)


def record(conn: sa.Connection, venue_id: str, events: Sequence[AuditEvent]) -> None:
    if not events:
        return
    conn.execute(
        _RECORD,
        {
            "venue": venue_id,
            "events": json.dumps(
                [
                    {
                        "hold_id": e.hold_id,
                        "actor": e.actor,
                        "action": e.action,
                        "at": e.at.isoformat(),
                        "detail": dict(e.detail),
                    }
                    for e in events
                ],
                ensure_ascii=False,
            ),
        },
    )


def trail(conn: sa.Connection, venue_id: str, hold_id: int) -> list[AuditEvent]:
    rows = conn.execute(
        sa.select(audit_events)
        .where(audit_events.c.venue_id == venue_id, audit_events.c.hold_id == hold_id)
        .order_by(audit_events.c.id)
    )
    return [AuditEvent(r.hold_id, r.actor, Action(r.action), r.at, r.detail) for r in rows]


def counts(
    conn: sa.Connection, venue_id: str, start: datetime, until: datetime
) -> tuple[dict[Action, int], dict[Action, int]]:
    """How many events of each action happened in ``[start, until)``, in one statement: of
    sales holds, and of house holds (社内押さえ) apart."""
    house = _OF_HOUSE.label("house")
    rows = conn.execute(
        sa.select(audit_events.c.action, house, sa.func.count())
        .where(
            audit_events.c.venue_id == venue_id,
            audit_events.c.at >= start,
            audit_events.c.at < until,
        )
        .group_by(audit_events.c.action, house)
    )
    known = {a.value for a in Action}
    sales: dict[Action, int] = {}
    apart: dict[Action, int] = {}
    for action, of_house, number in rows:
        if action in known:
            (apart if of_house else sales)[Action(action)] = number
    return sales, apart


def month_reasons(
    conn: sa.Connection, venue_id: str, start: datetime, until: datetime
) -> tuple[dict[str, int], int]:
    """In ``[start, until)``: the releases by reason code (``unspecified`` for those from
    before reasons), and the holds an edit's swap replaced."""
    reason = sa.func.coalesce(audit_events.c.detail["reason"].astext, "unspecified")
    within = (
        audit_events.c.venue_id == venue_id,
        audit_events.c.at >= start,
        audit_events.c.at < until,
        ~_OF_HOUSE,
    )
    rows = conn.execute(
        sa.select(reason, sa.func.count())
        .where(*within, audit_events.c.action == "released")
        .group_by(reason)
    )
    by_reason = {str(code): int(number) for code, number in rows}
    replaced = conn.execute(
        sa.select(sa.func.count()).where(
            *within,
            audit_events.c.action == "edited",
            audit_events.c.detail["kept_place"].astext == "false",
        )
    ).scalar_one()
    return by_reason, int(replaced)
