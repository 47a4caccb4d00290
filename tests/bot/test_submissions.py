"""Submitting the modal: field errors, refusals in the modal, races, double submits."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from threading import Barrier
from typing import Any

from bot import ids
from bot.metadata import Meta
from core.model import Status
from core.results import RequestAnswer
from tests.bot.conftest import Harness, values
from tests.support import slack_requests as sr
from tests.support.factories import request

SATURDAY_FAR = date(2027, 8, 7)  # a Saturday more than 90 days ahead: banquets not open yet


def holds(bot: Harness) -> list[Any]:
    found = bot.engine.holds(bot.venue.id)
    assert isinstance(found, list)
    return found


def test_missing_fields_come_back_on_the_fields(bot: Harness) -> None:
    view_id = bot.command()
    status, answer = bot.submit(view_id, values(customer=" ", start=None))
    assert status == 200
    assert answer["response_action"] == "errors"
    assert set(answer["errors"]) == {ids.START, ids.CUSTOMER}
    assert holds(bot) == []


def test_bad_input_from_the_engine_comes_back_on_the_offending_field(bot: Harness) -> None:
    view_id = bot.command()
    status, answer = bot.submit(view_id, values(day=date(2027, 2, 1)))
    assert (status, answer["response_action"]) == (200, "errors")
    assert list(answer["errors"]) == [ids.DATE]
    assert "すでに過ぎています" in answer["errors"][ids.DATE]

    status, answer = bot.submit(view_id, values(day=SATURDAY_FAR, kind="banquet"))
    # said in the form, beside 「開放日に知らせる」 (issue 28: the window ping)
    assert answer["response_action"] == "update"
    said = json.dumps(answer["view"]["blocks"], ensure_ascii=False)
    assert "土日祝は婚礼を優先するため、この日の一般宴会は 2027/5/9(日・先勝) 0:00 から" in said
    assert "平日の日程をご提案ください" in said
    assert "婚礼なら" not in said  # a company party is never invited to pose as a wedding
    assert holds(bot) == []


def test_a_refusal_is_shown_in_the_modal_with_its_reason(bot: Harness) -> None:
    for customer in ("佐藤様", "鈴木様"):
        assert bot.engine.request(bot.venue.id, request(customer=customer), now=bot.clock[0]).ok
    view_id = bot.command()
    status, answer = bot.submit(view_id, values())
    assert (status, answer["response_action"]) == (200, "update")
    shown = json.dumps(answer["view"], ensure_ascii=False)
    assert "3番手になるため受付できません（2番手まで）。押さえ済み: 1番手 #" in shown
    # the 1st AND the 2nd, each with their salesperson; the 1st with its deadline
    assert "佐藤様（婚礼）担当 <@U0SALES001> 期限 3/8(月・友引) 9:00まで / 2番手 #" in shown
    assert "鈴木様（婚礼）担当 <@U0SALES001>" in shown
    assert answer["view"]["callback_id"] == ids.HOLD_MODAL  # still the form, to change and resend
    room = next(b for b in answer["view"]["blocks"] if b.get("block_id") == ids.ROOM)
    assert room["element"]["initial_option"]["value"] == "hoo"  # what was typed is kept
    assert len(holds(bot)) == 2
    assert bot.slack.calls_to("chat.postMessage") == []


def test_eight_people_submitting_the_same_slot_at_once_get_a_first_a_second_and_six_refusals(
    bot: Harness,
) -> None:
    users = [f"U0RACE000{i}" for i in range(8)]
    start = Barrier(len(users))

    def submit(i: int) -> dict[str, Any]:
        body = sr.view_submission(
            values(customer=f"顧客{i}様", salesperson=users[i]),
            view_id=f"V0RACE000{i}",  # eight people, eight modals
            callback_id=ids.HOLD_MODAL,
            private_metadata=Meta(channel=sr.CHANNEL_ID, locale="ja-JP").dump(),
            user_id=users[i],
        )
        start.wait()
        status, _, answer = bot.post(body)
        assert status == 200
        return json.loads(answer) if answer else {}

    with ThreadPoolExecutor(len(users)) as pool:
        answers = list(pool.map(submit, range(8)))

    accepted = [a for a in answers if a == {}]
    refused = [a for a in answers if a.get("response_action") == "update"]
    assert (len(accepted), len(refused)) == (2, 6)
    for answer in refused:
        assert "3番手になるため受付できません" in json.dumps(answer["view"], ensure_ascii=False)
    live = [h for h in holds(bot) if h.status is Status.TENTATIVE]
    assert sorted(h.rank for h in live) == [1, 2]
    bot.slack.wait_for("chat.postMessage", 2)
    assert len(bot.slack.calls_to("chat.postMessage")) == 2


def test_a_double_submit_makes_one_hold_and_one_post(bot: Harness) -> None:
    view_id = bot.command()
    body = sr.view_submission(values(), view=bot.slack.view(view_id))
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda _: bot.post(body), range(2)))
    assert [(status, text) for status, _, text in answers] == [(200, ""), (200, "")]
    # and once more, as Slack retries a submission it thinks timed out
    status, _, text = bot.post(body, retry_num=1)
    assert (status, text) == (200, "")

    assert len(holds(bot)) == 1
    bot.slack.wait_for("chat.postMessage")
    bot.slack.wait_for("views.publish")
    assert len(bot.slack.calls_to("chat.postMessage")) == 1


def test_a_hold_for_another_salesperson_mentions_them_and_refreshes_both_homes(
    bot: Harness,
) -> None:
    view_id = bot.command()
    bot.submit(view_id, values(salesperson="U0SALES001"))
    post = bot.slack.wait_for("chat.postMessage")[0]
    assert "担当 <@U0SALES001>" in json.dumps(post.body["blocks"], ensure_ascii=False)
    published = bot.slack.wait_for("views.publish", 2)
    assert {c.body["user_id"] for c in published} == {"U0SALES001", sr.USER_ID}
    (hold,) = holds(bot)
    assert (hold.salesperson, hold.creator) == ("U0SALES001", sr.USER_ID)


def test_second_in_line_is_posted_with_who_is_first(bot: Harness) -> None:
    first = bot.engine.request(bot.venue.id, request(customer="佐藤様"), now=bot.clock[0])
    assert isinstance(first, RequestAnswer)
    view_id = bot.command()
    bot.submit(view_id, values())
    post = bot.slack.wait_for("chat.postMessage")[0]
    text = json.dumps(post.body["blocks"], ensure_ascii=False)
    assert "*2番手*" in text and f"前に: 1番手 #{first.hold.id} 佐藤様（婚礼）" in text
    rows = [b for b in post.body["blocks"] if b["type"] == "actions"]
    buttons = [e["action_id"] for row in rows for e in row["elements"]]
    # a waiting hold can be released, changed, or get another candidate date; not confirmed
    assert buttons == [ids.RELEASE, ids.NUDGE, ids.EDIT, ids.ANOTHER_DATE]


def test_when_the_bot_is_not_in_the_channel_it_answers_through_the_response_url(
    bot: Harness,
) -> None:
    bot.slack.fail_next("chat.postMessage", "not_in_channel")
    view_id = bot.command(name="cmd")
    bot.submit(view_id, values())
    answer = bot.slack.wait_for("response_url")[0]
    assert answer.body["response_type"] == "in_channel"
    assert "山田様" in json.dumps(answer.body["blocks"], ensure_ascii=False)
    assert len(holds(bot)) == 1
    # That answer cannot be redrawn: the jobs are asked to post the card in the sales channel.
    bot.settle()
    (row,) = bot.engine.notices(bot.venue.id)
    assert (row.kind, row.hold_id, row.payload["event"]) == ("card", holds(bot)[0].id, "requested")
    assert bot.enqueued == [bot.venue.id]
    assert bot.engine.card(bot.venue.id, holds(bot)[0].id) is None


def test_a_card_posted_where_hold_was_typed_is_remembered_and_asks_the_jobs_nothing(
    bot: Harness,
) -> None:
    view_id = bot.command()
    bot.submit(view_id, values())
    post = bot.slack.wait_for("chat.postMessage")[0]
    bot.settle()
    spot = bot.engine.card(bot.venue.id, holds(bot)[0].id)
    assert spot is not None
    assert (spot.channel, spot.ts) == (post.response["channel"], post.response["ts"])
    assert bot.engine.notices(bot.venue.id) == [] and bot.enqueued == []
