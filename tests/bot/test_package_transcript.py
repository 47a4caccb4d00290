"""A couple's wedding, as the salesperson reads it in Slack: the chapel, the reception and a
bridal room held as one, on two candidate dates, from the quick form to the confirmation of
one date and the release of the other. ``pytest -s`` prints the transcript."""

from __future__ import annotations

from datetime import date

import pytest

from bot import ids
from core.booking import booking_number
from core.engine import HoldEngine
from core.model import Hold, Room, Status, Venue
from core.results import RequestAnswer
from tests.bot.conftest import Harness, click, values
from tests.bot.packages import block, choose, courier, row
from tests.support import factories
from tests.support import slack_requests as sr
from tests.support.transcript import Transcript

FIRST_DATE, SECOND_DATE = date(2027, 3, 13), date(2027, 3, 20)  # two Saturdays
QUICK = "3/13 チャペル 11:00-12:00 + 鳳凰 12:30-15:30 + ブライズ 10:00-16:00 婚礼 山田様"


@pytest.fixture
def venue(engine: HoldEngine) -> Venue:
    """The test venue with a bridal room (ブライズルーム)."""
    rooms = {
        **factories.rooms(),
        "bridal": Room("bridal", "ブライズルーム", frozenset({"BR1"}), 30, 5),
    }
    return engine.save_venue(factories.venue(rooms=rooms), now=factories.NOW)


def hold_of(bot: Harness, hold_id: int) -> Hold:
    found = bot.engine.hold(bot.venue.id, hold_id)
    assert isinstance(found, Hold)
    return found


def newest(bot: Harness, day: date) -> Hold:
    return max(bot.engine.holds(bot.venue.id, on=day), key=lambda h: h.id)


def package_state(day: date) -> dict[str, dict[str, object]]:
    return {
        **values(room="chapel", day=day, start="11:00", end="12:00"),
        **row(1, "hoo", "12:30", "15:30"),
        **row(2, "bridal", "10:00", "16:00"),
    }


