"""Outbox delivery through a real Redis, a real Dramatiq worker and the Slack stand-in."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot import ids
from bot.notices import render_notice
from cli.bootstrap import Runtime
from core.model import Venue
from tests.jobs.conftest import SALES_CHANNEL, MovingClock, eventually
from tests.jobs.scenarios import SECOND, buttons, dms_to, promote, rows
from tests.support.slack_standin import SlackStandin


def test_a_promotion_dm_reaches_slack_with_its_buttons(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    slack.set_user(SECOND, locale="en-US")
    held = promote(worker.engine, venue, clock())
    worker.on_notices()(venue.id)

    call = slack.wait_for("chat.postMessage", 1, timeout=10)[0]
    assert call.ok and call.body["channel"] == SECOND
    pressed = buttons(call)
    assert ids.CONFIRM in pressed and ids.RELEASE in pressed
    assert str(held.id) in pressed[ids.CONFIRM]
    assert call.body["metadata"]["event_payload"]["kind"] == "promoted"
    eventually(lambda: len(rows(worker.engine, venue, "sent")) == 1, what="row marked sent")
    sent = rows(worker.engine, venue, "sent")[0]
    assert (sent.sent_channel, sent.sent_ref) == (call.response["channel"], call.response["ts"])
    assert slack.message(sent.sent_channel, sent.sent_ref) is not None
    assert sent.sent_at is not None and sent.hold_id == held.id
    english = render_notice(sent, tz=venue.tz, locale="en-US")
    assert call.body["text"] == english.text, "in the recipient's language"
    assert english.text != render_notice(sent, tz=venue.tz, locale="ja-JP").text


def test_429_waits_for_retry_after_before_posting_again(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    slack.rate_limit_next("chat.postMessage", retry_after=2)
    promote(worker.engine, venue, clock())
    worker.on_notices()(venue.id)

    first, second = slack.wait_for("chat.postMessage", 2, timeout=15)
    assert first.status == 429 and second.ok
    assert second.at - first.at >= 2.0, "posted again before Retry-After"
    assert second.at - first.at < 8.0, "the follow-up drain came late"
    eventually(lambda: len(rows(worker.engine, venue, "sent")) == 1, what="row marked sent")
    assert rows(worker.engine, venue, "sent")[0].attempts == 2


def test_a_server_error_is_retried_with_backoff(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    slack.fail_with_status("chat.postMessage", 503, times=2)
    promote(worker.engine, venue, clock())
    worker.on_notices()(venue.id)

    calls = slack.wait_for("chat.postMessage", 3, timeout=15)
    assert [c.status for c in calls] == [503, 503, 200]
    # Backoff doubles: 0.3 s then 0.6 s (±20 %), so the second gap is the longer one.
    assert calls[1].at - calls[0].at >= 0.2
    assert calls[2].at - calls[1].at >= 0.45
    eventually(lambda: len(rows(worker.engine, venue, "sent")) == 1, what="row marked sent")
    assert len(dms_to(slack, SECOND)) == 3  # two refused, one delivered: no duplicate


def test_a_timeout_is_retried_and_the_duplicate_is_counted(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    """Slack stored the first post but answered after our 2 s timeout: at least once."""
    slack.delay_next("chat.postMessage", 3.0)
    promote(worker.engine, venue, clock())
    worker.on_notices()(venue.id)

    slack.wait_for("chat.postMessage", 2, timeout=15)
    eventually(lambda: len(rows(worker.engine, venue, "sent")) == 1, what="row marked sent")
    stored = slack.messages(slack.dm_channel(SECOND))
    assert len(stored) == 2, "the timed-out post reached Slack too: one duplicate"
    sent = rows(worker.engine, venue, "sent")[0]
    assert sent.sent_ref == stored[-1]["ts"]


def test_a_permanent_error_marks_the_row_failed_and_tells_the_channel_once(
    worker: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    slack.fail_next("chat.postMessage", "user_not_found")
    promote(worker.engine, venue, clock())
    worker.on_notices()(venue.id)

    report = slack.wait_for(
        "chat.postMessage", 1, timeout=10, predicate=lambda c: c.body["channel"] == SALES_CHANNEL
    )[0]
    assert report.ok and SECOND in str(report.body["blocks"])
    failed = rows(worker.engine, venue, "failed")
    assert [n.last_error for n in failed] == ["user_not_found"]
    for _ in range(2):  # two more drains, run to the end: still one report
        worker.courier().drain(venue.id)
    assert len(dms_to(slack, SALES_CHANNEL)) == 1
    assert len(dms_to(slack, SECOND)) == 1  # refused once, never retried
    assert rows(worker.engine, venue, "pending") == []


def test_a_refused_token_fails_one_row_and_puts_the_rest_back(
    runtime: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    promote(runtime.engine, venue, clock(), room="hoo-a")
    promote(runtime.engine, venue, clock(), room="hoo-b")
    slack.fail_next("chat.postMessage", "invalid_auth", times=3)

    drained = runtime.courier().drain(venue.id)

    assert (drained.sent, drained.failed, drained.deferred) == (0, 1, 1)
    assert [n.last_error for n in rows(runtime.engine, venue, "failed")] == ["invalid_auth"]
    (waiting,) = rows(runtime.engine, venue, "pending")
    assert waiting.available_at > clock() + timedelta(seconds=50)  # a minute's pause
    assert len(dms_to(slack, SECOND)) == 1, "stopped after the token was refused"


def test_a_slow_slack_never_lets_a_row_outlive_its_lease(
    runtime: Runtime, venue: Venue, slack: SlackStandin, clock: MovingClock
) -> None:
    """A post starts only if it can end (timeout included) before the lease runs out."""
    promote(runtime.engine, venue, clock(), room="hoo-a")
    promote(runtime.engine, venue, clock(), room="hoo-b")
    slack.delay_next("chat.postMessage", 1.5)
    courier = replace(runtime.courier(), lease=timedelta(seconds=3))  # Slack's timeout: 2 s

    drained = courier.drain(venue.id)

    assert (drained.sent, drained.deferred, drained.more) == (1, 1, True)
    (waiting,) = rows(runtime.engine, venue, "pending")
    assert waiting.available_at <= clock()  # put back due at once, for the next drain
    assert courier.drain(venue.id).sent == 1
    assert len(slack.calls_to("chat.postMessage")) == 2  # each row posted once
