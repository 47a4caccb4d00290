"""Fuzzing the real HTTP endpoint with Slack's own payload shapes, mutated, signed or not.

Hypothesis draws a request built like Slack's (slash command form, view_submission,
block_actions from a message or a modal, block_suggestion, events), mutates some (a field
removed or given another JSON value, the bytes cut or garbled, another content type), and
signs it or not (unsigned, a wrong or stale signature, an odd timestamp header, tampered
after signing). Against the bot on waitress, the Web API stand-in and PostgreSQL, every
request must keep these:

- no 5xx, ever;
- anything not correctly signed is 401, with no Web API call (response_url posts included)
  and no database change;
- no traceback, exception name or source path in any answer or anything sent to Slack;
- no error logged (a realistic request that crashes logs one, with its error id);
- no database change for any request that is refused or cannot write (4xx, commands,
  previews, events), compared by table fingerprints (but the names cache: an App Home
  opened caches its viewer's Slack name, a courtesy for the terminal);
and afterwards a well-formed /hold still opens, previews and holds.

The bot runs with ``process_before_response`` so a listener's writes land before its answer,
and every example waits for the after-ack work: each example's effects are its own.
Bounded and derandomized for CI; ``OSAE_FUZZ_EXAMPLES=5000`` for a longer run, whose tally
prints with ``-s``.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import ids
from bot.metadata import Meta
from tests.bot.conftest import SECRET, STRANGER, Harness, values
from tests.support import slack_requests as sr
from tests.support.factories import DAY, MANAGER

EXAMPLES = int(os.environ.get("OSAE_FUZZ_EXAMPLES", "500"))
LEAKS = re.compile(
    r"Traceback|File \"|\.py\b|site-packages|/work/|\b[A-Z][A-Za-z]*(?:Error|Exception)\b"
)
TALLY: Counter[str] = Counter()

# -- what people type, and what they should not ----------------------------------------------
WORDS = [
    "鳳凰", "鳳凰の間", "桜", "sakura", "hoo-a", "チャペル", "3/10", "9/28", "2027/3/10",
    "9999/12/31", "0001/1/1", "2/30", "今日", "明日", "11:00-15:00", "11:00〜", "22:00-02:00",
    "18-26", "11:60", "11時半", "24:00", "25:61", "婚礼", "披露宴", "宴会", "banquet",
    "wedding", "山田様", "ABC Trading", "<!channel>", "<@U0MANAGER1>", "&amp;", "*bold*",
    "payload", "payload=1", "%7B", "list", "help", "cancel", "取消", "#1", "²", "¹²", "１２",
    "9223372036854775808", "-1", "0", "\u200b", "\x00", "\ud7ff", "𠮷", "\n",
]  # fmt: skip
ODD = [
    "", " ", "²", "¹²", "٣", "9223372036854775808", "-1", "1e3", "NaN", "null", "<!channel>",
    "&", "\x00", "11:60", "24:00", "2027-02-30", "9999-12-31", "0000-01-01", "x" * 300,
]  # fmt: skip
USERS = [sr.USER_ID, MANAGER, STRANGER, "U0ENGLISH1", "W0GRID0001", "U0NOBODY99"]
words = st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=8)), max_size=7).map(" ".join)
odd = st.one_of(st.sampled_from(ODD), st.text(max_size=12))


def mostly(usual: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Usually what Slack sends, one time in five something odd."""
    return st.one_of(usual, usual, usual, usual, odd)


rooms = mostly(st.sampled_from(["hoo", "hoo-a", "hoo-b", "sakura", "chapel", "nowhere"]))
days = mostly(st.sampled_from(["2027-03-10", "2027-03-11", "2027-09-28", "9999-12-31"]))
clocks = mostly(st.sampled_from(["11:00", "15:00", "22:00", "02:00", "00:00", "23:59"]))
kinds = mostly(st.sampled_from(["wedding", "banquet"]))
users = st.sampled_from(USERS)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | odd,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(odd, inner, max_size=3),
    max_leaves=6,
)


@dataclass(frozen=True)
class Sent:
    kind: str
    body: bytes
    content_type: str
    signing: str
    mutated: bool

    @property
    def verified(self) -> bool:
        return self.signing == "signed"


