from core.engine import HoldEngine
from core.model import Venue
from tests.support.factories import NOW, request


def test_first_and_second(engine: HoldEngine, venue: Venue) -> None:
    a = engine.request(venue.id, request(), now=NOW)
    b = engine.request(venue.id, request(), now=NOW)
    c = engine.request(venue.id, request(), now=NOW)
    assert a.ok and b.ok and not c.ok
    print(a, b, c)
