"""/hold cancel N: managers cancel a confirmed booking after a dialog; others are told why not."""

from __future__ import annotations

import json

from bot import ids
from core.model import Hold, Status
from core.results import RequestAnswer
from tests.bot.conftest import Harness
from tests.support import slack_requests as sr
from tests.support.factories import MANAGER, request


def reason(typed: str | None = "お客様のご都合で日程変更") -> dict[str, dict[str, object]]:
    """The dialog's reason field, as Slack sends it."""
    return {ids.CANCEL_REASON: {ids.CANCEL_REASON: sr.text_value(typed)}}


def booked(bot: Harness) -> Hold:
    """A confirmed booking."""
    first = bot.engine.request(bot.venue.id, request(customer="本予約様"), now=bot.clock[0])
    assert isinstance(first, RequestAnswer)
    assert bot.engine.confirm(bot.venue.id, first.hold.id, actor=MANAGER, now=bot.clock[0]).ok
    return first.hold


def test_a_manager_cancels_a_confirmed_booking_after_a_dialog(bot: Harness) -> None:
    hold = booked(bot)
    body = sr.slash_command(
        text=f"cancel #{hold.id}", user_id=MANAGER, response_url=bot.slack.response_url("c")
    )
    assert bot.post(body)[0] == 200
    dialog = bot.slack.wait_for("views.open")[0]
    assert dialog.body["view"]["callback_id"] == ids.CANCEL_MODAL
    assert "本予約様" in json.dumps(dialog.body["view"], ensure_ascii=False)
    assert bot.engine.hold(bot.venue.id, hold.id).status is Status.CONFIRMED  # type: ignore[union-attr]

    assert "取消の理由" in json.dumps(dialog.body["view"], ensure_ascii=False)

    view = bot.slack.view(dialog.response["view"]["id"])
    status, _, answer = bot.post(sr.view_submission(reason(), view=view, user_id=MANAGER))
    assert (status, answer) == (200, "")
    told = bot.slack.wait_for("response_url")[0].body
    assert told["response_type"] == "ephemeral" and "本予約を取り消しました" in told["text"]
    assert bot.engine.hold(bot.venue.id, hold.id).status is Status.CANCELLED  # type: ignore[union-attr]
    assert bot.enqueued == [bot.venue.id]
    dm = next(n for n in bot.engine.notices(bot.venue.id) if n.kind == "cancelled")
    assert (dm.recipient, dm.payload["actor"]) == (hold.salesperson, MANAGER)
    assert dm.payload["reason"] == "お客様のご都合で日程変更"
    trail = bot.engine.trail(bot.venue.id, hold.id)
    assert trail[-1].detail["reason"] == "お客様のご都合で日程変更"


def test_a_cancel_without_a_reason_is_asked_for_one_and_cancels_nothing(bot: Harness) -> None:
    hold = booked(bot)
    bot.post(sr.slash_command(text=f"cancel {hold.id}", user_id=MANAGER))
    dialog = bot.slack.wait_for("views.open")[0]
    view = bot.slack.view(dialog.response["view"]["id"])
    before = bot.fingerprint()
    for typed in (None, "   "):
        status, _, answer = bot.post(sr.view_submission(reason(typed), view=view, user_id=MANAGER))
        assert status == 200
        shown = json.loads(answer)
        assert shown["response_action"] == "errors"
        assert "理由" in shown["errors"][ids.CANCEL_REASON]
    assert bot.fingerprint() == before
    assert bot.enqueued == []


def test_someone_not_a_manager_is_told_and_gets_no_dialog(bot: Harness) -> None:
    hold = booked(bot)
    body = sr.slash_command(text=f"cancel {hold.id}", response_url=bot.slack.response_url("c"))
    assert bot.post(body)[0] == 200
    told = bot.slack.wait_for("response_url")[0].body
    assert "マネージャーだけ" in told["text"]
    assert bot.slack.calls_to("views.open") == []
    assert bot.engine.hold(bot.venue.id, hold.id).status is Status.CONFIRMED  # type: ignore[union-attr]


def test_cancel_without_a_number_explains_itself(bot: Harness) -> None:
    body = sr.slash_command(text="取消", user_id=MANAGER, response_url=bot.slack.response_url("c"))
    assert bot.post(body)[0] == 200
    assert "`/hold cancel 番号`" in bot.slack.wait_for("response_url")[0].body["text"]


def test_a_tentative_hold_is_not_cancelled_and_the_dialog_says_why(bot: Harness) -> None:
    tentative = bot.engine.request(bot.venue.id, request(room="sakura"), now=bot.clock[0])
    assert isinstance(tentative, RequestAnswer)
    body = sr.slash_command(text=f"cancel {tentative.hold.id}", user_id=MANAGER)
    bot.post(body)
    dialog = bot.slack.wait_for("views.open")[0]
    view = bot.slack.view(dialog.response["view"]["id"])
    status, _, answer = bot.post(sr.view_submission(reason(), view=view, user_id=MANAGER))
    assert status == 200
    shown = json.loads(answer)
    assert shown["response_action"] == "update"
    assert "本予約ではないため取消できません" in json.dumps(shown, ensure_ascii=False)
    assert bot.enqueued == []
