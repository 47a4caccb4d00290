"""The Slack stand-in's file uploads answer slack_sdk's ``files_upload_v2`` as Slack does:
the upload URL, the bytes, the share, and each refusal Slack documents."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from tests.support.slack_standin import SlackStandin
from tests.test_slack_standin import client, error_of, slack

__all__ = ["client", "slack"]  # the fixtures, used by name

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40


def test_files_upload_v2_lands_the_bytes_and_shares_them_in_the_dm(
    slack: SlackStandin, client: WebClient
) -> None:
    answer = client.files_upload_v2(
        channel="D0SALES001", file=PNG, filename="diary.png", title="台帳 5/15",
        initial_comment="台帳 5/15: 押さえ 3 件", alt_txt="台帳",
    )  # fmt: skip
    assert answer["ok"] and answer["file"]["title"] == "台帳 5/15"
    asked = slack.last("files.getUploadURLExternal").body
    assert (asked["filename"], int(asked["length"])) == ("diary.png", len(PNG))
    (upload,) = slack.uploads()
    assert upload.data == PNG and upload.shares and upload.shares[0][0] == "D0SALES001"
    (message,) = slack.messages("D0SALES001")
    assert message["text"] == "台帳 5/15: 押さえ 3 件"
    assert message["files"][0]["id"] == answer["file"]["id"]
    assert slack.last("upload").status == 200


def test_refusals_as_slack_documents_them(slack: SlackStandin, client: WebClient) -> None:
    no_length = error_of(lambda: client.api_call("files.getUploadURLExternal",
                                                 params={"filename": "x.png"}))  # fmt: skip
    assert no_length.response["error"] == "invalid_arguments"
    long_alt = error_of(
        lambda: client.files_getUploadURLExternal(filename="x.png", length=3, alt_txt="a" * 1001)
    )
    assert long_alt.response["error"] == "alt_txt_too_large"
    nowhere = error_of(lambda: client.files_completeUploadExternal(files=[{"id": "F0NONE"}]))
    assert nowhere.response["error"] == "file_not_found"
    issued = client.files_getUploadURLExternal(filename="x.png", length=3)
    never_sent = error_of(
        lambda: client.files_completeUploadExternal(files=[{"id": issued["file_id"]}])
    )
    assert never_sent.response["error"] == "file_not_found"  # its bytes never arrived
    url = issued["upload_url"]
    posted = urllib.request.urlopen(urllib.request.Request(url, data=b"abc", method="POST"))  # noqa: S310
    assert (posted.status, posted.read()) == (200, b"OK - 3")
    with pytest.raises(urllib.error.HTTPError) as again:
        urllib.request.urlopen(urllib.request.Request(url, data=b"abc", method="POST"))  # noqa: S310
    assert again.value.code == 404  # an upload URL is used once
    bad_files = error_of(lambda: client.api_call("files.completeUploadExternal",
                                                 params={"files": "not json"}))  # fmt: skip
    assert bad_files.response["error"] == "invalid_arguments"


def test_an_unknown_channel_and_a_failed_upload_are_refused(client: WebClient) -> None:
    with SlackStandin(channels={"C0SALES"}) as strict:
        closed = WebClient(token="xoxb-test", base_url=strict.base_url, retry_handlers=[])
        refused = error_of(lambda: closed.files_upload_v2(channel="C0OTHER", file=PNG,
                                                          filename="d.png"))  # fmt: skip
        assert (
            isinstance(refused, SlackApiError) and refused.response["error"] == "channel_not_found"
        )
        strict.fail_with_status("upload", 500)
        with pytest.raises(urllib.error.HTTPError):  # what slack_sdk lets through
            closed.files_upload_v2(channel="C0SALES", file=PNG, filename="d.png")
        assert strict.messages("C0SALES") == []
    bad_token = WebClient(token="xoxb-wrong", base_url=client.base_url, retry_handlers=[])
    assert (
        error_of(lambda: bad_token.files_getUploadURLExternal(filename="x", length=1)).response[
            "error"
        ]
        == "invalid_auth"
    )
