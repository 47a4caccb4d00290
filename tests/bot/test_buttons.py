"""Confirm / Release / Extend on the channel card: authority, the dialog, in-place updates."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

from bot import ids
from core.model import Hold, Status
from core.results import RequestAnswer
from tests.bot.conftest import ENGLISH_USER, STRANGER, Harness, click, values
from tests.bot.releasing import release
from tests.support import slack_requests as sr
from tests.support.factories import DAY, MANAGER, NOW, decision_dms, request, venue

LATER = date(2027, 3, 31)


def take(
    bot: Harness, customer: str, user: str = sr.USER_ID, day: date = DAY
) -> tuple[Hold, str, str]:
    """A hold taken through /hold; returns it and its channel card (channel, ts)."""
    posts = len(bot.slack.calls_to("chat.postMessage"))
    view_id = bot.command(user=user)
    chosen = values(customer=customer, salesperson=user, day=day)
    status, answer = bot.submit(view_id, chosen, user=user)
    assert (status, answer) == (200, {})
    post = bot.slack.wait_for("chat.postMessage", posts + 1)[-1]
    found = bot.engine.holds(bot.venue.id)
    assert isinstance(found, list)
    hold = next(h for h in found if h.customer == customer)
    return hold, post.response["channel"], post.response["ts"]


def hold_now(bot: Harness, hold_id: int) -> Hold:
    found = bot.engine.hold(bot.venue.id, hold_id)
    assert isinstance(found, Hold)
    return found


def card_text(bot: Harness, channel: str, ts: str) -> str:
    message = bot.slack.message(channel, ts)
    assert message is not None
    return json.dumps(message["blocks"], ensure_ascii=False)


def ephemerals(bot: Harness, name: str = "click") -> list[dict[str, Any]]:
    return [c.body for c in bot.slack.responses(name) if c.body.get("response_type") == "ephemeral"]


def test_confirm_asks_first_listing_what_it_releases_then_confirms_in_place(bot: Harness) -> None:
    first, channel, ts = take(bot, "佐藤様")
    second, _, _ = take(bot, "鈴木様", user=MANAGER)
    opens = len(bot.slack.calls_to("views.open"))

    status, _ = click(bot, ids.CONFIRM, first.id, channel=channel, ts=ts)
    assert status == 200
    dialog = bot.slack.wait_for("views.open", opens + 1)[-1]
    shown = json.dumps(dialog.body["view"], ensure_ascii=False)
    assert dialog.body["view"]["callback_id"] == ids.CONFIRM_MODAL
    assert "取り下げになり" in shown and "鈴木様" in shown
    assert hold_now(bot, first.id).status is Status.TENTATIVE  # nothing changes until submit

    confirm_view = dialog.response["view"]
    body = sr.view_submission(view=bot.slack.view(confirm_view["id"]))
    status, _, answer = bot.post(body)
    assert (status, answer) == (200, "")

    bot.slack.wait_for("chat.update")
    assert hold_now(bot, first.id).status is Status.CONFIRMED
    assert hold_now(bot, second.id).status is Status.RELEASED
    # the jobs are told to drain the outbox: the 2nd's note to the 1st, then the confirm's
    assert bot.enqueued == [bot.venue.id] * 2
    lost = [n for n in bot.engine.notices(bot.venue.id) if n.kind == "lost"]
    assert [n.hold_id for n in lost] == [second.id]
    card = card_text(bot, channel, ts)
    assert "本予約にしました" in card and "*本予約*" in card
    assert ids.CONFIRM not in card  # no buttons left on a decided hold


def test_a_strangers_click_changes_nothing_and_says_why(bot: Harness) -> None:
    hold, channel, ts = take(bot, "佐藤様")
    before = card_text(bot, channel, ts)

    for action in (ids.CONFIRM, ids.RELEASE, ids.EXTEND):
        status, _ = click(bot, action, hold.id, channel=channel, ts=ts, user=STRANGER)
        assert status == 200
    bot.slack.wait_for("response_url", 3)

    told = ephemerals(bot)
    assert len(told) == 3
    assert all(f"担当の <@{sr.USER_ID}> さん" in t["text"] for t in told)
    assert all(t["replace_original"] is False for t in told)
    now = hold_now(bot, hold.id)
    assert (now.status, now.rank, now.expires_at) == (hold.status, hold.rank, hold.expires_at)
    assert card_text(bot, channel, ts) == before
    assert bot.slack.calls_to("chat.update") == []
    assert len(bot.slack.calls_to("views.open")) == 1  # only the /hold modal: no dialog
    assert bot.enqueued == []


def test_release_updates_the_card_and_a_second_click_says_what_already_happened(
    bot: Harness,
) -> None:
    first, channel, ts = take(bot, "佐藤様")
    second, _, _ = take(bot, "鈴木様")

    release(bot, first.id, channel=channel, ts=ts)
    assert hold_now(bot, first.id).status is Status.RELEASED
    promoted = hold_now(bot, second.id)
    assert (promoted.rank, promoted.expires_at is not None) == (1, True)
    assert "取り下げました" in card_text(bot, channel, ts)
    assert [n.kind for n in decision_dms(bot.engine.notices(bot.venue.id))] == ["promoted"]
    assert bot.enqueued == [bot.venue.id] * 2  # the 2nd's note to the 1st, then the release

    # The same (stale) card clicked again: nothing changes, the clicker is told why.
    status, _ = click(bot, ids.RELEASE, first.id, channel=channel, ts=ts, name="again")
    assert status == 200
    bot.slack.wait_for("response_url", predicate=lambda c: c.path.endswith("again"))
    assert "すでに取り下げです" in ephemerals(bot, "again")[0]["text"]
    assert hold_now(bot, second.id).rank == 1
    assert [n.kind for n in decision_dms(bot.engine.notices(bot.venue.id))] == ["promoted"]


def test_extend_moves_the_deadline_and_tells_the_next_in_line(bot: Harness) -> None:
    first, channel, ts = take(bot, "佐藤様", day=LATER)  # the deadline is not capped at the start
    take(bot, "鈴木様", day=LATER)
    click(bot, ids.EXTEND, first.id, channel=channel, ts=ts)
    bot.slack.wait_for("chat.update")

    assert hold_now(bot, first.id).extensions_used == 1
    assert "新しい期限 *3/15(月・先負) 9:00まで*" in card_text(bot, channel, ts)
    assert [n.kind for n in decision_dms(bot.engine.notices(bot.venue.id))] == ["extended"]

    click(bot, ids.EXTEND, first.id, channel=channel, ts=ts, name="twice")
    bot.slack.wait_for("response_url", predicate=lambda c: c.path.endswith("twice"))
    assert "延長は1回まで" in ephemerals(bot, "twice")[0]["text"]


def test_a_deadline_passed_click_is_too_late(bot: Harness) -> None:
    first, channel, ts = take(bot, "佐藤様")
    assert first.expires_at is not None
    bot.clock[0] = first.expires_at + timedelta(minutes=1)
    click(bot, ids.CONFIRM, first.id, channel=channel, ts=ts)
    bot.slack.wait_for("response_url")
    assert "期限（3/8(月・友引) 9:00）を過ぎた" in ephemerals(bot)[0]["text"]
    assert len(bot.slack.calls_to("views.open")) == 1  # no confirmation dialog
    assert hold_now(bot, first.id).status is Status.TENTATIVE


def test_a_manager_may_act_on_someone_elses_hold(bot: Harness) -> None:
    hold, channel, ts = take(bot, "佐藤様")
    release(bot, hold.id, channel=channel, ts=ts, user=MANAGER)
    assert hold_now(bot, hold.id).status is Status.RELEASED
    assert f"<@{MANAGER}> さんが取り下げました" in card_text(bot, channel, ts)


def test_buttons_answer_in_the_clickers_language(bot: Harness) -> None:
    result = bot.engine.request(bot.venue.id, request(salesperson=ENGLISH_USER), now=bot.clock[0])
    assert isinstance(result, RequestAnswer)
    _, channel, ts = take(bot, "佐藤様")  # any message with buttons will do for a stranger
    click(bot, ids.RELEASE, result.hold.id, channel=channel, ts=ts, user=STRANGER)
    bot.slack.wait_for("response_url")
    assert "担当の" in ephemerals(bot)[0]["text"]  # the stranger reads Japanese

    release(bot, result.hold.id, channel=channel, ts=ts, user=ENGLISH_USER)
    assert "Released by" in card_text(bot, channel, ts)


def test_a_crafted_button_value_or_another_venues_hold_changes_nothing(bot: Harness) -> None:
    other = bot.engine.save_venue(venue(), now=NOW)
    theirs = bot.engine.request(other.id, request(), now=NOW)
    assert isinstance(theirs, RequestAnswer)
    _, channel, ts = take(bot, "佐藤様")
    message = bot.slack.message(channel, ts)
    for value, name in ((f"{theirs.hold.id}", "other"), ("12; DROP TABLE holds", "crafted")):
        button = sr.action(ids.RELEASE, value, block_id=ids.card_actions(1))
        body = sr.block_actions(
            actions=[button],
            message=message,
            channel_id=channel,
            response_url=bot.slack.response_url(name, channel=channel, ts=ts),
        )
        assert bot.post(body)[0] == 200
        bot.slack.wait_for("response_url", predicate=lambda c, n=name: c.path.endswith(n))
        assert "この会場にありません" in ephemerals(bot, name)[0]["text"]
    still = bot.engine.hold(other.id, theirs.hold.id)
    assert isinstance(still, Hold) and still.status is Status.TENTATIVE
    assert bot.slack.calls_to("chat.update") == []
