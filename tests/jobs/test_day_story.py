"""A sales team's day, played over signed HTTP against the bot with a real Dramatiq worker:
after every step each card in the sales channel tells the truth about its hold, and its
thread says what happened and who did it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

import pytest

from bot import ids
from bot.web import Server, build_wsgi
from bot.workspaces import VenueResolver
from cli import bootstrap
from cli.bootstrap import Runtime
from cli.settings import Settings
from core.engine import HoldEngine
from core.model import Hold, Status, Venue
from tests.bot.conftest import SECRET, values
from tests.jobs.cards import Card, as_text, cards_in, mismatches
from tests.jobs.conftest import MovingClock, eventually
from tests.support import slack_requests as sr
from tests.support.factories import MANAGER
from tests.support.slack_standin import SlackStandin
from tests.support.transcript import view_lines

SATO = "U0SATO0001"  # takes the 1st
SUZUKI = "U0SUZUKI01"  # queues as 2nd
CHANNEL = sr.CHANNEL_ID  # where /hold is typed: the sales channel
DAY = date(2027, 4, 9)  # a Friday five weeks on: deadlines are not capped by the event


@dataclass
class Day:
    url: str
    slack: SlackStandin
    engine: HoldEngine
    venue: Venue
    clock: MovingClock
    runtime: Runtime

    def post(self, body: bytes) -> tuple[int, str]:
        status, _, answer = sr.post(f"{self.url}/slack/events", body, SECRET)
        return status, answer

    def hold(self, hold_id: int) -> Hold:
        found = self.engine.hold(self.venue.id, hold_id)
        assert isinstance(found, Hold)
        return found

    def take(self, user: str, customer: str) -> Hold:
        """/hold typed in the channel, the modal filled in and submitted."""
        opens = len(self.slack.calls_to("views.open"))
        updates = len(self.slack.calls_to("views.update"))
        assert self.post(sr.slash_command(user_id=user))[0] == 200
        view = self.slack.wait_for("views.open", opens + 1, timeout=20)[-1].response["view"]
        self.slack.wait_for("views.update", updates + 1, timeout=20)  # the form, filled in
        form = values(day=DAY, customer=customer, salesperson=user)
        body = sr.view_submission(form, view=self.slack.view(view["id"]), user_id=user)
        assert self.post(body) == (200, "")
        found = [h for h in self.engine.holds(self.venue.id) if h.customer == customer]
        return found[0]

    def channel_is_true(self, threads: dict[int, list[str]]) -> list[Card]:
        """Wait until every card matches the database and each thread holds ``threads``'
        lines (each a fragment of one line, in order); returns the cards."""
        last: list[str] = []

        def true_now() -> bool:
            nonlocal last
            cards = cards_in(self.slack, CHANNEL)
            last = mismatches(self.engine, self.venue, cards, self.clock())
            last += [
                f"#{c.hold_id} thread {list(c.thread)}, wants {threads.get(c.hold_id, [])}"
                for c in cards
                if not _lines_match(c.thread, threads.get(c.hold_id, []))
            ]
            return not last and {c.hold_id for c in cards} == set(threads)

        try:
            eventually(true_now, timeout=20, what="the channel matching the database")
        except AssertionError:
            raise AssertionError("\n".join([*last, as_text(self.slack, CHANNEL)])) from None
        return cards_in(self.slack, CHANNEL)

    def open_home(self, user: str) -> dict[str, Any]:
        """``user`` opens the bot's Home tab; the view published to them in answer."""

        def to_user(call: Any) -> bool:
            return bool(call.body.get("user_id") == user)

        before = len([c for c in self.slack.calls_to("views.publish") if to_user(c)])
        assert self.post(sr.app_home_opened_event(user)) == (200, "")
        self.slack.wait_for("views.publish", before + 1, timeout=20, predicate=to_user)
        home = self.slack.home(user)
        assert home is not None
        return home


def _lines_match(thread: tuple[str, ...], wanted: list[str]) -> bool:
    return len(thread) == len(wanted) and all(w in t for t, w in zip(thread, wanted, strict=True))


@pytest.fixture
def day(
    engine: HoldEngine,
    venue: Venue,
    slack: SlackStandin,
    worker: Runtime,
    clock: MovingClock,
) -> Iterator[Day]:
    for user in (SATO, SUZUKI, MANAGER):
        slack.set_user(user, locale="ja-JP")
    settings: Settings = replace(worker.settings, slack_signing_secret=SECRET)
    app = bootstrap.bot_app(
        engine,
        settings,
        client=bootstrap.slack_client(settings),
        venues=VenueResolver(default=venue.id),
        now=clock,
        on_notices=worker.on_notices(),
    )
    with Server(build_wsgi(app, health=lambda: (True, {})), threads=4) as server:
        yield Day(server.url, slack, engine, venue, clock, worker)
        app.after.drain()


