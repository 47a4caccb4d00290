"""The note to a 1st when a 2nd queues behind it: written with the 2nd as one row naming the
holds ahead, resolved by delivery into a DM to each that is still 1st, never lost."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import pytest

from cli.bootstrap import Runtime
from core.engine import HoldEngine
from core.model import Hold, Venue
from core.notices import QUEUED_RECIPIENT, Notice
from core.results import RequestAnswer
from core.store import outbox as outbox_rows
from tests.jobs.conftest import MovingClock, eventually, settle
from tests.jobs.scenarios import FIRST, SECOND, cards, dms_to, rows
from tests.support import factories
from tests.support.slack_standin import SlackStandin


def first_and_second(engine: HoldEngine, venue: Venue, now: datetime) -> tuple[Hold, Hold]:
    """A 1st and a 2nd on one slot, the venue telling a 1st of a 2nd (its default)."""
    assert venue.policy.notify_first_of_second
    first = engine.request(venue.id, factories.request(salesperson=FIRST), now=now)
    second = engine.request(venue.id, factories.request(salesperson=SECOND), now=now)
    assert isinstance(first, RequestAnswer) and isinstance(second, RequestAnswer)
    assert (first.rank, second.rank) == (1, 2)
    return first.hold, second.hold


def named(engine: HoldEngine, venue: Venue) -> Notice:
    """The one row the 2nd left, naming the holds ahead of it."""
    (row,) = [n for n in engine.notices(venue.id) if n.recipient == QUEUED_RECIPIENT]
    return row


def test_the_note_commits_with_the_hold_and_reaches_the_first_at_delivery(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    engine = worker.engine
    first, second = first_and_second(engine, venue, clock())
    row = named(engine, venue)
    assert (row.kind, row.hold_id, row.status) == ("queued", second.id, "pending")
    assert row.payload["ahead"] == [first.id]
    assert rows(engine, venue) == [row]  # nobody told yet: the DM is decided at delivery

    worker.on_notices()(venue.id)

    call = slack.wait_for("chat.postMessage", 1, timeout=10)[0]
    assert call.ok and call.body["channel"] == FIRST
    assert call.body["metadata"]["event_payload"]["kind"] == "queued"
    eventually(lambda: len(rows(engine, venue, "sent")) == 2, what="both rows done")
    resolved, told = sorted(rows(engine, venue, "sent"), key=lambda n: n.id)
    assert (resolved.id, resolved.sent_ref) == (row.id, f"resolved: #{first.id}")
    assert (told.recipient, told.hold_id, told.payload["behind"]["id"]) == (
        FIRST,
        first.id,
        second.id,
    )
    assert told.sent_ref == call.response["ts"]
    worker.courier().drain(venue.id)  # drained again: told once
    assert len(dms_to(slack, FIRST)) == 1


def test_a_first_gone_by_delivery_is_not_told(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    engine = worker.engine
    first, second = first_and_second(engine, venue, clock())
    assert engine.release(venue.id, first.id, actor=FIRST, now=clock()).ok
    for card in cards(engine, venue, "pending"):  # no card in Slack: nothing to redraw
        engine.notice_sent(venue.id, card.id, channel="-", ref="no card", now=clock())

    worker.on_notices()(venue.id)

    promoted = slack.wait_for("chat.postMessage", 1, timeout=10)[0]
    assert promoted.body["channel"] == SECOND
    eventually(lambda: not rows(engine, venue, "pending"), what="every row done")
    settle(worker)
    assert dms_to(slack, FIRST) == []
    settled = next(n for n in rows(engine, venue, "sent") if n.recipient == QUEUED_RECIPIENT)
    assert settled.hold_id == second.id and settled.sent_ref == "resolved: no 1st left"
    kinds = [n.kind for n in sorted(rows(engine, venue), key=lambda n: n.id)]
    assert kinds == ["queued", "promoted"]  # the named row, settled; no row to FIRST


class Died(BaseException):
    """The worker stops dead inside the resolution's transaction (not an error it handles)."""


def test_a_worker_dying_while_it_resolves_the_note_loses_nothing(
    runtime: Runtime, venue: Venue, slack: SlackStandin, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows to the 1sts and the named row's done mark commit together: a worker that
    dies between them leaves the named row leased, and the next worker tells the 1st once
    its lease has run out."""
    engine = runtime.engine
    now = [factories.NOW]
    courier = replace(runtime.courier(), now=lambda: now[0], lease=timedelta(seconds=30))
    first, _ = first_and_second(engine, venue, now[0])
    row = named(engine, venue)
    marked = outbox_rows.mark_sent

    def die_after_writing(*args: Any, **kwargs: Any) -> None:
        raise Died

    monkeypatch.setattr(outbox_rows, "mark_sent", die_after_writing)
    with pytest.raises(Died):
        courier.drain(venue.id)
    monkeypatch.setattr(outbox_rows, "mark_sent", marked)

    (leased,) = rows(engine, venue)  # the rows to the 1sts went with the rollback
    assert (leased.id, leased.status, leased.attempts) == (row.id, "pending", 1)
    assert courier.drain(venue.id).sent == 0  # still leased to the dead worker
    assert slack.calls_to("chat.postMessage") == []

    now[0] += timedelta(seconds=31)
    assert courier.drain(venue.id).sent == 2  # resolved, then the DM in the same drain
    (dm,) = dms_to(slack, FIRST)
    assert dm.body["metadata"]["event_payload"]["kind"] == "queued"
    told = [n for n in rows(engine, venue, "sent") if n.recipient == FIRST]
    assert [(n.hold_id, n.attempts) for n in told] == [(first.id, 1)]