# -- Slack's shapes --------------------------------------------------------------------------
@st.composite
def slash_command(draw: st.DrawFn, harness: Harness) -> dict[str, Any]:
    channel = draw(st.sampled_from([sr.CHANNEL_NAME, "payload-team", "営業"]))
    body = sr.slash_command(
        text=draw(words),
        user_id=draw(users),
        channel_name=channel,
        response_url=harness.slack.response_url("fuzz"),
    )
    return sr.form_fields(body)


@st.composite
def own_hold(draw: st.DrawFn, harness: Harness) -> str:
    """The id of one of this venue's holds (if any yet), else of a hold that is not its own;
    one time in five something odd. (Draws the same way whatever the database holds, so
    Hypothesis can replay it.)"""
    pick, oddity, strange = draw(st.integers(0, 999)), draw(st.integers(0, 4)), draw(odd)
    if oddity == 0:
        return str(strange)
    found = harness.engine.holds(harness.venue.id)
    known = [str(h.id) for h in found] if isinstance(found, list) else []
    return known[pick % len(known)] if known else str(1 + pick % 60)


@st.composite
def hold(draw: st.DrawFn, harness: Harness) -> dict[str, Any]:
    """A well-formed /hold modal submission: it may well hold a slot."""
    start, end = draw(st.sampled_from([("11:00", "15:00"), ("18:00", "21:00"), ("22:00", "02:00")]))
    state = values(
        room=draw(st.sampled_from(["hoo", "hoo-a", "hoo-b", "sakura", "chapel"])),
        day=draw(st.sampled_from(["2027-03-10", "2027-03-11", "2027-09-28"])),
        start=start,
        end=end,
        kind=draw(st.sampled_from(["wedding", "banquet"])),
        customer=draw(st.sampled_from(["山田様", "<!channel> 様", "A&B", "佐藤様"])),
        salesperson=draw(users),
        note=draw(st.sampled_from(["", "*メモ*", "<https://x|y>"])),
    )
    modal = Meta(channel=sr.CHANNEL_ID, locale=draw(st.sampled_from(["ja", "en"])))
    body = sr.view_submission(
        state,
        callback_id=ids.HOLD_MODAL,
        private_metadata=modal.dump(),
        view_id=draw(st.from_regex(r"V[0-9A-Z]{8,10}", fullmatch=True)),
        user_id=draw(users),
    )
    return sr.payload_of(body)


@st.composite
def submission(draw: st.DrawFn, harness: Harness) -> dict[str, Any]:
    """Any of the bot's modals submitted, with odd values now and then."""
    callback = draw(
        st.sampled_from([ids.HOLD_MODAL, ids.CONFIRM_MODAL, ids.CANCEL_MODAL])
        | st.sampled_from([ids.INFO_MODAL])
        | odd
    )
    state = values(
        room=draw(rooms),
        day=draw(days),
        start=draw(clocks),
        end=draw(clocks),
        kind=draw(kinds),
        customer=draw(mostly(st.sampled_from(["山田様", "<!channel> 様", "A&B"])) | words),
        salesperson=draw(mostly(users)),
        note=draw(words),
    )
    modal = Meta(channel=sr.CHANNEL_ID, locale=draw(st.sampled_from(["ja", "en"])))
    hold_meta = own_hold(harness).map(lambda h: json.dumps({"h": h, "l": "ja", "s": {}}))
    meta = draw(
        st.just(modal.dump())
        | st.just(Meta(channel="C0NOTJOIN1", locale="ja").dump())
        | hold_meta
        | hold_meta
        | st.integers(-5, 2**64).map(lambda h: Meta(hold_id=h, locale="ja").dump())
        | odd
    )
    view_id = draw(st.from_regex(r"V[0-9A-Z]{8,10}", fullmatch=True))
    return sr.payload_of(
        sr.view_submission(
            state,
            callback_id=callback,
            private_metadata=meta,
            view_id=view_id,
            user_id=draw(users),
        )
    )


