"""The Slack Web API stand-in and the signed-request helpers, driven by the real slack_sdk."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from slack_bolt import App, BoltRequest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.signature import SignatureVerifier
from slack_sdk.webhook import WebhookClient

from tests.support import slack_requests as sr
from tests.support.factories import HandClock
from tests.support.slack_standin import SlackStandin
from tests.support.slack_workspace import BOT_USER_ID, TEAM_ID

SECRET = "signing-secret"
MODAL = {
    "type": "modal",
    "callback_id": "hold",
    "private_metadata": '{"venue": 1}',
    "title": {"type": "plain_text", "text": "仮押さえ"},
    "submit": {"type": "plain_text", "text": "送信"},
    "blocks": [
        {
            "type": "input",
            "block_id": "room",
            "label": {"type": "plain_text", "text": "部屋"},
            "element": {"type": "plain_text_input", "action_id": "value"},
        }
    ],
}
BLOCKS = [{"type": "section", "block_id": "s", "text": {"type": "mrkdwn", "text": "*1番手*"}}]


@pytest.fixture
def slack() -> Iterator[SlackStandin]:
    with SlackStandin() as standin:
        yield standin
        assert standin.errors == []


@pytest.fixture
def client(slack: SlackStandin) -> WebClient:
    return WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])


def error_of(call: Any) -> SlackApiError:
    with pytest.raises(SlackApiError) as caught:
        call()
    return caught.value


# ---------------------------------------------------------------- messages


def test_post_message_returns_ts_and_records_blocks(slack: SlackStandin, client: WebClient) -> None:
    first = client.chat_postMessage(channel="C1", text="hi", blocks=BLOCKS)
    second = client.chat_postMessage(channel="C1", text="again")

    assert first["ok"] and first["channel"] == "C1"
    assert first["message"]["blocks"] == BLOCKS and first["message"]["user"] == BOT_USER_ID
    assert float(second["ts"]) > float(first["ts"])
    call = slack.last("chat.postMessage")
    assert call.body["text"] == "again" and call.ok
    assert call.header("authorization") == "Bearer xoxb-test"
    assert slack.calls_to("chat.postMessage")[0].body["blocks"] == BLOCKS
    assert [m["text"] for m in slack.messages("C1")] == ["hi", "again"]


def test_form_bodies_have_their_json_fields_parsed(slack: SlackStandin, client: WebClient) -> None:
    params = {"channel": "C1", "text": "x", "blocks": json.dumps(BLOCKS)}
    client.api_call("chat.postMessage", params=params)

    call = slack.last("chat.postMessage")
    assert call.header("content-type") == "application/x-www-form-urlencoded"
    assert call.body["blocks"] == BLOCKS


def test_a_post_to_a_user_lands_in_the_dm(slack: SlackStandin, client: WebClient) -> None:
    posted = client.chat_postMessage(channel="U0SALES01", text="promoted")
    opened = client.conversations_open(users="U0SALES01")

    assert posted["channel"] == opened["channel"]["id"] == slack.dm_channel("U0SALES01")
    assert posted["channel"].startswith("D")
    updated = client.chat_update(channel=posted["channel"], ts=posted["ts"], text="confirmed")
    assert updated["message"]["text"] == "confirmed"
    refused = error_of(lambda: client.chat_update(channel="U0SALES01", ts=posted["ts"], text="x"))
    assert refused.response["error"] == "channel_not_found"


def test_update_ephemeral_and_delete(slack: SlackStandin, client: WebClient) -> None:
    posted = client.chat_postMessage(channel="C1", text="hold", blocks=BLOCKS)
    client.chat_update(channel="C1", ts=posted["ts"], text="hold (updated)")
    assert slack.message("C1", posted["ts"])["blocks"] == BLOCKS  # kept when not resent

    ephemeral = client.chat_postEphemeral(channel="C1", user="U1", text="only you")
    assert ephemeral["message_ts"]
    client.chat_delete(channel="C1", ts=posted["ts"])
    assert slack.messages("C1") == []
    gone = error_of(lambda: client.chat_delete(channel="C1", ts=posted["ts"]))
    assert gone.response["error"] == "message_not_found"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ({"text": "no channel"}, "channel_not_found"),
        ({"channel": "C1"}, "no_text"),
        ({"channel": "C1", "blocks": {"type": "section"}}, "invalid_blocks_format"),
        ({"channel": "C1", "blocks": [{"text": "untyped"}]}, "invalid_blocks"),
        ({"channel": "C1", "thread_ts": "1.000001", "text": "x"}, "thread_not_found"),
    ],
)
def test_post_message_refusals(client: WebClient, args: dict[str, Any], error: str) -> None:
    assert (
        error_of(lambda: client.api_call("chat.postMessage", json=args)).response["error"] == error
    )


def test_unknown_method(client: WebClient) -> None:
    assert error_of(lambda: client.api_call("holds.magic")).response["error"] == "unknown_method"


# --------------------------------------------------------------------- auth


def test_tokens_are_checked(slack: SlackStandin) -> None:
    wrong = WebClient(token="xoxb-wrong", base_url=slack.base_url)
    none = WebClient(base_url=slack.base_url)

    assert error_of(lambda: wrong.chat_postMessage(channel="C1", text="x")).response["error"] == (
        "invalid_auth"
    )
    assert error_of(none.auth_test).response["error"] == "not_authed"
    assert [c.status for c in slack.calls] == [200, 200]
    assert WebClient(token="xoxb-test", base_url=slack.base_url).auth_test()["team_id"] == TEAM_ID


# ------------------------------------------------------------------ faults


def test_fail_next_surfaces_the_error_then_recovers(slack: SlackStandin, client: WebClient) -> None:
    slack.fail_next("chat.postMessage", "not_in_channel", times=2)

    for _ in range(2):
        assert error_of(lambda: client.chat_postMessage(channel="C1", text="x")).response[
            "error"
        ] == ("not_in_channel")
    assert client.chat_postMessage(channel="C1", text="x")["ok"]
    assert [c.error for c in slack.calls_to("chat.postMessage")] == [
        "not_in_channel",
        "not_in_channel",
        None,
    ]


def test_rate_limit_next_answers_429_with_retry_after(
    slack: SlackStandin, client: WebClient
) -> None:
    slack.rate_limit_next("chat.postMessage", retry_after=7)

    limited = error_of(lambda: client.chat_postMessage(channel="C1", text="x"))
    assert limited.response.status_code == 429
    assert limited.response.headers["Retry-After"] == "7"
    assert limited.response["error"] == "ratelimited"
    assert slack.last("chat.postMessage").status == 429


def test_server_errors_and_delays(slack: SlackStandin) -> None:
    slack.fail_with_status("users.info", 503)
    slack.delay_next("auth.test", 0.5)
    impatient = WebClient(
        token="xoxb-test", base_url=slack.base_url, timeout=0.1, retry_handlers=[]
    )

    assert error_of(lambda: impatient.users_info(user="U1")).response.status_code == 503
    with pytest.raises(TimeoutError):
        impatient.auth_test()
    assert impatient.auth_test()["ok"]  # the delay was used up


def test_per_channel_rate_limit() -> None:
    clock = HandClock()
    with SlackStandin(per_channel_rate=1.0, per_channel_burst=2, clock=clock) as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url, retry_handlers=[])
        statuses = []
        for _ in range(4):
            try:
                client.chat_postMessage(channel="C1", text="x")
                statuses.append(200)
            except SlackApiError as e:
                statuses.append(e.response.status_code)
                assert e.response.headers["Retry-After"] == "1"
        assert statuses == [200, 200, 429, 429]

        for n in range(4):
            client.chat_postMessage(channel=f"C{n + 10}", text="x")  # other channels: fine
        clock.now += 1.0
        assert client.chat_postMessage(channel="C1", text="x")["ok"]  # refilled


# ------------------------------------------------------------------- views


def test_views_open_update_and_hash_conflict(slack: SlackStandin, client: WebClient) -> None:
    opened = client.views_open(trigger_id=sr.new_trigger_id(), view=MODAL)["view"]
    assert opened["id"].startswith("V") and opened["hash"]
    assert opened["callback_id"] == "hold" and opened["private_metadata"] == '{"venue": 1}'
    assert opened["blocks"] == MODAL["blocks"] and opened["root_view_id"] == opened["id"]

    updated = client.views_update(view_id=opened["id"], hash=opened["hash"], view=MODAL)["view"]
    assert updated["id"] == opened["id"] and updated["hash"] != opened["hash"]
    stale = error_of(
        lambda: client.views_update(view_id=opened["id"], hash=opened["hash"], view=MODAL)
    )
    assert stale.response["error"] == "hash_conflict"
    assert slack.view(opened["id"])["hash"] == updated["hash"]


def test_views_are_validated(client: WebClient) -> None:
    no_submit = {k: v for k, v in MODAL.items() if k != "submit"}
    long_title = {**MODAL, "title": {"type": "plain_text", "text": "x" * 25}}

    for view in (no_submit, long_title, {**MODAL, "type": "home"}):
        refused = error_of(lambda v=view: client.views_open(trigger_id="1.2.3", view=v))
        assert refused.response["error"] == "invalid_arguments"
        assert refused.response["response_metadata"]["messages"]
    empty = error_of(lambda: client.views_open(trigger_id="", view=MODAL))
    assert empty.response["error"] == "invalid_trigger_id"
    missing = error_of(lambda: client.views_update(view_id="V404", view=MODAL))
    assert missing.response["error"] == "not_found"


def test_strict_triggers_are_single_use_and_expire() -> None:
    clock = HandClock()
    with SlackStandin(strict_triggers=True, clock=clock) as slack:
        client = WebClient(token="xoxb-test", base_url=slack.base_url)
        trigger = slack.issue_trigger()
        root = client.views_open(trigger_id=trigger, view=MODAL)["view"]

        assert error_of(lambda: client.views_open(trigger_id=trigger, view=MODAL)).response[
            "error"
        ] == ("exchanged_trigger_id")
        assert error_of(lambda: client.views_open(trigger_id="1.2.x", view=MODAL)).response[
            "error"
        ] == ("invalid_trigger_id")
        pushed = client.views_push(trigger_id=slack.issue_trigger(view_id=root["id"]), view=MODAL)
        assert pushed["view"]["previous_view_id"] == root["id"]
        assert pushed["view"]["root_view_id"] == root["id"]
        late = slack.issue_trigger()
        clock.now += 3.5
        assert error_of(lambda: client.views_open(trigger_id=late, view=MODAL)).response[
            "error"
        ] == ("expired_trigger_id")


def test_views_publish_and_external_id(slack: SlackStandin, client: WebClient) -> None:
    home = {"type": "home", "blocks": BLOCKS}
    published = client.views_publish(user_id="U1", view=home)["view"]
    assert slack.home("U1")["id"] == published["id"] and slack.home("U2") is None
    republished = client.views_publish(user_id="U1", view=home, hash=published["hash"])["view"]
    assert republished["id"] == published["id"]

    client.views_open(trigger_id="1.2.3", view={**MODAL, "external_id": "hold-42"})
    updated = client.views_update(external_id="hold-42", view={**MODAL, "external_id": "hold-42"})
    assert updated["view"]["external_id"] == "hold-42"


# ------------------------------------------------------------ users, urls


def test_users_info_locale_needs_include_locale(slack: SlackStandin, client: WebClient) -> None:
    slack.set_user("U1", locale="ja-JP", tz="Asia/Tokyo", name="sato")

    user = client.users_info(user="U1", include_locale=True)["user"]
    assert user["locale"] == "ja-JP" and user["tz"] == "Asia/Tokyo"
    assert user["tz_offset"] == 9 * 3600 and user["name"] == "sato"
    assert "locale" not in client.users_info(user="U1")["user"]  # as Slack does
    assert error_of(lambda: client.users_info(user="U404")).response["error"] == "user_not_found"


def test_response_url_records_posts(slack: SlackStandin, client: WebClient) -> None:
    posted = client.chat_postMessage(channel="C1", text="pending")
    url = slack.response_url("click", channel="C1", ts=posted["ts"])

    answer = WebhookClient(url).send(text="confirmed", replace_original=True)
    assert answer.status_code == 200
    assert slack.responses("click")[0].body == {"text": "confirmed", "replace_original": True}
    assert slack.message("C1", posted["ts"])["text"] == "confirmed"
    assert WebhookClient(slack.response_url("other")).send(text="").status_code == 400
    slack.fail_with_status("response_url", 500)
    assert WebhookClient(url).send(text="again").status_code == 500


def test_custom_handlers(slack: SlackStandin, client: WebClient) -> None:
    slack.on("conversations.info", lambda body: {"ok": True, "channel": {"id": body["channel"]}})

    assert client.conversations_info(channel="C9")["channel"]["id"] == "C9"


def test_wait_for_blocks_until_calls_arrive(slack: SlackStandin, client: WebClient) -> None:
    def later() -> None:
        time.sleep(0.05)
        client.chat_postMessage(channel="C1", text="one")
        client.chat_postMessage(channel="C2", text="two")

    threading.Thread(target=later).start()
    found = slack.wait_for("chat.postMessage", predicate=lambda c: c.body["channel"] == "C2")
    assert found[0].body["text"] == "two"
    with pytest.raises(AssertionError, match=r"views\.open"):
        slack.wait_for("views.open", timeout=0.05)
    slack.clear()
    assert slack.calls == []


# ----------------------------------------------------------------- signing


def test_sign_is_accepted_by_slack_sdk() -> None:
    body = sr.slash_command(text="鳳凰の間")
    headers = sr.sign(body, SECRET)

    verifier = SignatureVerifier(SECRET)
    assert verifier.is_valid_request(body, headers)
    assert headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert not SignatureVerifier("other").is_valid_request(body, headers)
    stale = sr.sign(body, SECRET, timestamp=int(time.time()) - 600)
    assert not verifier.is_valid_request(body, stale)
    assert sr.sign(sr.url_verification("c"), SECRET)["Content-Type"] == "application/json"


def bolt_app(slack: SlackStandin, seen: list[dict[str, Any]]) -> App:
    client = WebClient(token="xoxb-test", base_url=slack.base_url)
    app = App(client=client, signing_secret=SECRET)

    @app.command("/hold")
    def hold(ack: Any, body: dict[str, Any], client: WebClient) -> None:
        ack()
        seen.append(body)
        client.views_open(trigger_id=body["trigger_id"], view=MODAL)

    @app.action("confirm")
    def confirm(ack: Any, body: dict[str, Any]) -> None:
        ack()
        seen.append(body)

    @app.view("hold")
    def submitted(ack: Any, body: dict[str, Any]) -> None:
        ack()
        seen.append(body)

    @app.event("app_home_opened")
    def home(event: dict[str, Any], client: WebClient) -> None:
        client.views_publish(user_id=event["user"], view={"type": "home", "blocks": BLOCKS})

    return app


def test_payloads_reach_bolt_listeners(slack: SlackStandin) -> None:
    seen: list[dict[str, Any]] = []
    app = bolt_app(slack, seen)

    command = sr.slash_command(text="A1", trigger_id=slack.issue_trigger())
    assert app.dispatch(sr.bolt_request(command, SECRET)).status == 200
    view = slack.wait_for("views.open")[0].response["view"]
    values = {
        "room": {"value": sr.text_value("鳳凰の間")},
        "day": {"d": sr.date_value("2025-06-01")},
    }
    submission = sr.view_submission(values, view=view)
    assert app.dispatch(sr.bolt_request(submission, SECRET)).status == 200
    click = sr.block_actions("confirm", "hold:42", channel_id=slack.dm_channel("U0SALES01"))
    assert app.dispatch(sr.bolt_request(click, SECRET)).status == 200

    assert seen[0]["command"] == "/hold" and seen[0]["text"] == "A1"
    assert seen[1]["view"]["id"] == view["id"] and seen[1]["view"]["hash"] == view["hash"]
    assert seen[1]["view"]["state"]["values"]["room"]["value"]["value"] == "鳳凰の間"
    assert seen[2]["actions"][0]["value"] == "hold:42"
    assert seen[2]["container"]["channel_id"].startswith("D")
    assert sr.payload_of(click)["response_url"].startswith("https://hooks.slack.com/actions/")


def test_post_reaches_a_real_endpoint_and_bad_signatures_get_401(slack: SlackStandin) -> None:
    app = bolt_app(slack, [])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"])).decode()
            headers = {k.lower(): [v] for k, v in self.headers.items()}
            answer = app.dispatch(BoltRequest(body=body, headers=headers))
            self.send_response(answer.status)
            self.end_headers()
            self.wfile.write(answer.body.encode())

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/slack/events"
    try:
        challenge = sr.url_verification("xyz")
        assert sr.post(url, challenge, SECRET)[0] == 200
        assert "xyz" in sr.post(url, challenge, SECRET)[2]
        assert sr.post(url, challenge, SECRET, signature="v0=bad")[0] == 401
        assert sr.post(url, challenge, SECRET, timestamp=int(time.time()) - 600)[0] == 401
        home = sr.app_home_opened_event("U1")
        assert sr.post(url, home, SECRET)[0] == 200
        assert slack.wait_for("views.publish")[0].body["user_id"] == "U1"
    finally:
        server.shutdown()
        server.server_close()
