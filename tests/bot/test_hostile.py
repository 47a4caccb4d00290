"""Hostile and odd input, one test per defect found by trying the bot as an attacker and as a
clumsy user: nothing unverified gets through, nothing malformed is a 500, realistic input gets
its specific answer. All through the real HTTP endpoint, signed (or not) as Slack signs."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from bot import ids
from bot.web import Server, build_wsgi
from core.engine import HoldEngine
from core.model import Status
from core.results import RequestAnswer
from tests.bot.conftest import SECRET, Harness, unlinked_app, values
from tests.bot.releasing import open_release, release
from tests.support import slack_requests as sr
from tests.support.factories import MANAGER, request
from tests.support.slack_standin import SlackStandin

ERROR_ID = "エラーID"


def everything_sent(slack: SlackStandin) -> str:
    return json.dumps([c.body for c in slack.calls], ensure_ascii=False)


def parsed_texts(sent: Any, *, top: bool = True) -> list[str]:
    """The texts Slack parses for mentions in what was sent: a message's fallback ``text``
    and every mrkdwn text object (plain_text is shown as it is)."""
    found: list[str] = []
    if isinstance(sent, dict):
        if (top or sent.get("type") == "mrkdwn") and isinstance(sent.get("text"), str):
            found.append(sent["text"])
        for value in sent.values():
            found += parsed_texts(value, top=False)
    elif isinstance(sent, list):
        for value in sent:
            found += parsed_texts(value, top=False)
    return found


def block(view: dict[str, Any], block_id: str) -> dict[str, Any]:
    return next(b for b in view["blocks"] if b.get("block_id") == block_id)


# -- 1. an unverified request causes nothing -------------------------------------------------
@pytest.mark.parametrize("timestamp", ["abc", "", "1e9", "¹²³", "-1", " 1700000000", "0x10", None])
def test_an_unverified_click_with_an_odd_timestamp_is_401_and_causes_nothing(
    bot: Harness, caplog: pytest.LogCaptureFixture, timestamp: str | None
) -> None:
    hold = bot.engine.request(bot.venue.id, request(salesperson=sr.USER_ID), now=bot.clock[0])
    assert isinstance(hold, RequestAnswer)
    before = bot.fingerprint()
    # A click on Release whose response_url points wherever the sender likes (here: at the
    # stand-in, so that any post to it would be seen).
    body = sr.block_actions(
        ids.RELEASE, str(hold.hold.id), response_url=bot.slack.response_url("attacker")
    )
    forged = {"X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": "v0=" + "0" * 64}
    status, _, answer = bot.post(body, headers=forged)

    assert status == 401 and json.loads(answer) == {"error": "invalid_request"}
    time.sleep(0.3)  # anything the bot would do after an ack has had its chance
    assert bot.slack.calls == []  # no users.info, no post to the response_url
    assert bot.fingerprint() == before
    assert bot.engine.hold(bot.venue.id, hold.hold.id).status is Status.TENTATIVE  # type: ignore[union-attr]
    assert [r.__dict__["reason"] for r in caplog.records if r.getMessage() == "web.unverified"]


def test_a_request_signed_over_another_body_is_401(bot: Harness) -> None:
    signed = sr.sign(sr.slash_command(text="help"), SECRET)
    tampered = sr.slash_command(text="cancel 1", user_id=MANAGER)
    status, _, _ = bot.post(
        tampered,
        headers={
            "X-Slack-Request-Timestamp": signed["X-Slack-Request-Timestamp"],
            "X-Slack-Signature": signed["X-Slack-Signature"],
        },
    )
    assert status == 401
    assert bot.slack.calls == []


# -- 2. malformed bodies are 4xx, never 500 --------------------------------------------------
def _changed(body: bytes, change: dict[str, Any]) -> bytes:
    payload = sr.payload_of(body)
    payload.update(change)
    if body.lstrip().startswith(b"{"):
        return json.dumps(payload).encode()
    return sr.interaction_body(payload)


def _home_opened_by(user: object) -> bytes:
    body = json.loads(sr.app_home_opened_event())
    body["event"]["user"] = user
    return json.dumps(body).encode()


MALFORMED: dict[str, tuple[bytes, str]] = {
    "payload-not-json": (b"payload=%7Bnot-json", sr.FORM),
    "payload-null": (b"payload=null", sr.FORM),
    "payload-a-list": (b"payload=%5B1%2C2%5D", sr.FORM),
    "json-a-list": (b"[]", sr.JSON),
    "not-utf8-form": (b"payload=\xff\xfe", sr.FORM),
    "not-utf8-escaped": (b"payload=%FF%FE", sr.FORM),
    "not-utf8-json": (b'{"type": "\xff"}', sr.JSON),
    "event-a-number": (b'{"type":"event_callback","event":5}', sr.JSON),
    "view-null": (_changed(sr.view_submission(values()), {"view": None}), sr.FORM),
    "actions-empty": (_changed(sr.block_actions(), {"actions": []}), sr.FORM),
    "home-user-42": (_home_opened_by(42), sr.JSON),
    "user-not-an-id": (_changed(sr.block_actions(), {"user": {"id": "<!channel>"}}), sr.FORM),
    "payload-and-more": (sr.interaction_body({"type": "x"}) + b"&command=%2Fhold", sr.FORM),
    "deep-json": (b"[" * 100_000 + b"]" * 100_000, sr.JSON),
    "nan": (b'{"type":"url_verification","challenge":NaN}', sr.JSON),
    "empty": (b"", sr.FORM),
    "unknown-type": (b'{"type":"shortcut","user":{"id":"U1"}}', sr.JSON),
    "not-a-form-or-json": (b"command=/hold", "text/plain"),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_malformed_body_is_401_unsigned_and_400_signed_never_500(
    bot: Harness, caplog: pytest.LogCaptureFixture, name: str
) -> None:
    raw, content_type = MALFORMED[name]
    before = bot.fingerprint()
    unsigned, _, _ = bot.post(raw, content_type=content_type, signature="")
    signed, _, answer = bot.post(raw, content_type=content_type)

    assert (unsigned, signed) == (401, 400)
    assert json.loads(answer) == {"error": "malformed_request"}
    time.sleep(0.2)
    assert bot.slack.calls == []
    assert bot.fingerprint() == before
    malformed = [r for r in caplog.records if r.getMessage() == "web.malformed"]
    assert len(malformed) == 1 and malformed[0].__dict__["where"]


def test_a_body_larger_than_any_slack_sends_is_refused_unread(bot: Harness) -> None:
    status, _, _ = bot.post(b"text=" + b"x" * (5 * 1024 * 1024))
    assert status == 413
    assert bot.slack.calls == []


# -- 3. the word "payload" does not silence /hold --------------------------------------------
@pytest.mark.parametrize(
    ("text", "channel", "customer"),
    [
        ("鳳凰 9/28 11:00〜 披露宴 payload", "sales", "payload"),
        ("鳳凰 9/28 11:00-15:00 婚礼 山田様", "payload-team", "山田様"),
    ],
    ids=["in-the-text", "in-the-channel-name"],
)
def test_the_word_payload_in_a_hold_line_still_opens_the_form(
    bot: Harness, text: str, channel: str, customer: str
) -> None:
    body = sr.slash_command(text=text, channel_name=channel)
    status, _, answer = bot.post(body)
    assert (status, answer) == (200, "")
    bot.slack.wait_for("views.open")
    view = bot.slack.wait_for("views.update")[0].body["view"]
    assert block(view, ids.ROOM)["element"]["initial_option"]["value"] == "hoo"
    assert block(view, ids.DATE)["element"]["initial_date"] == "2027-09-28"
    assert block(view, ids.CUSTOMER)["element"]["initial_value"] == customer


# -- 4. a refusal after the ack is an answer, not a 404 after 3 s ----------------------------
@pytest.mark.parametrize("before_response", [False, True], ids=["ack-first", "process-first"])
def test_a_workspace_that_is_not_linked_gets_200_and_is_told_every_time(
    engine: HoldEngine, slack: SlackStandin, before_response: bool
) -> None:
    app = unlinked_app(engine, slack, process_before_response=before_response)
    tries = 6
    with Server(build_wsgi(app, lambda: (True, {}))) as server:
        url = f"{server.url}/slack/events"
        for i in range(tries):
            command = sr.slash_command(text="鳳凰", response_url=slack.response_url(f"cmd{i}"))
            button = sr.block_actions(
                ids.RELEASE, "1", response_url=slack.response_url(f"click{i}")
            )
            assert sr.post(url, command, SECRET)[:1] == (200,)
            assert sr.post(url, button, SECRET)[:1] == (200,)
        told = slack.wait_for("response_url", 2 * tries)
        assert app.after.drain()
    assert all("会場に結び付けられていません" in c.body["text"] for c in told)
    assert ERROR_ID not in everything_sent(slack)
    assert slack.calls_to("views.open") == []


# -- 5. realistic input that crashed gets its specific refusal -------------------------------
def manager_typed(bot: Harness, text: str) -> str:
    """What a manager typing ``/hold text`` is told (by the command's response_url)."""
    body = sr.slash_command(text=text, user_id=MANAGER, response_url=bot.slack.response_url("c"))
    assert bot.post(body)[0] == 200
    told = str(bot.slack.wait_for("response_url")[0].body["text"])
    assert ERROR_ID not in everything_sent(bot.slack)
    return told


@pytest.mark.parametrize("argument", ["²", "¹²", "12a", "-3", "#", "1.5"])
def test_cancel_with_something_that_is_not_a_number_explains_the_usage(
    bot: Harness, argument: str
) -> None:
    assert "`/hold cancel 番号`" in manager_typed(bot, f"cancel {argument}")


@pytest.mark.parametrize(
    "number", ["9223372036854775808", "0", "9" * 60, "９２２３３７２０３６８５４７７５８０８"]
)
def test_cancel_of_a_number_beyond_any_hold_id_says_there_is_no_such_hold(
    bot: Harness, number: str
) -> None:
    assert "はこの会場にありません" in manager_typed(bot, f"cancel #{number}")
    assert bot.slack.calls_to("views.open") == []


def test_cancel_accepts_full_width_digits(bot: Harness) -> None:
    first = bot.engine.request(bot.venue.id, request(customer="本予約様"), now=bot.clock[0])
    assert isinstance(first, RequestAnswer)
    assert bot.engine.confirm(bot.venue.id, first.hold.id, actor=MANAGER, now=bot.clock[0]).ok
    wide = str(first.hold.id).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    assert bot.post(sr.slash_command(text=f"取消 ＃{wide}", user_id=MANAGER))[0] == 200
    dialog = bot.slack.wait_for("views.open")[0]
    assert dialog.body["view"]["callback_id"] == ids.CANCEL_MODAL


def test_a_button_naming_a_hold_beyond_the_id_column_is_told_no_such_hold(
    bot: Harness,
) -> None:
    for value in ("9223372036854775808", "²", "1e3", "-1"):
        body = sr.block_actions(ids.RELEASE, value, response_url=bot.slack.response_url(value))
        assert bot.post(body)[0] == 200
    told = bot.slack.wait_for("response_url", 4)
    assert all("はこの会場にありません" in c.body["text"] for c in told)
    assert ERROR_ID not in everything_sent(bot.slack)


def test_a_modal_hold_on_the_last_day_there_is_past_midnight_is_beyond_the_horizon(
    bot: Harness,
) -> None:
    view_id = bot.command()
    status, answer = bot.submit(view_id, values(day="9999-12-31", start="22:00", end="02:00"))
    assert status == 200 and answer["response_action"] == "errors"
    assert "先すぎます" in answer["errors"][ids.DATE]
    assert bot.engine.holds(bot.venue.id) == []


def test_a_quick_form_on_the_last_day_there_is_shows_beyond_the_horizon_in_its_preview(
    bot: Harness,
) -> None:
    view_id = bot.command("鳳凰 9999/12/31 22:00-02:00 婚礼 山田様")
    assert "先すぎます" in bot.preview_text(view_id)
    assert ERROR_ID not in everything_sent(bot.slack)


def test_a_customer_with_a_nul_is_refused_on_its_field_and_a_quick_form_drops_it(
    bot: Harness,
) -> None:
    view_id = bot.command("鳳凰 3/10 11:00-15:00 婚礼 山田\x00様")
    assert block(bot.slack.view(view_id), ids.CUSTOMER)["element"]["initial_value"] == "山田様"
    status, answer = bot.submit(view_id, values(customer="山田\x00様", note="a\x07b"))
    assert status == 200 and answer["response_action"] == "errors"
    assert set(answer["errors"]) == {ids.CUSTOMER, ids.NOTE}
    assert "制御文字" in answer["errors"][ids.CUSTOMER]
    assert bot.engine.holds(bot.venue.id) == []
    assert ERROR_ID not in everything_sent(bot.slack)


def test_text_that_is_not_unicode_is_malformed(bot: Harness) -> None:
    body = sr.view_submission(values(customer="山田様"), callback_id=ids.HOLD_MODAL)
    lone = body.replace(b"%E5%B1%B1%E7%94%B0%E6%A7%98", b"%5Cud800")  # JSON "\ud800"
    assert lone != body
    assert bot.post(lone)[0] == 400
    assert bot.engine.holds(bot.venue.id) == []


# -- 6. a time is HH:MM with MM < 60 ---------------------------------------------------------
@pytest.mark.parametrize("start", ["11:60", "24:00", "11:5", "１１:００", "11:00:00", "7"])
def test_a_time_no_picker_sends_is_refused_on_its_field(bot: Harness, start: str) -> None:
    view_id = bot.command()
    before = bot.fingerprint()
    status, answer = bot.submit(view_id, values(start=start))
    assert status == 200 and answer["response_action"] == "errors"
    assert list(answer["errors"]) == [ids.START]
    assert "0:00〜23:59" in answer["errors"][ids.START]
    assert bot.fingerprint() == before


def test_a_date_that_does_not_exist_and_a_salesperson_that_is_not_a_user_are_refused(
    bot: Harness,
) -> None:
    view_id = bot.command()
    status, answer = bot.submit(view_id, values(day="2027-02-30", salesperson="U1> <!channel"))
    assert status == 200 and answer["response_action"] == "errors"
    assert set(answer["errors"]) == {ids.DATE, ids.SALESPERSON}
    assert bot.engine.holds(bot.venue.id) == []


# -- 7. a customer's name is escaped everywhere Slack parses it ------------------------------
def test_a_customer_named_channel_notifies_no_one_in_the_card_its_fallback_or_home(
    bot: Harness,
) -> None:
    view_id = bot.command()
    bot.submit(view_id, values(customer="<!channel> 山田様 & <@U0MANAGER1>"))
    post = bot.slack.wait_for("chat.postMessage")[0]
    bot.slack.wait_for("views.publish")
    assert "&lt;!channel&gt; 山田様 &amp; &lt;@U0MANAGER1&gt;" in post.body["text"]
    (hold,) = bot.engine.holds(bot.venue.id)  # type: ignore[misc]
    release(bot, hold.id, channel=post.response["channel"], ts=post.response["ts"])
    bot.settle()
    parsed = [t for c in bot.slack.calls for t in parsed_texts(c.body)]
    assert not [t for t in parsed if "<!channel>" in t or "<@U0MANAGER1>" in t]
    shown = [t for t in parsed if "&lt;!channel&gt; 山田様 &amp; &lt;@U0MANAGER1&gt;" in t]
    assert len(shown) >= 5  # post: text and card; update: text and card; App Home


def test_a_refusal_naming_a_hold_escapes_its_customer(bot: Harness) -> None:
    held = bot.engine.request(
        bot.venue.id, request(customer="<!here> 様", salesperson="U0SALES001"), now=bot.clock[0]
    )
    assert isinstance(held, RequestAnswer)
    body = sr.block_actions(
        ids.RELEASE,
        str(held.hold.id),
        user_id="U0STRANGER",
        response_url=bot.slack.response_url("r"),
    )
    bot.post(body)
    told = bot.slack.wait_for("response_url")[0].body["text"]
    assert "&lt;!here&gt; 様" in told and "<@U0SALES001>" in told  # the mention still works
    assert "<!here>" not in told


# -- 8. the release dialog names the customer escaped ----------------------------------------
def test_the_release_dialog_names_the_customer_escaped_and_the_button_has_no_slack_confirm(
    bot: Harness,
) -> None:
    view_id = bot.command()
    bot.submit(view_id, values(customer="A & B <様>"))
    post = bot.slack.wait_for("chat.postMessage")[0]
    assert post.ok
    (actions,) = [b for b in post.body["blocks"] if b["type"] == "actions"]
    button = next(e for e in actions["elements"] if e["action_id"] == ids.RELEASE)
    assert "confirm" not in button  # the dialog asks (and asks why) instead
    (hold,) = bot.engine.holds(bot.venue.id)  # type: ignore[misc]
    dialog = open_release(bot, hold.id, channel=post.response["channel"], ts=post.response["ts"])
    said = json.dumps(dialog["blocks"], ensure_ascii=False)
    assert "A &amp; B &lt;様&gt;" in said and "A & B <様>" not in said


# -- Socket Mode reads the same shapes -------------------------------------------------------
def test_a_malformed_socket_mode_payload_is_logged_and_not_dispatched(
    bot: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    from slack_sdk.socket_mode.request import SocketModeRequest

    from bot.socket_mode import CheckedSocketModeHandler

    assert bot.app is not None
    handler = CheckedSocketModeHandler(bot.app, "xapp-1-test")  # not connected: nothing sent
    click_payload = {**sr.payload_of(sr.block_actions()), "actions": []}
    event_payload = {**json.loads(sr.app_home_opened_event()), "event": 5}
    for payload in (click_payload, event_payload):
        request = SocketModeRequest(type="interactive", envelope_id="e1", payload=payload)
        handler.handle(handler.client, request)
    logged = [r.__dict__["where"] for r in caplog.records if r.getMessage() == "socket.malformed"]
    assert logged == ["actions", "event"]
    time.sleep(0.2)
    assert bot.slack.calls == []