def test_a_day_of_holds_keeps_every_card_in_the_channel_true(day: Day) -> None:
    slack = day.slack

    # 9:00 佐藤 takes 鳳凰の間 for 山田様: 1st, with a deadline.
    first = day.take(SATO, "山田様")
    assert first.is_first
    day.channel_is_true({first.id: []})

    # 鈴木 asks for the same slot: 2nd. 佐藤 hears once that someone now waits behind.
    second = day.take(SUZUKI, "鈴木様")
    assert second.rank == 2
    day.channel_is_true({first.id: [], second.id: []})
    told = slack.wait_for("chat.postMessage", predicate=lambda c: c.body.get("channel") == SATO)
    assert "2番手が入りました" in told[0].body["text"]

    # A week on, nobody has confirmed: the sweep lapses the 1st and promotes the 2nd.
    day.clock.start += timedelta(days=7, minutes=1)
    day.runtime.actors().sweep.send(day.venue.id)
    expired = f"#{first.id} 期限切れ"
    day.channel_is_true({first.id: ["期限切れ"], second.id: [f"{expired} → *1番手* に繰り上げ"]})
    assert day.hold(first.id).status is Status.EXPIRED
    promoted = _dm(slack, SUZUKI, "1番手になりました")
    shown = json.dumps(promoted["blocks"], ensure_ascii=False)
    assert f"前の1番手（#{first.id}）が期限切れになったため" in shown
    assert _buttons(promoted) == [ids.CONFIRM, ids.EXTEND, ids.RELEASE, ids.EDIT]

    # Two hours on, 鈴木 confirms from the DM (the dialog, then its submit).
    day.clock.start += timedelta(hours=2)
    opens = len(slack.calls_to("views.open"))
    dm = slack.dm_channel(SUZUKI)
    click = sr.block_actions(
        actions=[sr.action(ids.CONFIRM, str(second.id), block_id=ids.card_actions(second.id))],
        message=promoted,
        channel_id=dm,
        user_id=SUZUKI,
    )
    assert day.post(click)[0] == 200
    dialog = slack.wait_for("views.open", opens + 1, timeout=20)[-1].response["view"]
    assert day.post(sr.view_submission(view=slack.view(dialog["id"]), user_id=SUZUKI))[0] == 200
    confirmed = f"<@{SUZUKI}> さんが本予約にしました"
    day.channel_is_true({first.id: ["期限切れ"], second.id: [f"{expired} → *1番手*", confirmed]})

    # Next day the customer calls off; the manager cancels, giving the reason.
    day.clock.start += timedelta(days=1)
    opens = len(slack.calls_to("views.open"))
    assert day.post(sr.slash_command(text=f"cancel {second.id}", user_id=MANAGER))[0] == 200
    dialog = slack.wait_for("views.open", opens + 1, timeout=20)[-1].response["view"]
    reason = {ids.CANCEL_REASON: {ids.CANCEL_REASON: sr.text_value("先方のご都合で中止")}}
    submit = sr.view_submission(reason, view=slack.view(dialog["id"]), user_id=MANAGER)
    assert day.post(submit)[0] == 200
    cancelled = f"<@{MANAGER}> さんが本予約を取り消しました（理由: 先方のご都合で中止）"
    cards = day.channel_is_true(
        {first.id: ["期限切れ"], second.id: [f"{expired} → *1番手*", confirmed, cancelled]}
    )
    assert [c.buttons for c in cards] == [(), ()]
    dm_text = _dm(slack, SUZUKI, "本予約が取り消されました")["text"]
    assert f"<@{MANAGER}>" in dm_text
    told_why = json.dumps(
        _dm(slack, SUZUKI, "本予約が取り消されました")["blocks"], ensure_ascii=False
    )
    assert "先方のご都合で中止" in told_why
    assert day.engine.notices(day.venue.id, status="failed") == []
    print("\n" + as_text(slack, CHANNEL))

    # The manager opens App Home: the team's ledger, its month counting the day's outcomes.
    home = day.open_home(MANAGER)
    # Slack names an untitled Home "View Title"; say whose Home it is instead.
    home_text = "\n".join([f"[App Home of @{MANAGER}]", *view_lines(home)[1:]])
    print("\n" + home_text)
    assert home["type"] == "home" and "チームの台帳" in home_text
    assert "今日が期限の1番手はありません" in home_text
    assert "順番待ちの押さえはありません" in home_text
    counts = "本予約 1 · 期限切れ 1 · 取り下げ 0 · 他の本予約で取り下げ 0 · 本予約の取消 1"
    assert f"3月の結果\n  {counts}" in home_text
    assert "あなたが担当の押さえ" not in home_text  # the manager holds nothing of their own


def _dm(slack: SlackStandin, user: str, title: str) -> dict[str, Any]:
    """The latest DM to ``user`` whose text carries ``title``, once it has arrived."""
    channel = slack.dm_channel(user)

    def found() -> list[dict[str, Any]]:
        return [m for m in slack.messages(channel) if title in str(m.get("text", ""))]

    eventually(lambda: bool(found()), timeout=20, what=f"a DM to {user}: {title}")
    return found()[-1]


def _buttons(message: dict[str, Any]) -> list[str]:
    return [
        e["action_id"]
        for b in message.get("blocks", [])
        if b.get("type") == "actions"
        for e in b["elements"]
    ]
