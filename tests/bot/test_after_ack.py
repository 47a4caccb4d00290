"""Work handed over after an ack yields to the requests still being answered (bot.after_ack)."""

from __future__ import annotations

import threading
from typing import Any

from slack_sdk import WebClient

from bot.after_ack import AfterAck

CLIENT = WebClient(token="xoxb-test", base_url="http://127.0.0.1:9/")


def after_ack(errors: list[Exception], patience: float = 5.0) -> AfterAck:
    def on_error(err: Exception, *_: Any) -> None:
        errors.append(err)

    return AfterAck(on_error, threads=2, patience=patience)


def test_work_waits_until_no_request_is_being_answered() -> None:
    errors: list[Exception] = []
    after, ran = after_ack(errors), threading.Event()
    with after.answering(), after.answering():  # two requests in flight
        after({}, CLIENT, ran.set)
        assert not ran.wait(0.3)
    assert after.drain(timeout=5) and ran.is_set() and errors == []


def test_a_load_that_never_pauses_delays_work_by_patience_at_most() -> None:
    errors: list[Exception] = []
    after, ran = after_ack(errors, patience=0.2), threading.Event()
    with after.answering():
        after({}, CLIENT, ran.set)
        assert ran.wait(3)  # still answering, yet done


def test_failing_work_still_reaches_the_error_handler_once_quiet() -> None:
    errors: list[Exception] = []
    after = after_ack(errors)

    def fail() -> None:
        raise RuntimeError("slack went away")

    with after.answering():
        after({}, CLIENT, fail)
    assert after.drain(timeout=5)
    assert [str(e) for e in errors] == ["slack went away"]
