"""Preview updates use the view's hash: an older preview never overwrites a newer one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.view_updates import ViewUpdates
from tests.support.slack_standin import SlackStandin


def modal(label: str) -> dict[str, Any]:
    return {
        "type": "modal",
        "title": {"type": "plain_text", "text": "t"},
        "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": label}}],
    }


@pytest.fixture
def opened() -> Iterator[tuple[SlackStandin, WebClient, dict[str, Any]]]:
    with SlackStandin() as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])
        view = client.views_open(trigger_id=slack.issue_trigger(), view=modal("open"))["view"]
        yield slack, client, view


def shown(slack: SlackStandin, view_id: str) -> str:
    return str(slack.view(view_id)["blocks"][0]["text"]["text"])


def update(updates: ViewUpdates, opened: Any, label: str, stamp: float) -> bool:
    _, client, view = opened
    return updates.update(
        client, view_id=view["id"], view=modal(label), hash=view["hash"], stamp=stamp
    )


def test_an_update_built_from_an_older_action_is_dropped(opened: Any) -> None:
    slack, _, view = opened
    updates = ViewUpdates()
    assert update(updates, opened, "new", stamp=2)
    assert not update(updates, opened, "old", stamp=1)
    assert shown(slack, view["id"]) == "new"
    assert len(slack.calls_to("views.update")) == 1  # the stale one was not even sent


def test_a_newer_action_whose_hash_was_outdated_by_our_own_update_goes_again(opened: Any) -> None:
    slack, _, view = opened
    updates = ViewUpdates()
    # Two clicks made on the same view (same hash); the older one's update lands first.
    assert update(updates, opened, "first", stamp=1)
    assert update(updates, opened, "second", stamp=2)
    assert shown(slack, view["id"]) == "second"
    assert [c.error for c in slack.calls_to("views.update")] == [None, "hash_conflict", None]


def test_a_hash_conflict_from_someone_else_is_harmless(opened: Any) -> None:
    slack, client, view = opened
    client.views_update(view_id=view["id"], hash=view["hash"], view=modal("elsewhere"))
    # another process: it knows nothing of that update
    assert not update(ViewUpdates(), opened, "mine", stamp=1)
    assert shown(slack, view["id"]) == "elsewhere"


def test_a_view_closed_meanwhile_is_left_alone_and_other_errors_are_raised(opened: Any) -> None:
    slack, client, _ = opened
    assert not ViewUpdates().update(client, view_id="V0GONE", view=modal("x"), hash=None, stamp=1)
    slack.fail_next("views.update", "invalid_arguments")
    with pytest.raises(SlackApiError):
        update(ViewUpdates(), opened, "x", stamp=1)
