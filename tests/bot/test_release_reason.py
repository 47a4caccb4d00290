"""Slack's Release asks why: the dialog the card's button opens, a reason of the venue's list
required, an optional note, the release with that reason (as ``osae hold release --reason``),
and the salesperson told who released it and why. Over signed HTTP, through the stand-in;
``pytest -s`` prints what the salesperson reads."""

from __future__ import annotations

import json

from bot import ids
from core.booking import booking_number
from core.model import Hold, Outcome, Status
from core.rules.reasons import REASONS
from tests.bot.conftest import Harness, values
from tests.bot.packages import courier
from tests.bot.releasing import open_release, release, submit_release, why
from tests.support import slack_requests as sr
from tests.support.factories import MANAGER
from tests.support.transcript import Transcript


def take(bot: Harness, customer: str = "佐藤様") -> tuple[Hold, str, str]:
    """A hold of ``sr.USER_ID`` taken with /hold; it and its channel card (channel, ts)."""
    view_id = bot.command()
    assert bot.submit(view_id, values(customer=customer)) == (200, {})
    post = bot.slack.wait_for("chat.postMessage")[-1]
    (hold,) = [h for h in bot.engine.holds(bot.venue.id) if h.customer == customer]  # type: ignore[union-attr]
    return hold, post.response["channel"], post.response["ts"]


def now(bot: Harness, hold_id: int) -> Hold:
    found = bot.engine.hold(bot.venue.id, hold_id)
    assert isinstance(found, Hold)
    return found


def test_a_manager_releases_with_a_reason_and_the_salesperson_is_told_why(bot: Harness) -> None:
    t = Transcript()
    hold, channel, ts = take(bot)
    t.does(f"@{MANAGER} (a manager) presses 取り下げる on #{hold.id}'s card in #sales")
    dialog = open_release(bot, hold.id, channel=channel, ts=ts, user=MANAGER)
    t.view(dialog)
    offered = next(b for b in dialog["blocks"] if b.get("block_id") == ids.RELEASE_REASON)
    names = [o["text"]["text"] for o in offered["element"]["options"]]
    assert [o["value"] for o in offered["element"]["options"]] == list(REASONS)
    assert names[:2] == ["他会場に決定", "予算"] and "入力の誤り" in names
    booking = booking_number(hold.enquiry_id)
    assert booking in json.dumps(dialog["blocks"], ensure_ascii=False)
    assert now(bot, hold.id).status is Status.TENTATIVE  # nothing changes until submitted

    note = "見積が予算を超えたため"
    t.does(f"chooses 予算, writes「{note}」, presses 取り下げる")
    t.view(dialog, why("budget", note))
    assert submit_release(bot, dialog, "budget", note, user=MANAGER) == (200, "")
    updated = bot.slack.wait_for("chat.update")[-1]
    t.message("#sales, the card updated in place", updated.body)
    left = now(bot, hold.id)
    assert (left.status, left.outcome, left.reason) == (
        Status.RELEASED,
        Outcome.WITHDRAWN,
        "budget",
    )
    card = json.dumps(updated.body["blocks"], ensure_ascii=False)
    assert "取り下げました" in card and "理由: 予算" in card
    assert note not in card  # the note is the salesperson's, not the channel's

    posts = len(bot.slack.calls_to("chat.postMessage"))
    assert courier(bot).drain(bot.venue.id).sent >= 1
    sent = bot.slack.calls_to("chat.postMessage")[posts:]
    (told,) = [c for c in sent if "ほかの人に操作" in json.dumps(c.body, ensure_ascii=False)]
    t.message(f"DM to @{sr.USER_ID} (the salesperson)", told.body)
    said = json.dumps(told.body["blocks"], ensure_ascii=False)
    assert f"<@{MANAGER}> さんが取り下げました" in said
    assert "理由: 予算" in said and note in said and booking in said
    print("\n--- Slack transcript: a release with a reason ---")
    print(t)


