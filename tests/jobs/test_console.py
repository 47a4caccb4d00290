"""Notices on the terminal: the console transport through the same Courier, outbox, leases and
retry rules as Slack DMs."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import datetime, timedelta

from bot.texts import text
from cli.bootstrap import Runtime, console
from core.engine import HoldEngine
from core.model import Hold, Venue
from core.results import Requested, Swept
from jobs.console import CHANNEL, Console, plain
from tests.jobs.conftest import MovingClock
from tests.jobs.scenarios import FIRST, SECOND, quiet, rows
from tests.support import factories


def lapse(engine: HoldEngine, venue: Venue, now: datetime, *, announce: bool = False) -> Hold:
    """A 1st hold whose deadline lapsed, a 2nd behind it, and the sweep: FIRST is told the
    hold expired, SECOND that theirs is promoted (FIRST is not told of the 2nd here). With
    ``announce`` the holds were asked for as the CLI does: each gets a card."""
    asked = now - timedelta(days=8)  # wedding holds have 7 days
    venue = engine.save_venue(quiet(venue), now=asked)
    for salesperson in (FIRST, SECOND):
        requested = engine.request(
            venue.id,
            factories.request(day=factories.DAY, salesperson=salesperson),
            now=asked,
            announce=announce,
        )
        assert isinstance(requested, Requested)
    swept = engine.sweep(venue.id, now=now)
    assert isinstance(swept, Swept) and len(swept.promoted) == 1
    promoted = engine.hold(venue.id, swept.promoted[0])
    assert isinstance(promoted, Hold)
    return promoted


class Unplugged(io.StringIO):
    """A terminal that went away (its pipe closed) until plugged in again."""

    plugged = False

    def write(self, s: str) -> int:
        if not self.plugged:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(s)


def test_a_promotion_prints_as_the_dm_it_would_be_in_the_recipients_language(
    runtime: Runtime, venue: Venue, clock: MovingClock
) -> None:
    out = io.StringIO()
    settings = replace(runtime.settings, language="C.UTF-8", console_languages={SECOND: "ja"})
    transport = console(settings)
    transport.out = out
    held = lapse(runtime.engine, venue, clock())

    drained = runtime.courier(transport).drain(venue.id)

    # the expiry, the promotion, and their cards' rows (no card was posted: nothing to redraw)
    assert (drained.sent, drained.failed) == (4, 0)
    printed = out.getvalue()
    block = printed[printed.index(f"Slack DM → {SECOND}") :]
    assert f"(promoted, hold #{held.id}" in block
    assert plain(text("ja", "notice.promoted.title")) in block, "SECOND reads Japanese"
    assert f"[ {text('ja', 'button.confirm')} ]" in block
    assert f"[ {text('ja', 'button.release')} ]" in block
    assert f"osae hold confirm {held.id} --actor {SECOND}" in block
    assert "*" not in block and ":tada:" not in block, "no Slack markup left"
    expired = printed[printed.index(f"Slack DM → {FIRST}") : printed.index(block)]
    assert plain(text("en", "notice.expired.title")) in expired, "FIRST reads the terminal's"
    assert "[ " not in expired, "an expired hold has no buttons"
    sent = {n.recipient: n for n in rows(runtime.engine, venue, "sent")}
    assert sent[SECOND].sent_channel == CHANNEL and sent[SECOND].sent_ref
    assert sent[SECOND].hold_id == held.id


def test_a_terminal_that_fails_is_retried_like_slack(
    runtime: Runtime, venue: Venue, clock: MovingClock
) -> None:
    out = Unplugged()
    transport = Console(out, language="en")
    lapse(runtime.engine, venue, clock())
    courier = replace(runtime.courier(transport), backoff_base=0.01)

    first = courier.drain(venue.id)

    assert (first.sent, first.failed, first.deferred) == (2, 0, 2)  # cards: nothing to redraw
    waiting = rows(runtime.engine, venue, "pending")
    assert len(waiting) == 2 and all("BrokenPipeError" in (n.last_error or "") for n in waiting)
    assert all(n.attempts == 1 for n in waiting)
    out.plugged = True
    clock.t0 -= 1.0  # past the short backoff
    assert courier.drain(venue.id).sent == 2
    assert [n.attempts for n in rows(runtime.engine, venue, "sent")] == [2, 2]
    assert out.getvalue().count("Slack DM →") == 2, "each notice printed once"


def test_without_slack_the_terminal_shows_each_card_and_its_redraws(
    runtime: Runtime, venue: Venue, clock: MovingClock
) -> None:
    out = io.StringIO()
    transport = Console(out, language="ja")
    runtime = replace(runtime, settings=replace(runtime.settings, sales_channel=None))
    courier = runtime.courier(transport)
    assert courier.card_channel == CHANNEL  # the terminal plays the sales channel
    held = lapse(runtime.engine, venue, clock(), announce=True)

    assert courier.drain(venue.id).failed == 0
    printed = out.getvalue()
    assert printed.count("Slack card → console") == 2, "each CLI hold's card, once"
    redrawn = printed[printed.index(f"Slack card redrawn → console (hold #{held.id}") :]
    assert "1番手" in redrawn and f"osae hold confirm {held.id}" not in redrawn
    assert "[ 本予約にする ]  [ 延長する ]  [ 取り下げる ]" in redrawn
    assert "Slack thread line → console" in printed
    assert "期限切れ → 1番手 に繰り上げ" in printed
    assert runtime.engine.card(venue.id, held.id) is not None
