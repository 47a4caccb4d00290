"""A package edited room by room in Slack (issue 25, items 1 and 9), through the stand-in and
signed requests to the real endpoint: the edit form of a package names its rooms, another
one chosen shows that room's times, and each submitted change keeps guests, contact, the
details and the booking number. ``pytest -s`` prints the transcript."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from bot import ids
from core.booking import booking_number
from core.model import Hold
from tests.bot.conftest import Harness, values
from tests.bot.packages import block, row
from tests.bot.test_edit import open_edit
from tests.support import slack_requests as sr
from tests.support.transcript import Transcript

DAY = date(2027, 3, 13)
QUICK = "3/13 チャペル 11:00-12:00 + 鳳凰 12:30-15:30 婚礼 山田様 80名"


def state(chapel: tuple[str, str], hoo: tuple[str, str]) -> Any:
    """The /hold form of the package as Slack sends it (its rooms, guests and contact)."""
    filled = {**values(room="chapel", day=DAY, start=chapel[0], end=chapel[1]),
              **row(1, "hoo", *hoo)}  # fmt: skip
    filled[ids.GUESTS] = {ids.GUESTS: sr.text_value("80", "number_input")}
    filled[ids.CONTACT] = {ids.CONTACT: sr.text_value("090-1111-2222")}
    filled[ids.ESTIMATE] = {ids.ESTIMATE: sr.text_value("3500000", "number_input")}
    return filled


def edited(room: str, start: str, end: str) -> Any:
    """The edit form's state: the room it shows, with new times (details as prefilled)."""
    filled = values(room=room, day=DAY, start=start, end=end)
    filled[ids.GUESTS] = {ids.GUESTS: sr.text_value("80", "number_input")}
    filled[ids.ESTIMATE] = {ids.ESTIMATE: sr.text_value("3500000", "number_input")}
    return filled


def pick(bot: Harness, view_id: str, room: str) -> dict[str, Any]:
    """Choose which room of the package the form changes; the form redrawn for it."""
    updates = len(bot.slack.calls_to("views.update"))
    action = sr.action(
        ids.EDIT_ITEM,
        block_id=ids.EDIT_ITEM,
        action_type="static_select",
        selected_option=sr.option(room),
    )
    body = sr.block_actions(actions=[action], view=bot.slack.view(view_id))
    status, _, _ = bot.post(body)
    assert status == 200
    bot.slack.wait_for("views.update", updates + 1)
    return bot.slack.view(view_id)


def live(bot: Harness) -> Hold:
    (found,) = [h for h in bot.engine.holds(bot.venue.id) if h.status.value == "tentative"]
    return found


def test_a_package_edited_room_by_room_keeps_guests_contact_and_its_number(bot: Harness) -> None:
    t = Transcript()
    t.does(f"/hold {QUICK}")
    view_id = bot.command(QUICK)
    status, answer = bot.submit(view_id, state(("11:00", "12:00"), ("12:30", "15:30")))
    assert (status, answer) == (200, {})
    post = bot.slack.wait_for("chat.postMessage")[0]
    t.message("#sales", post.body)
    channel, ts = post.response["channel"], post.response["ts"]
    bot.settle()
    made = live(bot)
    number = booking_number(made.enquiry_id)
    assert [i.room_id for i in made.items] == ["chapel", "hoo"] and made.guests == 80

    for room, start, end in (("chapel", "10:30", "12:00"), ("hoo", "12:30", "16:00")):
        hold = live(bot)
        t.does(f"clicks 変更 on #{hold.id}, chooses {room}, {start}〜{end}")
        form_id = open_edit(bot, hold, channel, ts)
        form = bot.slack.view(form_id)
        assert block(form, ids.EDIT_ITEM)["accessory"]["initial_option"]["value"] == "chapel"
        if room != "chapel":
            form = pick(bot, form_id, room)
            assert block(form, ids.EDIT_ITEM)["accessory"]["initial_option"]["value"] == room
            assert block(form, ids.START)["element"]["initial_time"] == "12:30"
        t.view(form)
        status, answer = bot.submit(form_id, edited(room, start, end))
        assert (status, answer) == (200, {}), answer
        bot.settle()
        now = live(bot)
        tz = bot.venue.tz
        times = {
            i.room_id: (i.start_at.astimezone(tz).strftime("%H:%M"),
                        i.end_at.astimezone(tz).strftime("%H:%M"))
            for i in now.items
        }  # fmt: skip
        assert times[room] == (start, end)
        assert times["chapel"] == ("10:30", "12:00")  # the first change stays
        assert (now.guests, now.contact, now.details.estimate) == (80, "090-1111-2222", 3_500_000)
        assert booking_number(now.enquiry_id) == number
    said = json.dumps(bot.slack.calls_to("chat.postMessage")[-1].body, ensure_ascii=False)
    t.message("#sales", bot.slack.calls_to("chat.postMessage")[-1].body)
    assert "090-1111-2222" not in said  # the channel never sees the contact
    print(t)
