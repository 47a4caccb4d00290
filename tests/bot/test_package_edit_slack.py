"""A package edited in Slack (issue 25, items 1 and 9), through the stand-in and signed
requests to the real endpoint: the edit form shows every room as a row, with + 部屋を追加 and
each further row's remove button; its preview says keep or swap; a submission changes every
room at once, adds one, removes one, and guests, contact, the details and the booking number
stay. ``pytest -s`` prints the transcript."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from typing import Any

from bot import ids
from bot.texts.refusals import describe
from core.booking import booking_number
from core.model import Hold, HoldEdit, ItemRequest
from core.results import Code, EditAnswer, Refused, RequestAnswer
from tests.bot.conftest import Harness, values
from tests.bot.packages import add_row, block, choose, has_block, remove_row, row, row_keys
from tests.bot.test_edit import open_edit
from tests.support import slack_requests as sr
from tests.support.factories import MANAGER, request
from tests.support.transcript import Transcript

DAY = date(2027, 3, 13)
QUICK = "3/13 チャペル 11:00-12:00 + 鳳凰 12:30-15:30 婚礼 山田様 80名"


def state(first: tuple[str, str, str], *rows: tuple[int, str, str, str]) -> Any:
    """The form as Slack sends it: its first room, further rows (key, room, start, end), the
    guests and estimate as prefilled, and a contact (the /hold form only)."""
    filled = values(room=first[0], day=DAY, start=first[1], end=first[2])
    for key, room, start, end in rows:
        filled |= row(key, room, start, end)
    filled[ids.GUESTS] = {ids.GUESTS: sr.text_value("80", "number_input")}
    filled[ids.ESTIMATE] = {ids.ESTIMATE: sr.text_value("3500000", "number_input")}
    return filled


def live(bot: Harness) -> Hold:
    (found,) = [h for h in bot.engine.holds(bot.venue.id) if h.status.value == "tentative"]
    return found


def rooms_of(bot: Harness, hold: Hold) -> list[tuple[str, str, str]]:
    tz = bot.venue.tz
    return [
        (i.room_id, i.start_at.astimezone(tz).strftime("%H:%M"),
         i.end_at.astimezone(tz).strftime("%H:%M"))
        for i in hold.items
    ]  # fmt: skip


def kept(bot: Harness, hold: Hold, number: str) -> None:
    """What the booking carries, the same after every edit."""
    assert (hold.guests, hold.contact, hold.details.estimate) == (80, "090-1111-2222", 3_500_000)
    assert booking_number(hold.enquiry_id) == number


def submitted(bot: Harness, t: Transcript, form_id: str, filled: Any) -> dict[str, Any]:
    posts = len(bot.slack.calls_to("chat.postMessage"))
    status, answer = bot.submit(form_id, filled)
    assert (status, answer) == (200, {}), answer
    post = bot.slack.wait_for("chat.postMessage", posts + 1)[-1]
    bot.settle()
    t.message("#sales", post.body)
    return {"channel": post.response["channel"], "ts": post.response["ts"], **post.body}


def test_a_package_edited_to_add_a_room_then_remove_one_keeps_guests_contact_and_number(
    bot: Harness,
) -> None:
    t = Transcript()
    t.does(f"/hold {QUICK}")
    view_id = bot.command(QUICK)
    made_state = state(("chapel", "11:00", "12:00"), (1, "hoo", "12:30", "15:30"))
    made_state[ids.CONTACT] = {ids.CONTACT: sr.text_value("090-1111-2222")}
    assert bot.submit(view_id, made_state) == (200, {})
    post = bot.slack.wait_for("chat.postMessage")[0]
    t.message("#sales", post.body)
    bot.settle()
    made = live(bot)
    number = booking_number(made.enquiry_id)
    assert rooms_of(bot, made) == [("chapel", "11:00", "12:00"), ("hoo", "12:30", "15:30")]

    # 1. Every room is a row of the edit form; both change in one submission, in place.
    t.does(f"clicks 変更 on #{made.id}")
    form_id = open_edit(bot, made, post.response["channel"], post.response["ts"])
    form = bot.slack.view(form_id)
    t.view(form)
    assert not has_block(form, ids.EDIT_ITEM) and has_block(form, ids.ROWS_ACTIONS)
    assert row_keys(form) == [1]
    assert block(form, ids.item_room(1))["element"]["initial_option"]["value"] == "hoo"
    assert block(form, ids.item_start(1))["element"]["initial_time"] == "12:30"
    longer = state(("chapel", "10:30", "12:00"), (1, "hoo", "12:30", "16:00"))
    assert choose(bot, form_id, longer, ids.item_end(1)).startswith("順位はそのまま")
    t.does("chapel 10:30〜12:00, 鳳凰 12:30〜16:00, presses 変更する")
    card = submitted(bot, t, form_id, longer)
    now = live(bot)
    assert now.id == made.id  # nobody's place taken: the same hold
    assert rooms_of(bot, now) == [("chapel", "10:30", "12:00"), ("hoo", "12:30", "16:00")]
    kept(bot, now, number)

    # 2. + 部屋を追加: a third room; a new arrival (a swap), the same booking.
    t.does(f"clicks 変更 on #{now.id}, + 部屋を追加: 桜の間 16:30〜18:00")
    form_id = open_edit(bot, now, card["channel"], card["ts"])
    add_row(bot, form_id, longer)
    keys = row_keys(bot.slack.view(form_id))
    assert keys == [1, 2]
    added = state(("chapel", "10:30", "12:00"), (1, "hoo", "12:30", "16:00"),
                  (2, "sakura", "16:30", "18:00"))  # fmt: skip
    line = choose(bot, form_id, added, ids.item_end(2))
    assert "新しい押さえ" in line, line
    t.view(bot.slack.view(form_id), added)
    card = submitted(bot, t, form_id, added)
    three = live(bot)
    assert three.id != now.id
    assert [r[0] for r in rooms_of(bot, three)] == ["chapel", "hoo", "sakura"]
    kept(bot, three, number)

    # 3. Its remove button: the reception goes; again the same booking.
    t.does(f"clicks 変更 on #{three.id}, removes 鳳凰の間")
    form_id = open_edit(bot, three, card["channel"], card["ts"])
    form = bot.slack.view(form_id)
    assert row_keys(form) == [1, 2]
    remove_row(bot, form_id, added, 1)
    fewer = state(("chapel", "10:30", "12:00"), (2, "sakura", "16:30", "18:00"))
    t.view(bot.slack.view(form_id), fewer)
    card = submitted(bot, t, form_id, fewer)
    two = live(bot)
    assert rooms_of(bot, two) == [("chapel", "10:30", "12:00"), ("sakura", "16:30", "18:00")]
    kept(bot, two, number)
    said = json.dumps([c.body for c in bot.slack.calls_to("chat.postMessage")], ensure_ascii=False)
    assert "090-1111-2222" not in said  # the channel never sees the contact
    assert said.count(number) >= 4  # every card names the booking
    print("\n--- Slack transcript: a package edited to add a room, then remove one ---")
    print(t)


def test_a_confirmed_bookings_rooms_are_not_added_or_removed_but_their_times_may_change(
    bot: Harness,
) -> None:
    asked = replace(request(room="chapel", start="11:00", end="12:00"),
                    also=(ItemRequest("hoo", 750, 930),))  # fmt: skip
    held = bot.engine.request(bot.venue.id, asked, now=bot.clock[0])
    assert isinstance(held, RequestAnswer)
    assert bot.engine.confirm(bot.venue.id, held.hold.id, actor=MANAGER, now=bot.clock[0]).ok
    hold = bot.engine.hold(bot.venue.id, held.hold.id)
    assert isinstance(hold, Hold)
    one_room = (ItemRequest("chapel", 660, 720),)
    edit = HoldEdit(hold.id, hold.version, MANAGER, items=one_room)
    refused = bot.engine.writes.edit(bot.venue.id, edit, now=bot.clock[0])
    assert isinstance(refused, Refused) and refused.code is Code.ROOMS_OF_CONFIRMED
    said = describe(refused, bot.venue.tz, "ja")
    assert "本予約の部屋は増やしたり減らしたりできません" in said
    later = (ItemRequest("chapel", 600, 660), ItemRequest("hoo", 750, 930))
    moved = bot.engine.writes.edit(bot.venue.id, replace(edit, items=later), now=bot.clock[0])
    assert isinstance(moved, EditAnswer) and moved.kept_place
