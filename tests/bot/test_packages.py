"""Holds of several rooms and candidate dates in Slack, over signed HTTP: the modal's room
rows, the preview's ranks per room, the quick form's ``+``, "Another date", confirm's dialog,
App Home."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from typing import Any

from bot import ids
from core.booking import booking_number
from core.model import Hold, HoldRequest, ItemRequest, Status
from core.results import RequestAnswer
from tests.bot.conftest import ENGLISH_USER, Harness, click, values
from tests.bot.packages import (
    add_row,
    block,
    choose,
    courier,
    has_block,
    remove_row,
    row,
    row_keys,
)
from tests.support import slack_requests as sr
from tests.support.factories import DAY, SALES, minutes, request

LATER = DAY + timedelta(days=7)


def take(bot: Harness, req: HoldRequest) -> RequestAnswer:
    result = bot.engine.request(bot.venue.id, req, now=bot.clock[0])
    assert isinstance(result, RequestAnswer), result
    return result


def package(
    day: Any = DAY, customer: str = "山田様", enquiry_id: int | None = None, **fields: Any
) -> HoldRequest:
    """Chapel 11:00–12:00 + 鳳凰の間 12:30–15:30 for sr.USER_ID."""
    req = request(room="chapel", day=day, start="11:00", end="12:00", **fields)
    hoo = ItemRequest("hoo", minutes("12:30"), minutes("15:30"))
    return replace(
        req,
        customer=customer,  # empty: the enquiry's
        salesperson=sr.USER_ID,
        creator=sr.USER_ID,
        also=(hoo,),
        enquiry_id=enquiry_id,
    )


def text_of(thing: Any) -> str:
    return json.dumps(thing, ensure_ascii=False)


def hold_now(bot: Harness, hold_id: int) -> Hold:
    found = bot.engine.hold(bot.venue.id, hold_id)
    assert isinstance(found, Hold)
    return found


# -- the modal's rows --------------------------------------------------------------------------
def test_add_a_room_starts_where_the_last_row_ends_and_remove_takes_that_row_away(
    bot: Harness,
) -> None:
    view_id = bot.command()
    state = values(room="chapel", start="11:00", end="12:00", customer=None)
    add_row(bot, view_id, state)
    view = bot.slack.view(view_id)
    assert row_keys(view) == [1]
    assert block(view, ids.item_room(1))["label"]["text"] == "部屋 2"
    assert block(view, ids.item_start(1))["element"]["initial_time"] == "12:00"
    assert "initial_time" not in block(view, ids.item_end(1))["element"]

    state |= row(1, "hoo", "12:30", "15:30")
    add_row(bot, view_id, state)
    state |= row(2, "sakura", "15:30", "17:00")
    add_row(bot, view_id, state)
    view = bot.slack.view(view_id)
    assert row_keys(view) == [1, 2, 3]
    assert block(view, ids.item_start(3))["element"]["initial_time"] == "17:00"
    assert not has_block(view, ids.ROWS_ACTIONS), "4 rooms is the venue's max_items"

    add_row(bot, view_id, state)  # a click crafted past the limit adds nothing
    assert row_keys(bot.slack.view(view_id)) == [1, 2, 3]

    remove_row(bot, view_id, state | row(3, None, "17:00", None), 2)
    view = bot.slack.view(view_id)
    assert row_keys(view) == [1, 3]
    assert not has_block(view, ids.item_room(2)) and not has_block(view, ids.remove_row(2))
    assert block(view, ids.item_room(3))["label"]["text"] == "部屋 3"  # numbered as shown
    assert block(view, ids.item_room(1))["element"]["initial_option"]["value"] == "hoo"
    assert has_block(view, ids.ROWS_ACTIONS)
    assert len(view["blocks"]) <= 100

    state = values(room="chapel", start="11:00", end="12:00") | row(1, "hoo", "12:30", "15:30")
    remove_row(bot, view_id, state | row(3, None, "17:00", None), 3)
    add_row(bot, view_id, state)
    # Not key 2 or 3 again: Slack would show what was typed in a block id it has seen.
    assert row_keys(bot.slack.view(view_id)) == [1, 4]


def test_the_preview_shows_each_rooms_place_and_the_holds(bot: Harness) -> None:
    sato = take(bot, request(room="hoo", customer="佐藤様"))
    view_id = bot.command()
    state = values(room="chapel", start="11:00", end="12:00", customer=None)
    add_row(bot, view_id, state)
    state |= row(1, "hoo", "12:30", "15:30")
    line = choose(bot, view_id, state, ids.item_end(1))
    assert line == (
        "チャペル 1番手 · 鳳凰の間 2番手 → 2番手: 全部が1番手になった時点で期限がつきます\n"
        f"前の押さえ: 佐藤様（婚礼）期限 {sato.hold.expires_at and '3/8(月・友引) 9:00まで'}"
    )
    state |= row(1, "sakura", "12:30", "15:30")
    line = choose(bot, view_id, state, ids.item_room(1))
    assert line == "チャペル 1番手 · 桜の間 1番手 → 1番手として受付 · 期限 3/8(月・友引) 9:00まで"


def test_the_preview_warns_of_the_same_customer_under_another_enquiry(bot: Harness) -> None:
    other = take(bot, request(room="sakura", day=LATER, customer="山田 様"))
    view_id = bot.command()
    line = choose(bot, view_id, values(customer="山田様"), ids.CUSTOMER)
    first, warning = line.split("\n")
    assert first == "1番手として受付 · 期限 3/8(月・友引) 9:00まで"
    assert warning.startswith(":warning: 山田様 は別の案件でも押さえています")
    assert f"#{other.hold.id} 桜の間 3/17(水・大安)" in warning
    assert "その案件の候補日として押さえてください" in warning
    assert len(bot.engine.holds(bot.venue.id)) == 1, "a warning writes nothing"


def test_a_package_is_submitted_from_the_modal_and_posted_with_every_room(bot: Harness) -> None:
    view_id = bot.command()
    state = values(room="chapel", start="11:00", end="12:00")
    add_row(bot, view_id, state)
    state |= row(1, "hoo", "12:30", "15:30")
    assert bot.submit(view_id, state) == (200, {})
    post = bot.slack.wait_for("chat.postMessage")[0]
    (held,) = bot.engine.holds(bot.venue.id)
    assert [(i.room_id, i.rank) for i in held.items] == [("chapel", 1), ("hoo", 1)]
    assert (
        f"#{held.id} 3/10(水・仏滅) チャペル 11:00〜12:00 + 鳳凰の間 12:30〜15:30 山田様（婚礼）"
        in (post.body["text"])
    )


def test_a_row_left_empty_is_named_and_nothing_is_written(bot: Harness) -> None:
    view_id = bot.command()
    state = values(room="chapel", start="11:00", end="12:00")
    add_row(bot, view_id, state)
    before = bot.fingerprint()
    status, answer = bot.submit(view_id, state | row(1, None, "12:00", None))
    assert status == 200 and answer["response_action"] == "errors"
    assert set(answer["errors"]) == {ids.item_room(1), ids.item_end(1)}
    assert bot.fingerprint() == before


def test_rooms_of_one_hold_that_overlap_are_marked_on_the_later_row(bot: Harness) -> None:
    view_id = bot.command()
    state = values(room="hoo-a", start="11:00", end="12:00")
    add_row(bot, view_id, state)
    before = bot.fingerprint()
    status, answer = bot.submit(view_id, state | row(1, "hoo", "12:30", "15:30"))
    assert status == 200 and answer["response_action"] == "errors"
    assert answer["errors"] == {
        ids.item_room(1): "鳳凰の間 がこの押さえの 鳳凰A と重なっています（転換時間を含む）。"
        "どちらかの時間か部屋を変えてください。"
    }
    assert bot.fingerprint() == before


def test_a_package_refused_for_one_room_says_which_in_the_form(bot: Harness) -> None:
    take(bot, request(room="hoo", start="12:00", end="16:00", customer="佐藤様"))
    take(bot, request(room="hoo", start="12:00", end="16:00", customer="鈴木様"))
    view_id = bot.command()
    state = values(room="chapel", start="11:00", end="12:00")
    add_row(bot, view_id, state)
    before = bot.fingerprint()
    status, answer = bot.submit(view_id, state | row(1, "hoo", "12:30", "15:30"))
    assert status == 200 and answer["response_action"] == "update"
    notice = block(answer["view"], ids.NOTICE)["text"]["text"]
    assert notice.startswith(":no_entry: 鳳凰の間：3番手になるため受付できません（2番手まで）")
    assert row_keys(answer["view"]) == [1]  # the rows stay as they were
    assert bot.fingerprint() == before


# -- the quick form ----------------------------------------------------------------------------
def test_the_quick_form_reads_rooms_joined_by_plus(bot: Harness) -> None:
    view_id = bot.command("3/10 チャペル 11:00-12:00 + 鳳凰 12:30-15:30 婚礼 山田様")
    view = bot.slack.view(view_id)
    assert row_keys(view) == [1]
    assert block(view, ids.ROOM)["element"]["initial_option"]["value"] == "chapel"
    assert block(view, ids.item_room(1))["element"]["initial_option"]["value"] == "hoo"
    assert block(view, ids.item_start(1))["element"]["initial_time"] == "12:30"
    assert block(view, ids.item_end(1))["element"]["initial_time"] == "15:30"
    assert block(view, ids.CUSTOMER)["element"]["initial_value"] == "山田様"
    assert bot.preview_text(view_id) == (
        "チャペル 1番手 · 鳳凰の間 1番手 → 1番手として受付 · 期限 3/8(月・友引) 9:00まで"
    )
    assert not has_block(view, ids.NOTICE)


def test_a_malformed_room_after_plus_is_refused_saying_what_would_work(bot: Harness) -> None:
    before = bot.fingerprint()
    view_id = bot.command("3/10 チャペル 11:00-12:00 + 鳳凰 12:30 婚礼 山田様")
    view = bot.slack.view(view_id)
    notice = block(view, ids.NOTICE)["text"]["text"]
    assert "「+」のあとの部屋と時間が読み取れませんでした: 「鳳凰 12:30 婚礼 山田様」" in notice
    assert "`+ 鳳凰 12:30-15:30` のように「+ 部屋名 開始-終了」と書く" in notice
    assert row_keys(view) == []  # only what was understood is filled in
    assert bot.fingerprint() == before


def test_the_malformed_room_refusal_in_english(bot: Harness) -> None:
    view_id = bot.command("3/10 chapel 11:00-12:00 + nowhere 12:30-15:30", user=ENGLISH_USER)
    notice = block(bot.slack.view(view_id), ids.NOTICE)["text"]["text"]
    assert "Could not read a room and its times after '+': 'nowhere 12:30-15:30'" in notice
    assert "`+ ROOM START-END`" in notice


# -- Another date ------------------------------------------------------------------------------
def test_another_date_from_a_card_opens_the_form_with_the_same_couple_rooms_and_times(
    bot: Harness,
) -> None:
    view_id = bot.command("3/10 チャペル 11:00-12:00 + 鳳凰 12:30-15:30 婚礼 山田様")
    state = values(room="chapel", start="11:00", end="12:00") | row(1, "hoo", "12:30", "15:30")
    assert bot.submit(view_id, state) == (200, {})
    post = bot.slack.wait_for("chat.postMessage")[0]
    (first,) = bot.engine.holds(bot.venue.id)
    opens = len(bot.slack.calls_to("views.open"))

    click(bot, ids.ANOTHER_DATE, first.id, channel=post.response["channel"], ts=post.response["ts"])
    opened = bot.slack.wait_for("views.open", opens + 1)[-1].response["view"]
    assert opened["title"]["text"] == "別の候補日"
    assert json.loads(opened["private_metadata"])["q"] == first.enquiry_id
    assert block(opened, ids.item_room(1))["element"]["initial_option"]["value"] == "hoo"
    assert "initial_date" not in block(opened, ids.DATE)["element"]
    assert f"案件 {booking_number(first.enquiry_id)}（山田様）の別の候補日です" in text_of(opened)

    chosen = state | values(room="chapel", start="11:00", end="12:00", day=LATER)
    assert bot.submit(opened["id"], chosen) == (200, {})
    post = bot.slack.wait_for("chat.postMessage", 2)[-1]
    second = max(bot.engine.holds(bot.venue.id), key=lambda h: h.id)
    assert (second.enquiry_id, second.local_date, len(second.items)) == (first.enquiry_id, LATER, 2)
    booking = booking_number(first.enquiry_id)
    assert f"案件 {booking} の別の候補日を *1番手* で押さえました" in text_of(post.body)


def test_another_date_on_a_full_enquiry_is_refused_at_once_listing_its_dates(
    bot: Harness,
) -> None:
    first = take(bot, package())
    second = take(bot, package(day=LATER, customer="", enquiry_id=first.hold.enquiry_id))
    home = open_home(bot)
    opens = len(bot.slack.calls_to("views.open"))
    button = sr.action(
        ids.ANOTHER_DATE, str(first.hold.id), block_id=ids.card_actions(first.hold.id)
    )
    assert bot.post(sr.block_actions(actions=[button], view=home))[0] == 200

    dialog = bot.slack.wait_for("views.open", opens + 1)[-1].body["view"]
    assert dialog["callback_id"] == ids.INFO_MODAL  # not the form
    said = text_of(dialog)
    assert "この案件の候補日はすでに2件です" in said
    assert (
        f"#{first.hold.id} 3/10(水・仏滅)" in said and f"#{second.hold.id} 3/17(水・大安)" in said
    )
    assert "どれかを取り下げてから足すか、新しい案件にしてください" in said


def test_a_third_date_submitted_after_the_enquiry_filled_up_is_refused_in_the_form(
    bot: Harness,
) -> None:
    first = take(bot, package())
    home = open_home(bot)
    opens = len(bot.slack.calls_to("views.open"))
    button = sr.action(
        ids.ANOTHER_DATE, str(first.hold.id), block_id=ids.card_actions(first.hold.id)
    )
    bot.post(sr.block_actions(actions=[button], view=home))
    opened = bot.slack.wait_for("views.open", opens + 1)[-1].response["view"]
    take(bot, package(day=LATER, customer="", enquiry_id=first.hold.enquiry_id))  # meanwhile

    before = bot.fingerprint()
    state = values(room="chapel", start="11:00", end="12:00", day=DAY + timedelta(days=14))
    status, answer = bot.submit(opened["id"], state | row(1, "hoo", "12:30", "15:30"))
    assert status == 200 and answer["response_action"] == "update"
    assert "この案件の候補日はすでに2件です" in text_of(answer["view"])
    assert bot.fingerprint() == before


# -- confirm, App Home -------------------------------------------------------------------------
def test_confirms_dialog_lists_the_other_candidate_dates_it_will_release(bot: Harness) -> None:
    first = take(bot, package())
    second = take(bot, package(day=LATER, customer="", enquiry_id=first.hold.enquiry_id))
    home = open_home(bot)
    opens = len(bot.slack.calls_to("views.open"))
    button = sr.action(ids.CONFIRM, str(first.hold.id), block_id=ids.card_actions(first.hold.id))
    bot.post(sr.block_actions(actions=[button], view=home))
    dialog = bot.slack.wait_for("views.open", opens + 1)[-1].body["view"]
    assert dialog["callback_id"] == ids.CONFIRM_MODAL
    said = text_of(dialog)
    assert "同じ案件の次の候補日は取り下げになります" in said
    assert f"#{second.hold.id} 3/17(水・大安) チャペル 11:00〜12:00 + 鳳凰の間 12:30〜15:30" in said
    assert "取り下げになるほかの押さえはありません" not in said
    assert hold_now(bot, second.hold.id).status is Status.TENTATIVE  # only asked so far


def test_app_home_keeps_candidate_dates_together_and_offers_another_date(bot: Harness) -> None:
    first = take(bot, package())
    other = take(bot, request(room="sakura", salesperson=sr.USER_ID, customer="鈴木様"))
    second = take(bot, package(day=LATER, customer="", enquiry_id=first.hold.enquiry_id))
    home = open_home(bot)
    rows = [b for b in home["blocks"] if b["type"] == "actions"]
    # Same deadline for all three: by id they would be first, other, second.
    order = [first.hold.id, second.hold.id, other.hold.id]
    assert [r["block_id"] for r in rows] == [ids.card_actions(i) for i in order]
    said = text_of(home["blocks"])
    booking = booking_number(first.hold.enquiry_id)
    assert f"案件 {booking} の候補日 · ほかに #{second.hold.id} 3/17(水・大安) 1番手" in said
    assert f"案件 {booking} の候補日 · ほかに #{first.hold.id} 3/10(水・仏滅) 1番手" in said
    assert said.count("の候補日 · ほかに") == 2  # not on the other customer's hold
    assert all(ids.ANOTHER_DATE in text_of(r) for r in rows)


def test_a_waiting_package_card_says_which_room_it_waits_on(bot: Harness) -> None:
    take(bot, request(room="hoo", customer="佐藤様", salesperson=SALES))
    view_id = bot.command()
    state = values(room="chapel", start="11:00", end="12:00")
    add_row(bot, view_id, state)
    assert bot.submit(view_id, state | row(1, "hoo", "12:30", "15:30")) == (200, {})
    post = bot.slack.wait_for("chat.postMessage")[0]
    assert "*2番手*（順番待ち: チャペル 1番手 · 鳳凰の間 2番手）" in text_of(post.body["blocks"])


def open_home(bot: Harness, user: str = sr.USER_ID) -> dict[str, Any]:
    before = len(bot.slack.calls_to("views.publish"))
    status, _, _ = bot.post(sr.app_home_opened_event(user))
    assert status == 200
    bot.slack.wait_for("views.publish", before + 1)
    home = bot.slack.home(user)
    assert home is not None
    return home


def test_the_package_preview_in_english(bot: Harness) -> None:
    take(bot, request(room="hoo", customer="佐藤様"))
    view_id = bot.command(
        "3/10 chapel 11:00-12:00 + 鳳凰の間 12:30-15:30 wedding Yamada", user=ENGLISH_USER
    )
    add = block(bot.slack.view(view_id), ids.ROWS_ACTIONS)["elements"][0]
    assert add["text"]["text"] == "+ Add a room"
    assert bot.preview_text(view_id) == (
        "チャペル 1st · 鳳凰の間 2nd → 2nd: the deadline starts once every room is 1st\n"
        "Waiting behind: 佐藤様 (wedding) until Mon 8 Mar (Tomobiki) 9:00"
    )


# -- the package as one, in the DMs --------------------------------------------------------------
def dms_to(bot: Harness, user: str) -> list[dict[str, Any]]:
    return [c.body for c in bot.slack.calls_to("chat.postMessage") if c.body["channel"] == user]


def test_a_package_behind_a_lapsed_hold_is_promoted_with_one_dm_naming_its_rooms(
    bot: Harness,
) -> None:
    asked = bot.clock[0]
    take(bot, request(room="hoo", customer="佐藤様", salesperson=SALES))
    mine = take(bot, package())
    assert mine.rank == 2
    bot.clock[0] = asked + timedelta(days=8)  # past 佐藤様's seven days
    assert bot.engine.sweep(bot.venue.id, now=bot.clock[0]).ok
    # 佐藤様's expiry, my promotion, the row naming 佐藤様's hold when mine queued (settled:
    # it is no 1st now, so nobody is told), and the two holds' card rows (this courier has
    # no cards to redraw).
    assert courier(bot).drain(bot.venue.id).sent == 5

    (promoted,) = dms_to(bot, sr.USER_ID)
    assert promoted["text"].startswith("1番手になりました:")
    assert "チャペル 11:00〜12:00 + 鳳凰の間 12:30〜15:30" in promoted["text"]
    assert hold_now(bot, mine.hold.id).is_first


def test_a_confirm_on_the_chapel_releases_a_package_whole_and_promotes_who_waited_behind_it(
    bot: Harness,
) -> None:
    chapel = take(bot, request(room="chapel", start="10:30", end="11:30", salesperson=SALES))
    mine = take(bot, package())  # chapel 2nd, 鳳凰の間 1st: the package is 2nd
    behind = take(bot, request(room="hoo", start="13:00", end="14:00", salesperson="U0SALES002"))
    assert (mine.rank, behind.rank) == (2, 2)
    home = open_home(bot, SALES)
    opens = len(bot.slack.calls_to("views.open"))
    button = sr.action(ids.CONFIRM, str(chapel.hold.id), block_id=ids.card_actions(chapel.hold.id))
    bot.post(sr.block_actions(actions=[button], view=home, user_id=SALES))
    dialog = bot.slack.wait_for("views.open", opens + 1)[-1]
    said = text_of(dialog.body["view"])
    assert f"#{mine.hold.id} 3/10(水・仏滅) チャペル 11:00〜12:00 + 鳳凰の間 12:30〜15:30" in said
    bot.post(sr.view_submission(view=bot.slack.view(dialog.response["view"]["id"]), user_id=SALES))
    bot.settle()

    assert hold_now(bot, mine.hold.id).status is Status.RELEASED
    assert [i.rank for i in hold_now(bot, mine.hold.id).items] == [None, None]
    assert hold_now(bot, behind.hold.id).is_first
    courier(bot).drain(bot.venue.id)
    (lost,) = dms_to(bot, sr.USER_ID)
    assert lost["text"].startswith("仮押さえが外れました（他の押さえが本予約）")
    assert "チャペル 11:00〜12:00 + 鳳凰の間 12:30〜15:30" in lost["text"]
    (promoted,) = dms_to(bot, "U0SALES002")
    assert f"#{behind.hold.id}" in promoted["text"]


def test_app_home_says_which_room_a_waiting_package_waits_on(bot: Harness) -> None:
    chapel = take(bot, request(room="chapel", start="10:30", end="11:30", salesperson=SALES))
    take(bot, package())
    said = text_of(open_home(bot)["blocks"])
    assert "*2番手（チャペル 2番手 · 鳳凰の間 1番手）* · 前: " in said
    assert f"#{chapel.hold.id} " in said
