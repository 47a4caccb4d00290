"""The morning of a booking's next action (来館・打合せ), its salesperson gets one DM, queued by
the clock's reminders job on a real worker, however often the clock ticks (issue 25, item 7);
a booking whose next action is another day gets none, and one without a live hold none."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

from cli.bootstrap import Runtime
from core.model import Details, Venue
from core.results import Refused, RequestAnswer
from jobs.clock import Clock
from tests.jobs.conftest import MovingClock, eventually, settle
from tests.support import factories
from tests.support.slack_standin import SlackStandin


def test_the_next_action_morning_sends_one_dm_to_the_salesperson(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    today = clock().astimezone(venue.tz).date()  # 09:00 in Tokyo: past the morning hour
    assert clock().astimezone(venue.tz).hour >= 8

    def held(salesperson: str, on: date, shift: int) -> RequestAnswer:
        details = Details(next_action=on, next_action_note="2回目の打合せ")
        day = factories.DAY + timedelta(days=shift)  # apart: nobody queues behind anybody
        req = replace(factories.request(day=day, salesperson=salesperson), details=details)
        answer = worker.engine.request(venue.id, req, now=clock())
        assert isinstance(answer, RequestAnswer)
        return answer

    due = held("U0NEXTTODAY", today, 0)
    held("U0NEXTLATER", today + timedelta(days=1), 1)
    gone = held("U0NEXTGONE", today, 2)
    released = worker.engine.release(venue.id, gone.hold.id, actor="U0NEXTGONE", now=clock())
    assert not isinstance(released, Refused)
    settle(worker)
    before = len(slack.calls_to("chat.postMessage"))  # the released hold's card line
    ticking = Clock(
        worker.broker, lambda: {venue.id: venue.timezone}, worker.settings.tuning.schedule
    )
    ticking.refresh()
    job = ticking.scheduler.get_job(f"{venue.id}:reminders")

    for _ in range(3):
        job.func(*job.args)
    call = slack.wait_for("chat.postMessage", before + 1, timeout=10)[-1]

    def told() -> list[object]:
        return [n for n in worker.engine.notices(venue.id) if n.kind == "next_action"]

    eventually(lambda: [n.status for n in told()] == ["sent"], what="sent")  # type: ignore[attr-defined]
    settle(worker)
    worker.actors().drain_outbox(venue.id)

    assert call.body["channel"] == "U0NEXTTODAY"
    assert call.body["metadata"]["event_payload"]["kind"] == "next_action"
    said = call.body["text"]
    assert "B-" in said and f"{due.hold.enquiry_id:04d}" in said
    assert "2回目の打合せ" in str(call.body["blocks"])
    assert len(slack.calls_to("chat.postMessage")) == before + 1
    assert len(told()) == 1