def test_no_reason_is_refused_on_its_field_and_nothing_is_written(bot: Harness) -> None:
    hold, channel, ts = take(bot)
    dialog = open_release(bot, hold.id, channel=channel, ts=ts)
    before = bot.fingerprint()
    for reason in (None, "lottery"):  # none chosen; a code not in the list (crafted)
        status, answer = submit_release(bot, dialog, reason, "メモだけ")
        assert status == 200
        refused = json.loads(answer)
        assert refused["response_action"] == "errors"
        assert refused["errors"] == {
            ids.RELEASE_REASON: "取り下げの理由を選んでください（月次の集計に使います）。"
        }
    assert bot.fingerprint() == before
    assert now(bot, hold.id).status is Status.TENTATIVE


def test_a_note_with_a_control_character_is_refused_on_the_note(bot: Harness) -> None:
    hold, channel, ts = take(bot)
    dialog = open_release(bot, hold.id, channel=channel, ts=ts)
    status, answer = submit_release(bot, dialog, "other", "a\x00b")
    assert status == 200 and list(json.loads(answer)["errors"]) == [ids.RELEASE_NOTE]
    assert now(bot, hold.id).status is Status.TENTATIVE


def test_an_entry_error_is_released_without_a_note_and_is_not_a_loss(bot: Harness) -> None:
    hold, channel, ts = take(bot)
    release(bot, hold.id, channel=channel, ts=ts, reason="entry_error")
    left = now(bot, hold.id)
    assert (left.status, left.reason) == (Status.RELEASED, "entry_error")
    card = json.dumps(bot.slack.message(channel, ts), ensure_ascii=False)  # type: ignore[arg-type]
    assert "理由: 入力の誤り" in card
    assert bot.engine.notices(bot.venue.id) == [] or all(
        n.kind != "acted_for" for n in bot.engine.notices(bot.venue.id)
    )  # the salesperson released it: nobody else to tell


def test_a_release_submitted_after_someone_else_released_says_so_in_the_dialog(
    bot: Harness,
) -> None:
    hold, channel, ts = take(bot)
    dialog = open_release(bot, hold.id, channel=channel, ts=ts)
    assert bot.engine.release(bot.venue.id, hold.id, actor=MANAGER, now=bot.clock[0]).ok
    status, answer = submit_release(bot, dialog, "budget")
    shown = json.loads(answer)
    assert status == 200 and shown["response_action"] == "update"
    assert "すでに取り下げです" in json.dumps(shown["view"], ensure_ascii=False)
    assert now(bot, hold.id).reason == "unspecified"  # the first release stands


def test_the_promoted_dms_release_asks_why_too_and_the_dm_is_redrawn(bot: Harness) -> None:
    first, _, _ = take(bot, "佐藤様")
    second, _, _ = take(bot, "鈴木様")
    assert bot.engine.release(bot.venue.id, first.id, actor=sr.USER_ID, now=bot.clock[0]).ok
    posts = len(bot.slack.calls_to("chat.postMessage"))
    assert courier(bot).drain(bot.venue.id).failed == 0
    (dm,) = [
        c
        for c in bot.slack.calls_to("chat.postMessage")[posts:]
        if "繰り上" in json.dumps(c.body, ensure_ascii=False)
    ]
    channel, ts = dm.response["channel"], dm.response["ts"]
    dialog = open_release(bot, second.id, channel=channel, ts=ts)
    updates = len(bot.slack.calls_to("chat.update"))
    assert submit_release(bot, dialog, "no_answer", "3回電話、折り返しなし") == (200, "")
    redrawn = bot.slack.wait_for("chat.update", updates + 1)[-1]
    assert redrawn.body["channel"] == channel and redrawn.body["ts"] == ts
    said = json.dumps(redrawn.body["blocks"], ensure_ascii=False)
    assert "取り下げました" in said and "理由: 連絡がつかない" in said
    left = now(bot, second.id)
    assert (left.status, left.reason, left.reason_note) == (
        Status.RELEASED,
        "no_answer",
        "3回電話、折り返しなし",
    )
