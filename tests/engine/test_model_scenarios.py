"""Named scenarios through the engine and the model side by side, driven by hand.

Each step still goes through the machine (``tests.support.machine``): the engine's answer
must be the model's, and the ledger, the invariants and the rows beside the holds are
checked after it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa

from core.engine import HoldEngine
from core.results import Code
from tests.support import factories
from tests.support.factories import MANAGER, NOW, SALES
from tests.support.machine import D10, D11, D12, OTHER, STRANGER, fresh, step
from tests.support.model import Accepted, Done, Refusal, SweepResult

MORNING = (660, 900)  # 11:00-15:00


def test_confirm_releases_the_whole_room_and_promotes_the_hold_behind_it(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """A1 is 1st, the whole room 2nd behind it, then A2 is 2nd behind the whole room only.

    Confirming A1 releases the whole room, and A2, which waited behind the released hold
    and not behind the confirmed one, becomes 1st.
    """
    m = fresh(engine, sa_engine)
    a1 = step(m, m.submit("hoo-a", D10, MORNING))
    whole = step(m, m.submit("hoo", D10, MORNING))
    a2 = step(m, m.submit("hoo-b", D10, MORNING))
    assert (a1.rank, whole.rank, a2.rank) == (1, 2, 2)
    done = step(m, m.act("confirm", a1.hold_id, "natural"))
    assert done == Done(a1.hold_id, released=(whole.hold_id,), promoted=(a2.hold_id,))
    assert m.model.holds[a2.hold_id].expires_at == NOW + timedelta(days=7)


def test_the_whole_room_is_promoted_only_when_both_halves_are_gone(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    m = fresh(engine, sa_engine)
    a1 = step(m, m.submit("hoo-a", D10, MORNING))
    a2 = step(m, m.submit("hoo-b", D10, MORNING, people=(OTHER, OTHER)))
    whole = step(m, m.submit("hoo", D10, MORNING))
    assert (a1.rank, a2.rank, whole.rank) == (1, 1, 2)
    assert step(m, m.act("release", a1.hold_id, "natural")) == Done(a1.hold_id)
    later = NOW + timedelta(hours=5)
    m.now = later
    assert step(m, m.act("release", a2.hold_id, MANAGER)) == Done(
        a2.hold_id, promoted=(whole.hold_id,)
    )
    assert m.model.holds[whole.hold_id].expires_at == later + timedelta(days=7)


def test_at_the_deadline_confirm_is_refused_and_sweep_expires_and_promotes(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    """The 2nd's new deadline is counted from the sweep and capped at the event's start."""
    m = fresh(engine, sa_engine)
    first = step(m, m.submit("hoo", D10, MORNING))
    second = step(m, m.submit("hoo", D10, MORNING, people=(OTHER, OTHER)))
    assert first.expires_at == NOW + timedelta(days=7)
    m.now = first.expires_at
    assert step(m, m.act("confirm", first.hold_id, "natural")) == Refusal(Code.DEADLINE_PASSED)
    assert step(m, m.act("extend", first.hold_id, "natural")) == Refusal(Code.DEADLINE_PASSED)
    assert step(m, m.sweep()) == SweepResult((first.hold_id,), (second.hold_id,))
    start = datetime(2027, 3, 10, 11, 0, tzinfo=factories.JST)
    assert m.model.holds[second.hold_id].expires_at == start  # 8 March + 7 days is too late


def test_touching_and_past_midnight_spans(engine: HoldEngine, sa_engine: sa.Engine) -> None:
    m = fresh(engine, sa_engine, max_rank=1)
    late = step(m, m.submit("hoo", D10, (1320, 1620)))  # 22:00-03:00, span to 04:00
    assert step(m, m.submit("hoo-a", D11, (210, 300))) == Refusal(Code.RANK_TOO_LOW)  # 03:30
    touching = step(m, m.submit("hoo-a", D11, (240, 300)))  # 04:00: touches
    assert (late.rank, touching.rank) == (1, 1)
    assert step(m, m.act("confirm", late.hold_id, SALES)).released == ()
    assert step(m, m.submit("hoo-b", D11, (180, 240))) == Refusal(Code.CONFIRMED_CONFLICT)


def test_authority_and_idempotency(engine: HoldEngine, sa_engine: sa.Engine) -> None:
    m = fresh(engine, sa_engine, max_extensions=1)
    h = step(m, m.submit("sakura", D11, MORNING, people=(SALES, OTHER), key="k1"))
    assert step(m, m.submit("sakura", D12, MORNING, key="k1")) == Refusal(Code.IDEMPOTENCY_MISMATCH)
    key, req = m.keyed[0]
    assert step(m, m._request(req, key)) == Accepted(h.hold_id, 1, h.expires_at, replayed=True)
    assert step(m, m.act("confirm", h.hold_id, STRANGER)) == Refusal(Code.NOT_AUTHORIZED)
    extended = step(m, m.act("extend", h.hold_id, "creator"))
    assert extended.expires_at == datetime(2027, 3, 11, 11, 0, tzinfo=factories.JST)  # start
    assert step(m, m.act("extend", h.hold_id, MANAGER)) == Refusal(Code.EXTENSION_LIMIT)
    assert step(m, m.act("cancel", h.hold_id, MANAGER)) == Refusal(Code.NOT_CONFIRMED)
    assert step(m, m.act("confirm", None, SALES)) == Refusal(Code.HOLD_NOT_FOUND)
    assert step(m, m.act("confirm", h.hold_id, "creator")) == Done(h.hold_id)
    assert step(m, m.act("cancel", h.hold_id, SALES)) == Refusal(Code.NOT_AUTHORIZED)
    assert step(m, m.act("cancel", h.hold_id, MANAGER)) == Done(h.hold_id)
    assert step(m, m.act("release", h.hold_id, SALES)) == Refusal(Code.ALREADY_DECIDED)