@st.composite
def click(draw: st.DrawFn, harness: Harness) -> dict[str, Any]:
    action = draw(mostly(st.sampled_from([ids.CONFIRM, ids.RELEASE, ids.EXTEND])))
    hold = draw(own_hold(harness))
    body = sr.block_actions(
        action,
        hold,
        block_id=ids.card_actions(int(hold)) if hold.isascii() and hold.isdigit() else "b",
        user_id=draw(users),
        channel_id=draw(st.sampled_from([sr.CHANNEL_ID, "D0SALES001", "C0NOTJOIN1"])),
        is_ephemeral=draw(st.booleans()),
        response_url=harness.slack.response_url("fuzz-click"),
    )
    return sr.payload_of(body)


@st.composite
def preview(draw: st.DrawFn, harness: Harness) -> dict[str, Any]:
    state = values(room=draw(rooms), day=draw(days), start=draw(clocks), kind=draw(kinds))
    act = sr.changed(state, draw(st.sampled_from([ids.ROOM, ids.DATE, ids.START, ids.KIND])))
    view = sr.view_object(
        callback_id=ids.HOLD_MODAL,
        private_metadata=Meta(channel=sr.CHANNEL_ID, locale="ja").dump(),
        view_id=draw(st.from_regex(r"V[0-9A-Z]{8,10}", fullmatch=True)),
    )
    body = sr.block_actions(actions=[act], view=view, values=state, user_id=draw(users))
    return sr.payload_of(body)


@st.composite
def suggestion(draw: st.DrawFn, harness: Harness) -> dict[str, Any]:
    return sr.payload_of(sr.block_suggestion(ids.ROOM, draw(words), block_id=ids.ROOM))


@st.composite
def event(draw: st.DrawFn, harness: Harness) -> dict[str, Any]:
    shape = draw(st.sampled_from(["home", "messages", "other", "challenge"]))
    if shape == "challenge":
        return dict(json.loads(sr.url_verification(draw(odd))))
    if shape == "other":
        return dict(json.loads(sr.event_callback({"type": draw(odd), "user": draw(users)})))
    tab = "home" if shape == "home" else "messages"
    return dict(json.loads(sr.app_home_opened_event(draw(users), tab=tab)))


SHAPES = {
    "command": slash_command,
    "hold": hold,
    "submission": submission,
    "click": click,
    "preview": preview,
    "suggestion": suggestion,
    "event": event,
}


# -- mutations -------------------------------------------------------------------------------
def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [here]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*here, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            found += _paths(inner, (*here, i))
    return found


@st.composite
def mutated(draw: st.DrawFn, payload: dict[str, Any]) -> Any:
    """The payload with one node removed or replaced (the root too)."""
    path = draw(st.sampled_from(_paths(payload)))
    new = draw(json_values)
    if not path:
        return new
    parent: Any = payload
    for step in path[:-1]:
        parent = parent[step]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return payload


def encode(kind: str, payload: Any) -> tuple[bytes, str]:
    if kind == "event":
        return json.dumps(payload, ensure_ascii=False).encode(), sr.JSON
    if kind == "command" and isinstance(payload, dict):
        fields = {str(k): v if isinstance(v, str) else json.dumps(v) for k, v in payload.items()}
        return sr.form_body(fields), sr.FORM
    return sr.interaction_body(payload), sr.FORM


@st.composite
def garbled(draw: st.DrawFn, raw: bytes) -> bytes:
    how = draw(st.sampled_from(["cut", "byte", "append", "prefix"]))
    at = draw(st.integers(0, len(raw)))
    if how == "cut":
        return raw[:at]
    if how == "byte":
        return raw[:at] + bytes([draw(st.integers(0, 255))]) + raw[at + 1 :]
    extra = draw(st.binary(max_size=16) | st.sampled_from([b"&payload=1", b"&command=%2Fhold"]))
    return raw + extra if how == "append" else extra + raw


@st.composite
def requests(draw: st.DrawFn, harness: Harness) -> Sent:
    kind = draw(st.sampled_from(sorted(SHAPES)))
    payload = draw(SHAPES[kind](harness))
    mutate = draw(st.sampled_from(["none", "none", "tree", "bytes", "content-type"]))
    if mutate == "tree":
        payload = draw(mutated(payload))
    raw, content_type = encode(kind, payload)
    if mutate == "bytes":
        raw = draw(garbled(raw))
    if mutate == "content-type":
        content_type = draw(st.sampled_from([sr.JSON, sr.FORM, "text/plain", ""]))
    signing = draw(
        st.sampled_from(["signed"] * 6 + ["unsigned", "wrong", "stale", "odd-time", "tampered"])
    )
    return Sent(kind, raw, content_type, signing, mutate != "none")


