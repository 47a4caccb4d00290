""" "変更 / Edit" on a hold's card: the /hold form filled in with the hold, its preview saying
whether the change keeps the place, the edit itself, and a stale form refused, through
signed Slack requests to the real HTTP endpoint."""

from __future__ import annotations

import json

from bot import ids
from core.model import Hold, Status
from tests.bot.conftest import ENGLISH_USER, Harness, click, values
from tests.bot.test_buttons import card_text, hold_now, take
from tests.support import slack_requests as sr
from tests.support.factories import MANAGER


def open_edit(bot: Harness, hold: Hold, channel: str, ts: str, user: str = sr.USER_ID) -> str:
    """Click Edit on the card; returns the id of the form it opened (once filled in)."""
    opens = len(bot.slack.calls_to("views.open"))
    updates = len(bot.slack.calls_to("views.update"))
    status, _ = click(bot, ids.EDIT, hold.id, channel=channel, ts=ts, user=user)
    assert status == 200
    opened = bot.slack.wait_for("views.open", opens + 1)[-1]
    bot.slack.wait_for("views.update", updates + 1)
    return str(opened.response["view"]["id"])


def test_the_card_has_edit_and_the_form_opens_filled_in(bot: Harness) -> None:
    hold, channel, ts = take(bot, "佐藤様")
    assert f'"action_id": "{ids.EDIT}"' in card_text(bot, channel, ts)
    view_id = open_edit(bot, hold, channel, ts)
    view = bot.slack.view(view_id)
    assert view["callback_id"] == ids.HOLD_MODAL and view["title"]["text"] == "押さえの変更"
    shown = json.dumps(view["blocks"], ensure_ascii=False)
    assert '"initial_value": "佐藤様"' in shown and '"initial_time": "11:00"' in shown
    assert "順位がそのままか新しい押さえになるか" in bot.preview_text(view_id)


def test_the_preview_says_whether_it_keeps_its_place_and_a_shrink_keeps_it(
    bot: Harness,
) -> None:
    hold, channel, ts = take(bot, "佐藤様")
    take(bot, "鈴木様", user=MANAGER)  # 2nd behind it
    view_id = open_edit(bot, hold, channel, ts)

    later_start = values(customer="佐藤様", start="12:00")
    status, _ = bot.choose(view_id, later_start, ids.START)
    assert status == 200
    bot.settle()
    assert bot.preview_text(view_id).startswith("順位はそのまま（1番手 · 期限")

    # An hour longer over a slot where only its own 2nd waits: it takes nobody's place.
    later_end = values(customer="佐藤様", end="16:00")
    bot.choose(view_id, later_end, ids.END)
    bot.settle()
    assert bot.preview_text(view_id).startswith("順位はそのまま（1番手 · 期限")

    posts = len(bot.slack.calls_to("chat.postMessage"))
    status, answer = bot.submit(view_id, later_start)
    assert (status, answer) == (200, {})
    posted = bot.slack.wait_for("chat.postMessage", posts + 1)[-1]
    assert "変更しました（順位はそのまま・1番手）" in posted.body["text"]
    assert posted.body["text"].count(f"#{hold.id} ") == 1  # the hold said once, not twice
    now = hold_now(bot, hold.id)
    assert (now.rank, now.expires_at, now.version) == (1, hold.expires_at, hold.version + 1)


def take_in(bot: Harness, room: str, customer: str, user: str) -> Hold:
    """A hold in ``room`` through /hold."""
    posts = len(bot.slack.calls_to("chat.postMessage"))
    view_id = bot.command(user=user)
    status, answer = bot.submit(
        view_id, values(room=room, customer=customer, salesperson=user), user=user
    )
    assert (status, answer) == (200, {})
    bot.slack.wait_for("chat.postMessage", posts + 1)
    return next(h for h in bot.engine.holds(bot.venue.id) if h.customer == customer)  # type: ignore[union-attr]


def test_a_swap_that_costs_the_1st_place_asks_first_in_english(bot: Harness) -> None:
    hold, channel, ts = take(bot, "Sato", user=ENGLISH_USER)
    take_in(bot, "sakura", "Suzuki", MANAGER)
    view_id = open_edit(bot, hold, channel, ts, user=ENGLISH_USER)
    moved = values(room="sakura", customer="Sato", salesperson=ENGLISH_USER)
    bot.choose(view_id, moved, ids.ROOM, user=ENGLISH_USER)
    bot.settle()
    assert bot.preview_text(view_id) == (
        "Loses the 1st place: becomes 2nd behind Suzuki (wedding) (a new hold)."
        " You will be asked to confirm."
    )
    shrunk = values(customer="Sato", salesperson=ENGLISH_USER, end="14:00")
    bot.choose(view_id, shrunk, ids.END, user=ENGLISH_USER)
    bot.settle()
    assert bot.preview_text(view_id).startswith("Keeps its place as 1st · reply by")

    before = bot.fingerprint()
    status, answer = bot.submit(view_id, moved, user=ENGLISH_USER)
    assert status == 200 and answer["response_action"] == "update"
    shown = json.dumps(answer["view"], ensure_ascii=False)
    assert "This hold is 1st now" in shown and "Submit again" in shown and "Suzuki" in shown
    assert bot.fingerprint() == before  # nothing written until it is confirmed
    # The same change sent again from the form as Slack updated it is the confirmation.
    posts = len(bot.slack.calls_to("chat.postMessage"))
    updated = {**bot.slack.view(view_id), **answer["view"]}
    body = sr.view_submission(moved, view=updated, user_id=ENGLISH_USER)
    status, _, said = bot.post(body)
    assert status == 200 and (json.loads(said) if said else {}) == {}
    posted = bot.slack.wait_for("chat.postMessage", posts + 1)[-1]
    assert "Changed as a new hold" in posted.body["text"]
    assert hold_now(bot, hold.id).status is Status.RELEASED


def test_a_stale_form_is_refused_with_a_clear_message_and_writes_nothing(bot: Harness) -> None:
    hold, channel, ts = take(bot, "佐藤様")
    first = open_edit(bot, hold, channel, ts)
    second = open_edit(bot, hold, channel, ts)
    status, answer = bot.submit(first, values(customer="佐藤様", end="14:00"))
    assert (status, answer) == (200, {})
    bot.settle()
    before = bot.fingerprint()
    status, answer = bot.submit(second, values(customer="佐藤様", start="12:00"))
    assert status == 200 and answer["response_action"] == "update"
    shown = json.dumps(answer["view"], ensure_ascii=False)
    assert "フォームを開いた後に、この押さえ" in shown and "変更されました" in shown
    assert bot.fingerprint() == before


def test_the_kind_stays_and_someone_else_cannot_edit(bot: Harness) -> None:
    hold, channel, ts = take(bot, "佐藤様")
    view_id = open_edit(bot, hold, channel, ts)
    before = bot.fingerprint()
    _, answer = bot.submit(view_id, values(customer="佐藤様", kind="banquet"))
    assert answer["response_action"] == "errors" and ids.KIND in answer["errors"]
    assert bot.fingerprint() == before
    opens = len(bot.slack.calls_to("views.open"))
    updates = len(bot.slack.calls_to("views.update"))
    click(bot, ids.EDIT, hold.id, channel=channel, ts=ts, user="U0OTHER001")
    bot.slack.wait_for("views.open", opens + 1)
    told = bot.slack.wait_for("views.update", updates + 1)[-1]
    assert "操作できるのは" in json.dumps(told.body["view"], ensure_ascii=False)
