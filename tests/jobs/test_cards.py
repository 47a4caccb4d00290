"""A hold's card in the sales channel, delivered through the outbox by a real worker: posted
for holds no Slack surface posted (the CLI, App Home), redrawn at every change with one line
in its thread, and never a reason for the outbox to stall."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import sqlalchemy as sa

from cli.bootstrap import Runtime
from core.engine import HoldEngine
from core.model import Hold, HoldEdit, Venue
from core.results import EditAnswer, ReleaseAnswer, RequestAnswer
from tests.jobs.conftest import SALES_CHANNEL, eventually
from tests.jobs.scenarios import FIRST, SECOND, cards, rows
from tests.support import factories
from tests.support.slack_standin import SlackStandin

# A 1st's card, as /hold posts it: Confirm, Extend, Release, Edit, Another date.
ACTIONABLE_FIRST = (
    "hold_confirm",
    "hold_extend",
    "hold_release",
    "hold_edit",
    "hold_another_date",
)


def announced(engine: HoldEngine, venue: Venue, runtime: Runtime, salesperson: str) -> Hold:
    """A hold requested as the CLI does (no surface posts its card), drained at once."""
    req = factories.request(salesperson=salesperson)
    result = engine.request(venue.id, req, now=runtime.now(), announce=True)
    assert isinstance(result, RequestAnswer)
    runtime.on_notices()(venue.id)
    return result.hold


def card_of(slack: SlackStandin, engine: HoldEngine, venue: Venue, hold: Hold) -> dict[str, Any]:
    eventually(lambda: engine.card(venue.id, hold.id) is not None, what=f"#{hold.id}'s card")
    spot = engine.card(venue.id, hold.id)
    assert spot is not None and spot.channel == SALES_CHANNEL
    message = slack.message(spot.channel, spot.ts)
    assert message is not None
    return message


def thread(slack: SlackStandin, ts: str) -> list[str]:
    return [
        str(m["text"])
        for m in slack.messages(SALES_CHANNEL)
        if m.get("thread_ts") == ts and m["ts"] != ts
    ]


def buttons(message: dict[str, Any]) -> list[str]:
    return [
        e["action_id"] for b in message["blocks"] if b["type"] == "actions" for e in b["elements"]
    ]


def release(engine: HoldEngine, venue: Venue, runtime: Runtime, hold: Hold) -> ReleaseAnswer:
    done = engine.release(venue.id, hold.id, actor=hold.salesperson, now=runtime.now())
    assert isinstance(done, ReleaseAnswer)
    runtime.on_notices()(venue.id)
    return done


def all_sent(engine: HoldEngine, venue: Venue) -> bool:
    return engine.notices(venue.id, status="pending") == []


def test_a_cli_hold_gets_its_card_and_a_redelivered_update_changes_nothing(
    engine: HoldEngine, venue: Venue, worker: Runtime, slack: SlackStandin, sa_engine: sa.Engine
) -> None:
    hold = announced(engine, venue, worker, FIRST)
    posted = card_of(slack, engine, venue, hold)
    assert "1番手" in json.dumps(posted["blocks"], ensure_ascii=False)
    assert buttons(posted) == [*ACTIONABLE_FIRST]

    release(engine, venue, worker, hold)
    eventually(lambda: len(thread(slack, posted["ts"])) == 1, what="the release's thread line")
    eventually(lambda: all_sent(engine, venue), what="every row sent")
    card = slack.message(SALES_CHANNEL, posted["ts"])
    assert card is not None and buttons(card) == []
    assert "取り下げ" in json.dumps(card["blocks"], ensure_ascii=False)
    assert f"<@{FIRST}> さんが取り下げました" in thread(slack, posted["ts"])[0]

    # The worker died after Slack answered and before the row was marked: it comes again.
    (row,) = [n for n in cards(engine, venue) if n.payload["event"] == "released"]
    updates = len(slack.calls_to("chat.update"))
    with sa_engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE outbox SET status = 'pending' WHERE venue_id = :v AND id = :id"),
            {"v": venue.id, "id": row.id},
        )
    worker.on_notices()(venue.id)
    eventually(lambda: len(slack.calls_to("chat.update")) == updates + 1, what="redrawn again")
    eventually(lambda: all_sent(engine, venue), what="the row sent again")
    again = slack.message(SALES_CHANNEL, posted["ts"])
    assert again is not None
    assert (again["blocks"], again["text"]) == (card["blocks"], card["text"])  # the same card
    assert len(thread(slack, posted["ts"])) == 1  # and no second line
    assert next(n for n in cards(engine, venue) if n.id == row.id).attempts == 2


def test_a_card_update_slack_refuses_with_429_goes_again_after_retry_after(
    engine: HoldEngine, venue: Venue, worker: Runtime, slack: SlackStandin
) -> None:
    hold = announced(engine, venue, worker, FIRST)
    posted = card_of(slack, engine, venue, hold)
    slack.rate_limit_next("chat.update", retry_after=1)
    release(engine, venue, worker, hold)

    calls = slack.wait_for("chat.update", 2, timeout=20)
    assert (calls[0].status, calls[1].ok) == (429, True)
    waited = calls[1].at - calls[0].at
    assert waited >= 1.0, f"updated again {waited:.2f}s after a 429 asking for 1s"
    eventually(lambda: len(thread(slack, posted["ts"])) == 1, what="the thread line")
    eventually(lambda: all_sent(engine, venue), what="every row sent")
    card = slack.message(SALES_CHANNEL, posted["ts"])
    assert card is not None and buttons(card) == []
    print(f"\ncard update after 429 (Retry-After 1): redrawn {waited:.2f}s later")


def test_a_deleted_card_does_not_hold_up_the_outbox(
    engine: HoldEngine, venue: Venue, worker: Runtime, slack: SlackStandin
) -> None:
    first = announced(engine, venue, worker, FIRST)
    second = announced(engine, venue, worker, SECOND)
    gone = card_of(slack, engine, venue, first)
    kept = card_of(slack, engine, venue, second)
    worker.courier().transport.client.chat_delete(channel=SALES_CHANNEL, ts=gone["ts"])  # type: ignore[attr-defined]

    release(engine, venue, worker, first)  # first's card is gone; second moves up
    eventually(lambda: all_sent(engine, venue), what="every row sent")
    assert engine.notices(venue.id, status="failed") == []
    (row,) = [n for n in cards(engine, venue) if n.payload["event"] == "released"]
    assert row.sent_ref == "gone: message_not_found"
    assert engine.card(venue.id, first.id) is None  # nothing left to redraw
    promoted = slack.message(SALES_CHANNEL, kept["ts"])
    assert promoted is not None and buttons(promoted) == [*ACTIONABLE_FIRST]
    assert "繰り上げ" in thread(slack, kept["ts"])[0]
    dms = [n.kind for n in rows(engine, venue, "sent") if n.recipient == SECOND]
    assert "promoted" in dms  # the DM after the deleted card went out too


def edit(
    engine: HoldEngine, venue: Venue, runtime: Runtime, hold: Hold, **change: Any
) -> EditAnswer:
    """An edit as the CLI makes it (no surface posts a swap's new card), drained at once."""
    asked = HoldEdit(hold_id=hold.id, version=hold.version, actor=hold.salesperson, **change)
    done = engine.edit(venue.id, asked, now=runtime.now(), announce=True)
    assert isinstance(done, EditAnswer), done
    runtime.on_notices()(venue.id)
    return done


def test_an_edit_redraws_its_card_and_a_swap_gives_the_new_hold_a_card(
    engine: HoldEngine, venue: Venue, worker: Runtime, slack: SlackStandin
) -> None:
    hold = announced(engine, venue, worker, FIRST)
    posted = card_of(slack, engine, venue, hold)

    # A new customer name keeps the place: the same card, redrawn, says so in its thread.
    renamed = edit(engine, venue, worker, hold, customer="山田花子様")
    assert renamed.kept_place
    eventually(lambda: len(thread(slack, posted["ts"])) == 1, what="the edit's thread line")
    card = slack.message(SALES_CHANNEL, posted["ts"])
    assert card is not None and "山田花子様" in json.dumps(card["blocks"], ensure_ascii=False)
    assert buttons(card) == [*ACTIONABLE_FIRST]
    line = thread(slack, posted["ts"])[0]
    assert f"<@{FIRST}> さんが変更しました（変更前: " in line

    # Another date, where another booking is 1st, is a swap: the old card shows it released
    # and names the new hold, which gets a card of its own in the sales channel.
    later = hold.local_date + timedelta(days=1)
    there = factories.request(day=later, salesperson=SECOND)
    assert isinstance(engine.request(venue.id, there, now=worker.now()), RequestAnswer)
    swapped = edit(engine, venue, worker, renamed.hold, local_date=later)
    assert not swapped.kept_place and swapped.hold.rank == 2
    new = swapped.hold
    eventually(lambda: len(thread(slack, posted["ts"])) == 2, what="the swap's thread line")
    eventually(lambda: all_sent(engine, venue), what="every row sent")
    old = slack.message(SALES_CHANNEL, posted["ts"])
    assert old is not None and buttons(old) == []
    # Replaced by the edit, never shown as withdrawn (the couple did not decline).
    drawn = json.dumps(old["blocks"], ensure_ascii=False)
    assert "*変更*（新しい押さえに引き継ぎ）" in drawn and "取り下げ" not in drawn
    assert f"新しい押さえ #{new.id}（2番手）に置き換え" in thread(slack, posted["ts"])[1]
    fresh = card_of(slack, engine, venue, new)
    assert fresh["ts"] != posted["ts"] and "hold_edit" in buttons(fresh)
    assert "hold_confirm" not in buttons(fresh)  # it waits: nothing to confirm yet
    assert f"#{new.id}" in json.dumps(fresh["blocks"], ensure_ascii=False)
    assert engine.notices(venue.id, status="failed") == []
