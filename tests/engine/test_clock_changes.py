"""Daylight saving on the real database: times across the clock changes of four zones.

A local time the clocks skip is refused as ``bad_times`` naming the skipped stretch; a time
they show twice is its first showing; every span, turnover and length is counted in absolute
time. Whatever is asked around a change, no two 1st or confirmed holds come within turnover
of each other (docs/rules.md, Clock changes).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.engine import HoldEngine
from core.model import HoldRequest, Status, Venue
from core.results import Code, Refused, RequestAnswer
from core.rules.spans import skipped
from tests.support import factories, invariants
from tests.support.factories import SALES

ZONES = ("America/New_York", "Europe/London", "Australia/Sydney", "America/Santiago")
ROOMS = ("hoo", "hoo-a", "hoo-b")  # 鳳凰 whole and its halves: they share parts
TURNOVER = timedelta(minutes=60)


def changes(zone: str, year: int = 2027) -> list[date]:
    """The days of ``year`` on which the zone's clocks change (the offset at midnight moves
    by the next midnight)."""
    tz = ZoneInfo(zone)
    days = [date(year, 1, 1) + timedelta(days=n) for n in range(366)]
    return [
        d
        for d in days
        if datetime(d.year, d.month, d.day, tzinfo=tz).utcoffset()
        != (datetime(d.year, d.month, d.day, tzinfo=tz) + timedelta(days=1)).utcoffset()
        or skipped(d, 0, tz) is not None
    ]


def test_each_zone_changes_its_clocks_twice_a_year() -> None:
    for zone in ZONES:
        assert len(changes(zone)) >= 2, zone


# Minutes near where clocks change (00:00 to 04:00 in these zones) are drawn most often.
_MINUTE = st.one_of(st.integers(0, 300), st.integers(0, 1439))
_ASK = st.tuples(
    st.sampled_from(ROOMS),
    st.integers(-1, 1),  # the day before the change, its day, the day after
    _MINUTE,
    st.integers(15, 26 * 60),  # asked length in wall minutes (may cross midnight)
    st.booleans(),  # confirm it if it is 1st
)


def _wall(day: date, minute: int) -> datetime:
    return datetime(day.year, day.month, day.day) + timedelta(minutes=minute)


def _local(at: datetime, tz: ZoneInfo) -> datetime:
    return at.astimezone(tz).replace(tzinfo=None)


Ask = tuple[str, int, int, int, bool]


def _ask(
    engine: HoldEngine, venue_id: str, tz: ZoneInfo, day: date, ask: Ask, now: datetime
) -> None:
    """One request (and maybe its confirmation), checked as it is answered."""
    room, offset, start, length, confirm = ask
    on = day + timedelta(days=offset)
    end = start + length
    req = HoldRequest(
        room_id=room,
        local_date=on,
        start_min=start,
        end_min=end,
        kind="wedding",
        customer=f"客{start}-{length}",
        salesperson=SALES,
        creator=SALES,
    )
    answer = engine.request(venue_id, req, now=now)
    gap = skipped(on, start, tz) or (skipped(on, end, tz) if length <= 1440 else None)
    # Past midnight for longer than 12 hours is refused before any clock is looked at.
    overnight = end > 1440 and length > 720
    if isinstance(answer, Refused):
        if overnight and length <= 1440:
            assert answer.code is Code.OVERNIGHT_TOO_LONG, answer
        elif gap is not None and length <= 1440:
            assert answer.code is Code.BAD_TIMES and answer.gap, answer
        else:
            assert answer.code is not Code.BAD_TIMES, (answer, on, start, end)
        return
    assert isinstance(answer, RequestAnswer), answer
    assert gap is None, ("a skipped time was accepted", on, start, end)
    (item,) = answer.hold.items
    assert _local(item.start_at, tz) == _wall(on, start), "the start was moved"
    assert _local(item.end_at, tz) == _wall(on, end), "the end was moved"
    assert timedelta(0) < item.end_at - item.start_at <= timedelta(hours=24), "real hours"
    assert item.span_end - item.end_at == TURNOVER, "turnover in absolute time"
    if confirm and answer.rank == 1:
        done = engine.confirm(venue_id, answer.hold.id, actor=SALES, now=now)
        assert not isinstance(done, Refused), done


def _apart(db: sa.Engine, venue: Venue) -> None:
    """No two 1st or confirmed items sharing a part within turnover, in absolute time."""
    live = invariants.check(db, venue)
    blocking = [
        (h.id, i)
        for h in live
        for i in h.items
        if h.status is Status.CONFIRMED or (h.status is Status.TENTATIVE and i.rank == 1)
    ]
    for n, (a_id, a) in enumerate(blocking):
        for b_id, b in blocking[n + 1 :]:
            if a_id != b_id and a.parts & b.parts:
                assert a.span_end <= b.start_at or b.span_end <= a.start_at, (a_id, b_id)
                assert a.span_end - a.end_at == b.span_end - b.end_at == TURNOVER


@pytest.mark.parametrize("zone", ZONES)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(asks=st.lists(_ASK, min_size=4, max_size=14), which=st.integers(0, 1))
def test_holds_across_a_clock_change_never_come_within_turnover(
    engine: HoldEngine, sa_engine: sa.Engine, zone: str, asks: list[Ask], which: int
) -> None:
    tz = ZoneInfo(zone)
    day = changes(zone)[which]
    now = datetime(day.year, day.month, day.day, 12, tzinfo=UTC) - timedelta(days=20)
    venue = engine.save_venue(factories.venue(timezone=zone), now=now)
    for ask in asks:
        _ask(engine, venue.id, tz, day, ask, now)
    _apart(sa_engine, venue)
