"""The window ping (開放日に知らせる) on the real clock and a real Dramatiq worker: the clock's
tick fires at the opening instant (venue-local midnight, 90 days before), and each asker gets
one DM, in the order they asked, with the button that opens the form; never before the
instant, never for a dropped ping, never twice."""

from __future__ import annotations

import io
import shlex
from dataclasses import replace
from datetime import date, datetime, timedelta

import pytest

from cli.bootstrap import Runtime, console
from core.model import Venue
from core.pings import PingAnswer, WindowPing
from jobs.clock import Clock
from tests.jobs.conftest import MovingClock, eventually, settle
from tests.jobs.scenarios import buttons
from tests.support import factories
from tests.support.factories import JST
from tests.support.slack_standin import SlackStandin

SATURDAY = date(2027, 9, 4)  # a wedding-priority day
OPENS = datetime(2027, 6, 6, 0, 0, tzinfo=JST)  # its banquet window: midnight, 90 days before
ASKERS = ("U0PINGTWO", "U0PINGONE", "U0PINGTHREE")  # in the order they ask
DROPPER = "U0PINGDROP"


class ShiftingClock(MovingClock):
    """Real time, plus however far the test moves it on (months pass in a second)."""

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


def ask(runtime: Runtime, venue: Venue, who: str, now: datetime) -> WindowPing:
    req = replace(
        factories.request(kind="banquet", day=SATURDAY, start="18:00", end="21:00"),
        salesperson=who,
        creator=who,
        guests=60,
    )
    answer = runtime.engine.pings.add(venue.id, req, asker=who, now=now)
    assert isinstance(answer, PingAnswer)
    return answer.ping


def window_dms(slack: SlackStandin) -> list[tuple[str, str]]:
    """(to whom, the ping id its button carries) of every window DM, in the order sent."""
    return [
        (c.body["channel"], buttons(c).get("ping_hold", ""))
        for c in slack.calls_to("chat.postMessage")
        if c.body.get("metadata", {}).get("event_payload", {}).get("kind") == "window_open"
    ]


def test_each_asker_is_told_at_the_opening_instant_in_the_order_they_asked(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: ShiftingClock
) -> None:
    pings = [ask(worker, venue, who, clock()) for who in ASKERS]
    dropped = ask(worker, venue, DROPPER, clock())
    assert all(p.opens_at == OPENS for p in pings)
    gone = worker.engine.pings.drop(venue.id, dropped.id, actor=DROPPER, now=clock())
    assert isinstance(gone, WindowPing)

    ticking = Clock(
        worker.broker, lambda: {venue.id: venue.timezone}, worker.settings.tuning.schedule
    )
    ticking.refresh()
    tick = ticking.scheduler.get_job(f"{venue.id}:pings")
    # the clock's own trigger fires at the opening instant itself
    assert tick.trigger.get_next_fire_time(None, OPENS - timedelta(seconds=30)) == OPENS

    clock.move_to(OPENS - timedelta(seconds=2))
    tick.func(*tick.args)  # a tick just before midnight: nobody is told
    settle(worker)
    worker.actors().drain_outbox(venue.id)
    settle(worker)
    assert window_dms(slack) == []

    clock.move_to(OPENS)
    tick.func(*tick.args)  # the tick at midnight
    expected = [(p.asker, str(p.id)) for p in pings]
    eventually(lambda: len(window_dms(slack)) >= len(expected), what="every asker told")
    tick.func(*tick.args)  # a second tick, and a drain: nobody is told twice
    settle(worker)
    worker.actors().drain_outbox(venue.id)
    settle(worker)

    assert window_dms(slack) == expected
    told = [c for c in slack.calls_to("chat.postMessage") if c.body["channel"] == ASKERS[0]]
    said = told[-1].body["text"]
    assert "宴会の受付が始まりました" in said or "Banquets are open" in said
    assert pings[0].request.customer in said and "様様" not in said  # the customer as typed
    assert DROPPER not in {c.body.get("channel") for c in slack.calls_to("chat.postMessage")}
    assert worker.engine.pings.listing(venue.id) == []


def test_without_slack_the_window_dm_prints_its_button_as_the_request_to_type(
    runtime: Runtime, venue: Venue, clock: ShiftingClock
) -> None:
    out = io.StringIO()
    settings = replace(runtime.settings, language="ja_JP.UTF-8", launcher="python3 dev.py")
    ping = ask(runtime, venue, ASKERS[0], clock())
    sent = runtime.engine.pings.deliver_due(venue.id, now=OPENS)
    assert isinstance(sent, list) and [p.id for p in sent] == [ping.id]
    clock.move_to(OPENS)

    drained = runtime.courier(console(settings, runtime.engine, out)).drain(venue.id)

    assert (drained.sent, drained.failed) == (1, 0)
    printed = out.getvalue()
    assert f"DM → {ASKERS[0]}" in printed and "宴会の受付が始まりました" in printed
    typed = (
        "押さえる: python3 dev.py osae hold request --room hoo --date 2027-09-04 "
        f"--start 18:00 --end 21:00 --kind banquet --customer {shlex.quote(ping.request.customer)} "
        f"--salesperson {ASKERS[0]} --guests 60"
    )
    assert typed in printed
    assert ":bell:" not in printed and "🔔" in printed
