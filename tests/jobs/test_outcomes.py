"""How a Slack answer decides a row's next step, and when the follow-up drains run."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from slack_sdk import WebClient

from cli import localservices
from cli.settings import SettingError, Tuning
from jobs.actors import MAX_FOLLOW_UPS, follow_ups
from jobs.delivery import BACKOFF_CAP, backoff
from jobs.slack_post import post_message
from jobs.transport import Delivered, Permanent, RateLimited, Transient
from tests.support.slack_standin import DEFAULT_TOKEN, SlackStandin

NOW = datetime(2027, 3, 1, tzinfo=UTC)


def client(base_url: str) -> WebClient:
    return WebClient(token=DEFAULT_TOKEN, base_url=base_url, timeout=1, retry_handlers=[])


def test_slack_answers_sorted(slack: SlackStandin) -> None:
    web = client(slack.base_url)

    def post() -> object:
        return post_message(web, channel="U0SOMEONE", text="hi")

    assert isinstance(post(), Delivered)
    slack.rate_limit_next("chat.postMessage", retry_after=7)
    assert post() == RateLimited(7.0)
    slack.fail_with_status("chat.postMessage", 502)
    assert isinstance(post(), Transient)
    slack.fail_next("chat.postMessage", "service_unavailable")
    assert post() == Transient("service_unavailable")
    slack.fail_next("chat.postMessage", "channel_not_found")
    assert post() == Permanent("channel_not_found", token_refused=False)
    slack.fail_next("chat.postMessage", "token_revoked")
    assert post() == Permanent("token_revoked", token_refused=True)
    slack.delay_next("chat.postMessage", 2.0)
    timed_out = post()
    assert isinstance(timed_out, Transient) and "Timeout" in timed_out.error
    assert len(slack.calls_to("chat.postMessage")) == 7, "one call per post: no SDK retry"


def test_an_unreachable_slack_is_transient() -> None:
    gone = client(f"http://127.0.0.1:{localservices.free_port()}/api/")
    outcome = post_message(gone, channel="U0SOMEONE", text="hi")
    assert isinstance(outcome, Transient) and "refused" in outcome.error.lower()


def test_rows_paced_a_second_apart_each_get_a_drain() -> None:
    due = [NOW + timedelta(seconds=s) for s in (1, 2, 2.0001, 3)]
    assert follow_ups(due, NOW) == [1050, 2050, 2300, 3050]  # rounded up, never early


def test_follow_ups_are_capped_and_the_last_covers_the_latest_row() -> None:
    due = [NOW + timedelta(seconds=s) for s in range(1, 30)]
    delays = follow_ups(due, NOW)
    assert len(delays) == MAX_FOLLOW_UPS
    assert delays[-1] == 29_050 and delays[0] == 1_050


def test_backoff_doubles_and_is_capped() -> None:
    assert 4.0 <= backoff(1) <= 6.0
    assert 8.0 <= backoff(2) <= 12.0
    assert backoff(30) <= BACKOFF_CAP * 1.2


def test_tuning_from_the_environment() -> None:
    tuned = Tuning.from_env({"OSAE_OUTBOX_LEASE_SECONDS": "90", "OSAE_WORKER_THREADS": "8"})
    assert tuned.lease == timedelta(seconds=90) and tuned.worker_threads == 8
    assert Tuning.from_env({}) == Tuning()
    for bad in ({"OSAE_WORKER_THREADS": "0"}, {"OSAE_DRAIN_EVERY_SECONDS": "soon"}):
        with pytest.raises(SettingError):
            Tuning.from_env(bad)
