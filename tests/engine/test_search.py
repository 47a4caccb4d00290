"""Finding a slot: what a search answers, checked against the engine's own preview."""

from __future__ import annotations

from dataclasses import replace

from core.engine import HoldEngine
from core.model import Room, Slot
from tests.support import factories
from tests.support.factories import NOW


def test_capacities_and_slots_are_stored_and_read_back(engine: HoldEngine) -> None:
    spec = factories.venue()
    rooms = dict(spec.rooms)
    rooms["hoo"] = replace(rooms["hoo"], capacity=120)
    slots = (Slot("昼", 660, 900), Slot("夜", 1080, 1500))
    saved = engine.save_venue(replace(spec, rooms=rooms, slots=slots), now=NOW)
    assert saved.slots == slots
    assert saved.rooms["hoo"].capacity == 120
    assert saved.rooms["sakura"].capacity is None
    # a later file without them takes them away
    again = engine.save_venue(replace(spec, rooms=dict(spec.rooms)), now=NOW)
    assert again.slots == () and again.rooms["hoo"] == Room(
        "hoo", "鳳凰の間", frozenset({"A1", "A2"}), 60, 0
    )