def test_a_couples_package_on_two_candidate_dates_from_request_to_confirm(bot: Harness) -> None:
    t = Transcript()
    sato = bot.engine.request(
        bot.venue.id,
        factories.request(day=FIRST_DATE, customer="佐藤様", salesperson=factories.SALES),
        now=bot.clock[0],
    )
    assert isinstance(sato, RequestAnswer)
    t.does(f"(佐藤様 already holds 鳳凰の間 on 3/13 11:00–15:00 as 1st: #{sato.hold.id})")

    # 1. The quick form: three rooms joined by +, read into the modal with its preview.
    t.does(f"/hold {QUICK}")
    view_id = bot.command(QUICK)
    form = bot.slack.view(view_id)
    t.view(form)
    assert block(form, ids.item_room(2))["element"]["initial_option"]["text"]["text"] == (
        "ブライズルーム"
    )
    assert bot.preview_text(view_id) == (
        "チャペル 1番手 · 鳳凰の間 2番手 · ブライズルーム 1番手 → 2番手: "
        "全部が1番手になった時点で期限がつきます\n"
        "前の押さえ: 佐藤様（婚礼）期限 3/8(月・友引) 9:00まで"
    )

    # 2. Submitted: the package is 2nd as a whole, posted in the channel with its rooms.
    t.does("presses 押さえる")
    status, answer = bot.submit(view_id, package_state(FIRST_DATE))
    assert (status, answer) == (200, {})
    post = bot.slack.wait_for("chat.postMessage")[0]
    t.message("#sales", post.body)
    first = newest(bot, FIRST_DATE)
    assert (first.customer, first.rank, first.expires_at) == ("山田様", 2, None)
    assert [i.room_id for i in first.items] == ["chapel", "hoo", "bridal"]
    card = post.body["text"]
    assert "チャペル 11:00〜12:00 + 鳳凰の間 12:30〜15:30 + ブライズルーム 10:00〜16:00" in card
    channel, ts = post.response["channel"], post.response["ts"]
    # 佐藤様's salesperson hears, once, that a 2nd now waits behind their 1st: the row the
    # package left naming the holds ahead is resolved at delivery into that DM (two rows).
    assert courier(bot).drain(bot.venue.id).sent == 2
    note = bot.slack.wait_for("chat.postMessage", 2)[-1]
    t.message(f"DM to @{factories.SALES}", note.body)
    assert note.body["channel"] == factories.SALES and "2番手が入りました" in note.body["text"]

    # 3. Another date: the same couple, rooms and times; only the date is left to choose.
    t.does("clicks 別の候補日 on that card")
    opens = len(bot.slack.calls_to("views.open"))
    assert click(bot, ids.ANOTHER_DATE, first.id, channel=channel, ts=ts)[0] == 200
    opened = bot.slack.wait_for("views.open", opens + 1)[-1].response["view"]
    t.view(opened)
    assert opened["title"]["text"] == "別の候補日"
    assert block(opened, ids.CUSTOMER)["element"]["initial_value"] == "山田様"
    assert block(opened, ids.item_start(1))["element"]["initial_time"] == "12:30"
    assert "initial_date" not in block(opened, ids.DATE)["element"]

    t.does("chooses 3/20")
    second_state = package_state(SECOND_DATE)
    preview = choose(bot, opened["id"], second_state, ids.DATE)
    t.view(bot.slack.view(opened["id"]), second_state)
    assert preview == (
        "チャペル 1番手 · 鳳凰の間 1番手 · ブライズルーム 1番手 → "
        "1番手として受付 · 期限 3/8(月・友引) 9:00まで"
    )
    t.does("presses 押さえる")
    assert bot.submit(opened["id"], second_state) == (200, {})
    post = bot.slack.wait_for("chat.postMessage", 3)[-1]
    t.message("#sales", post.body)
    second = newest(bot, SECOND_DATE)
    assert (second.enquiry_id, second.rank) == (first.enquiry_id, 1)
    lead = f"案件 {booking_number(first.enquiry_id)} の別の候補日を *1番手* で押さえました"
    assert lead in str(post.body["blocks"])

    # 4. 佐藤様 declines: the couple's package on 3/13 becomes 1st as a whole, with one DM.
    t.does(f"(佐藤様's salesperson releases #{sato.hold.id})")
    bot.clock[0] = factories.later(hours=2)
    assert bot.engine.release(
        bot.venue.id, sato.hold.id, actor=factories.SALES, now=bot.clock[0]
    ).ok
    # Sent: the DM, and the two holds' card rows (this courier has no cards to redraw).
    assert courier(bot).drain(bot.venue.id).sent == 3
    dm = bot.slack.wait_for("chat.postMessage", 4)[-1]
    assert len(bot.slack.calls_to("chat.postMessage")) == 4  # one DM
    t.message(f"DM to @{sr.USER_ID}", dm.body)
    assert dm.body["channel"] == sr.USER_ID and "1番手になりました" in dm.body["text"]
    assert "チャペル 11:00〜12:00 + 鳳凰の間 12:30〜15:30 + ブライズルーム" in dm.body["text"]
    assert hold_of(bot, first.id).is_first

    # 5. The couple chooses 3/13: Confirm asks first, naming the date it will release.
    t.does("clicks 本予約にする in that DM")
    dm_channel, dm_ts = dm.response["channel"], dm.response["ts"]
    status, _ = click(bot, ids.CONFIRM, first.id, channel=dm_channel, ts=dm_ts)
    assert status == 200
    dialog = bot.slack.wait_for("views.open", opens + 2)[-1].response["view"]
    t.view(dialog)
    shown = str(dialog["blocks"])
    assert "同じ案件の次の候補日は取り下げになります" in shown
    assert f"#{second.id} 3/20(土・友引) チャペル" in shown

    t.does("presses 本予約にする in the dialog")
    status, _, _ = bot.post(sr.view_submission(view=bot.slack.view(dialog["id"])))
    assert status == 200
    updated = bot.slack.wait_for("chat.update")[-1]
    t.message(f"DM to @{sr.USER_ID}, updated in place", updated.body)
    assert "別の候補日を取り下げました" in str(updated.body["blocks"])
    assert hold_of(bot, first.id).status is Status.CONFIRMED
    assert hold_of(bot, second.id).status is Status.RELEASED

    # 6. The other date is released and its salesperson told why.
    assert courier(bot).drain(bot.venue.id).sent == 3  # the DM, and the two cards' rows
    told = bot.slack.wait_for("chat.postMessage", 5)[-1]
    assert len(bot.slack.calls_to("chat.postMessage")) == 5  # one DM
    t.message(f"DM to @{sr.USER_ID}", told.body)
    assert "候補日が取り下げになりました" in told.body["text"]
    assert f"#{second.id} 3/20(土・友引)" in told.body["text"]
    said = str(told.body["blocks"])
    assert f"お客様が #{first.id} 3/13(土・先勝) チャペル 11:00〜12:00" in said

    print("\n--- Slack transcript: a couple's package on two candidate dates ---")
    print(t)