# -- sending ---------------------------------------------------------------------------------
def send(harness: Harness, sent: Sent) -> tuple[int, str]:
    now = int(time.time())
    headers: dict[str, str | None] = {}
    body, secret, stamp = sent.body, SECRET, now
    if sent.signing == "unsigned":
        headers = {"X-Slack-Request-Timestamp": None, "X-Slack-Signature": None}
    elif sent.signing == "wrong":
        secret = "not-the-secret"
    elif sent.signing == "stale":
        stamp = now - 301 - (len(body) % 10_000)
    elif sent.signing == "odd-time":
        odd_stamp = ["abc", "", " ", "1e9", "-1", f"{now}.0", f"+{now}", "0x10", "¹²³"]
        headers = {"X-Slack-Request-Timestamp": odd_stamp[len(body) % len(odd_stamp)]}
    signed = sr.sign(body, secret, stamp, content_type=sent.content_type or sr.FORM)
    if sent.signing == "tampered":
        body = body + b"&user_id=U0MANAGER1" if body[:1] != b"{" else body[:-1] + b', "x": 1}'
    sent_headers: dict[str, str | None] = {**signed, "Content-Type": sent.content_type, **headers}
    status, _, answer = sr.post(harness.events_url, body, SECRET, headers=sent_headers)
    return status, answer


class Errors(logging.Handler):
    """Every ERROR record anywhere: a request that crashed logs one (with its error id)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def errors() -> Any:
    handler = Errors()
    logging.getLogger().addHandler(handler)
    yield handler
    logging.getLogger().removeHandler(handler)


@pytest.mark.parametrize("bot", [True], indirect=True)
def test_hostile_and_odd_requests_cause_nothing_they_should_not(
    bot: Harness, errors: Errors
) -> None:
    TALLY.clear()
    check_requests(bot, errors)
    a_well_formed_hold_still_works(bot)
    print(f"\nfuzz tally: {dict(sorted(TALLY.items()))}")  # the long run's report


def ledger(bot: Harness) -> dict[str, str]:
    """Every table's fingerprint but the names cache (people's Slack names, cached whenever
    the bot speaks to them: not a record anyone wrote)."""
    found = bot.fingerprint()
    found.pop("staff_names", None)
    return found


def check_requests(bot: Harness, errors: Errors) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def one(data: st.DataObject) -> None:
        sent = data.draw(requests(bot))
        calls, logged = len(bot.slack.calls), len(errors.records)
        before = ledger(bot)
        status, answer = send(bot, sent)
        bot.settle()
        new_calls = bot.slack.calls[calls:]
        changed = ledger(bot) != before
        TALLY.update(["inputs", f"status {status}", f"signing {sent.signing}"])

        assert status < 500, (sent, answer)
        if not sent.verified:
            assert status == 401, (sent, answer)
            assert new_calls == [] and not changed, sent
        leaked = [answer, *(json.dumps(c.body, ensure_ascii=False) for c in new_calls)]
        assert not [t for t in leaked if LEAKS.search(t)], (sent, leaked)
        assert errors.records[logged:] == [], (sent, errors.records[logged:])
        writers = {"hold", "submission", "click"}
        may_write = sent.verified and status == 200 and sent.kind in writers
        assert may_write or not changed, (sent, status, answer)
        TALLY.update(["wrote"] if changed else [])

    one()


def a_well_formed_hold_still_works(bot: Harness) -> None:
    day = DAY.replace(day=DAY.day + 2)  # a date the fuzz never draws
    view_id = bot.command(f"チャペル {day.month}/{day.day} 06:10-06:40 婚礼 最後様")
    assert bot.preview_text(view_id).startswith("1番手として受付")
    state = values(room="chapel", day=day, start="06:10", end="06:40", customer="最後様")
    status, answer = bot.submit(view_id, state)
    assert (status, answer) == (200, {})
    post = bot.slack.wait_for("chat.postMessage", predicate=lambda c: "最後様" in c.body["text"])
    assert post and post[-1].ok
    bot.settle()  # App Home is still being published
