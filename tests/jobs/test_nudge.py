"""The nudge (回答の催促) on the real clock and worker: a waiting 2nd asks the 1st to answer,
both are told, and the 1st lapses at its new deadline, which moves the 2nd up."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from cli.bootstrap import Runtime
from core.model import Hold, Status, Venue
from core.results import Code, NudgeAnswer, Refused, RequestAnswer
from core.rules.deadlines import days_later, staff_deadline
from jobs.clock import Clock
from tests.jobs.conftest import MovingClock, eventually, settle
from tests.jobs.scenarios import FIRST, SECOND, dms_to
from tests.support import factories
from tests.support.slack_standin import SlackStandin


class ShiftingClock(MovingClock):
    """Real time, plus however far the test moves it on (days pass in a second)."""

    def __init__(self, start: datetime) -> None:
        super().__init__(start)
        self.offset = timedelta(0)

    def __call__(self) -> datetime:
        return super().__call__() + self.offset

    def move_to(self, at: datetime) -> None:
        self.offset += at - self()


@pytest.fixture
def clock() -> ShiftingClock:
    return ShiftingClock(factories.NOW)


def held(runtime: Runtime, venue: Venue, hold_id: int) -> Hold:
    hold = runtime.engine.hold(venue.id, hold_id)
    assert isinstance(hold, Hold)
    return hold


def kinds_to(slack: SlackStandin, user: str) -> list[str]:
    return [c.body["metadata"]["event_payload"]["kind"] for c in dms_to(slack, user)]


def test_a_nudged_first_lapses_at_its_new_deadline_and_the_second_moves_up(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: ShiftingClock
) -> None:
    engine = worker.engine
    first = engine.request(venue.id, factories.request(salesperson=FIRST), now=clock())
    second = engine.request(venue.id, factories.request(salesperson=SECOND), now=clock())
    assert isinstance(first, RequestAnswer) and isinstance(second, RequestAnswer)
    assert (first.rank, second.rank) == (1, 2)
    before = first.hold.expires_at
    assert before is not None

    answer = engine.nudge(venue.id, first.hold.id, actor=SECOND, now=clock())

    assert isinstance(answer, NudgeAnswer) and answer.asker.id == second.hold.id
    nudged = answer.hold
    assert nudged.nudged_at is not None and nudged.expires_at is not None
    soon = staff_deadline(days_later(nudged.nudged_at, 2, venue.tz), venue.policy, venue.tz)
    assert nudged.expires_at == soon < before  # two days from the nudge, not seven
    again = engine.nudge(venue.id, first.hold.id, actor=SECOND, now=clock())
    assert isinstance(again, Refused) and again.code is Code.ALREADY_NUDGED

    worker.on_notices()(venue.id)
    eventually(lambda: "nudged" in kinds_to(slack, FIRST), what="the 1st told")
    eventually(lambda: "nudged" in kinds_to(slack, SECOND), what="the 2nd told")
    told = dms_to(slack, FIRST)[-1]
    assert SECOND in told.body["text"]  # who asks

    ticking = Clock(
        worker.broker, lambda: {venue.id: venue.timezone}, worker.settings.tuning.schedule
    )
    ticking.refresh()
    sweep = ticking.scheduler.get_job(f"{venue.id}:sweep")
    clock.move_to(nudged.expires_at - timedelta(minutes=1))
    sweep.func(*sweep.args)  # a tick just before the new deadline: nothing lapses
    settle(worker)
    still = held(worker, venue, first.hold.id)
    assert still.status is Status.TENTATIVE and still.rank == 1

    clock.move_to(nudged.expires_at + timedelta(seconds=1))
    sweep.func(*sweep.args)  # the tick after it: days before the deadline it had

    def promoted() -> bool:
        hold = held(worker, venue, second.hold.id)
        return hold.status is Status.TENTATIVE and hold.rank == 1

    eventually(promoted, what="the 2nd promoted")
    assert held(worker, venue, first.hold.id).status is Status.EXPIRED
    eventually(lambda: "promoted" in kinds_to(slack, SECOND), what="the 2nd told it moved up")
    eventually(lambda: "expired" in kinds_to(slack, FIRST), what="the 1st told it lapsed")
