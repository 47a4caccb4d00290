"""Notices on the terminal: the console transport through the same Courier, outbox, leases and
retry rules as Slack DMs."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial

from bot.texts import text
from cli.bootstrap import Runtime, console
from core.engine import HoldEngine
from core.model import Hold, HoldEdit, ItemRequest, Venue
from core.results import Refused, RequestAnswer, Swept
from jobs.console import CHANNEL, Console, plain
from tests.jobs.conftest import MovingClock
from tests.jobs.scenarios import FIRST, SECOND, quiet, rows
from tests.support import factories

EDIT_ALSO = text("en", "console.edit_also")  # the terminal reads English here


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
        assert isinstance(requested, RequestAnswer)
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
    settings = replace(
        runtime.settings,
        language="C.UTF-8",
        console_languages={SECOND: "ja"},
        launcher="python3 dev.py",
    )
    transport = console(settings, runtime.engine, out)
    held = lapse(runtime.engine, venue, clock())

    drained = runtime.courier(transport).drain(venue.id)

    # the expiry, the promotion, and their cards' rows (no card was posted: nothing to redraw)
    assert (drained.sent, drained.failed) == (4, 0)
    printed = out.getvalue()
    block = printed[printed.index(f"Slack DM → {SECOND}") :]
    assert f"(promotion, hold #{held.id}" in block
    assert plain(text("ja", "notice.promoted.title")) in block, "SECOND reads Japanese"
    assert f"[ {text('ja', 'button.confirm')} ]" in block
    assert f"[ {text('ja', 'button.release')} ]" in block
    # each button as the command its recipient would type, in a second terminal
    osae = "python3 dev.py osae hold"
    assert f"  {text('ja', 'button.confirm')}: {osae} confirm {held.id} --actor {SECOND}\n" in block
    assert f"  {text('ja', 'button.release')}: {osae} release {held.id} --actor {SECOND}\n" in block
    assert (
        f"  {text('ja', 'edit.button')}: {osae} edit {held.id} --actor {SECOND} "
        f"--version {held.version} --end HH:MM {EDIT_ALSO}\n"
    ) in block
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
    transport = Console(out, language="en", words=partial(text, "en"))
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
    # the terminal reads English; the channel's cards are in its language (OSAE_LANG, else ja)
    settings = replace(runtime.settings, sales_channel=None, language="en_US.UTF-8")
    runtime = replace(runtime, settings=settings)
    transport = console(settings, runtime.engine, out)
    courier = runtime.courier(transport)
    assert courier.card_channel == CHANNEL  # the terminal plays the sales channel
    held = lapse(runtime.engine, venue, clock(), announce=True)

    assert courier.drain(venue.id).failed == 0
    printed = out.getvalue()
    assert printed.count("Slack card → console") == 2, "each CLI hold's card, once"
    redrawn = printed[printed.index(f"Slack card redrawn → console (hold #{held.id}") :]
    redrawn = redrawn[: redrawn.index("╰─")]
    assert "1番手" in redrawn
    assert "[ 本予約にする ]  [ 延長する ]  [ 取り下げる ]  [ 変更 ]  [ 別の候補日 ]" in redrawn
    # a card's buttons are pressed by the hold's salesperson, never "console"
    assert "--actor console" not in printed
    assert redrawn.endswith(
        "\n".join(
            [
                f"│   本予約にする: osae hold confirm {held.id} --actor {SECOND}",
                f"│   延長する: osae hold extend {held.id} --actor {SECOND}",
                f"│   取り下げる: osae hold release {held.id} --actor {SECOND}",
                f"│   変更: osae hold edit {held.id} --actor {SECOND} --version {held.version} "
                f"--end HH:MM {EDIT_ALSO}",
                f"│   別の候補日: osae hold request --enquiry {held.enquiry_id} --date YYYY-MM-DD "
                "--room hoo --start 11:00 --end 15:00",
                "",
            ]
        )
    )
    assert "Slack thread line → console" in printed
    assert "期限切れ → 1番手 に繰り上げ" in printed
    assert runtime.engine.card(venue.id, held.id) is not None


def test_a_package_cards_buttons_are_its_salespersons_as_the_hold_is_now(
    runtime: Runtime, venue: Venue, clock: MovingClock
) -> None:
    """Chapel 11:00-12:00 + 鳳凰 12:30-15:30, its salesperson then changed to FIRST: the card
    drawn after names FIRST, the hold's new version and the package's rooms."""
    out = io.StringIO()
    # the terminal reads English; the card is in the channel's language (OSAE_LANG, else ja)
    settings = replace(runtime.settings, sales_channel=None, language="en")
    runtime = replace(runtime, settings=settings)
    courier = runtime.courier(console(runtime.settings, runtime.engine, out))
    now = clock()
    ask = replace(
        factories.request(room="chapel", start="11:00", end="12:00", salesperson=SECOND),
        also=(ItemRequest("hoo", 12 * 60 + 30, 15 * 60 + 30),),
    )
    requested = runtime.engine.request(venue.id, ask, now=now, announce=True)
    assert isinstance(requested, RequestAnswer)
    assert courier.drain(venue.id).failed == 0  # the card, posted
    change = HoldEdit(requested.hold.id, requested.hold.version, SECOND, salesperson=FIRST)
    edited = runtime.engine.edit(venue.id, change, now=now)
    assert not isinstance(edited, Refused) and edited.kept_place
    held = edited.hold

    assert courier.drain(venue.id).failed == 0  # the card, redrawn
    printed = out.getvalue()
    card = printed[printed.rindex(f"Slack card redrawn → console (hold #{held.id}") :]
    card = card[: card.index("╰─")]
    assert f"担当 @{FIRST}" in card
    assert f"│   本予約にする: osae hold confirm {held.id} --actor {FIRST}\n" in card
    assert (
        f"│   変更: osae hold edit {held.id} --actor {FIRST} --version {held.version} "
        f"--item chapel --end HH:MM {EDIT_ALSO}\n"
    ) in card
    assert (
        f"│   別の候補日: osae hold request --enquiry {held.enquiry_id} --date YYYY-MM-DD "
        "--room chapel --start 11:00 --end 12:00 --also hoo,12:30,15:30\n"
    ) in card
    assert held.version > requested.hold.version and SECOND not in card.split("担当")[1]


def test_a_japanese_terminal_reads_every_head_and_button_in_japanese(
    runtime: Runtime, venue: Venue, clock: MovingClock
) -> None:
    """issue 30: OSAE_LANG=ja: the heads around each message, the buttons' labels and what
    an edit may change are Japanese; no internal word (promoted, notice) is left."""
    out = io.StringIO()
    settings = replace(runtime.settings, language="ja", launcher=None)
    named = replace(venue, policy=replace(venue.policy, staff={SECOND: "佐藤"}))  # FIRST: none
    held = lapse(runtime.engine, named, clock())
    assert runtime.courier(console(settings, runtime.engine, out)).drain(venue.id).failed == 0
    printed = out.getvalue()
    assert f"Slack の DM → 佐藤（繰り上げ、押さえ #{held.id}、通知 #" in printed
    assert f"Slack の DM → {FIRST}（期限切れ、押さえ #" in printed
    assert (
        f"  {text('ja', 'button.release')}: osae hold release {held.id} --actor {SECOND}\n"
        in printed
    )
    assert "--end HH:MM （または --date YYYY-MM-DD、--start" in printed
    for word in ("promoted", "expired", "notice #", "hold #", "release:", "confirm:", "(or "):
        assert word not in printed, word


def test_every_notice_kind_has_its_words_for_the_console() -> None:
    from bot.texts import CATALOGS
    from core.notices import NoticeKind

    for language in ("ja", "en"):
        missing = [k for k in NoticeKind if f"notice.kind.{k.value}" not in CATALOGS[language]]
        assert missing == [], f"add them to bot/texts/terminal_out.py ({language})"
