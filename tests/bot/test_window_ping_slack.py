"""The window ping (開放日に知らせる) in Slack, over signed HTTP: a banquet refused because its
date's window is not open yet offers 「開放日に知らせる」 in the form; pressing it keeps the
request as the form has it; App Home lists it with 取り消す (its asker's alone to press, or a
manager's); when the window opens, the DM's 押さえる opens the form filled in."""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from bot import ids
from bot.notices import render_notice
from core.model import Venue
from core.notices import NoticeKind
from core.pings import PingStatus
from tests.bot.conftest import STRANGER, Harness, values
from tests.bot.samples import notice
from tests.support import slack_requests as sr
from tests.support.factories import JST

SATURDAY = date(2027, 9, 4)  # a wedding-priority day: banquets open 2027-06-06 00:00
OPENS = datetime(2027, 6, 6, 0, 0, tzinfo=JST)


def banquet(**fields: Any) -> dict[str, Any]:
    chosen = values(day=SATURDAY, start="18:00", end="21:00", kind="banquet", **fields)
    chosen[ids.GUESTS] = {ids.GUESTS: sr.text_value("80", "number_input")}
    return chosen


def element(blocks: list[dict[str, Any]], action_id: str) -> dict[str, Any]:
    for block in blocks:
        found = [block.get("accessory"), *(block.get("elements") or [])]
        for item in found:
            if isinstance(item, dict) and item.get("action_id") == action_id:
                return item
    raise AssertionError(f"no {action_id} in {json.dumps(blocks, ensure_ascii=False)[:400]}")


def open_home(bot: Harness, user: str = sr.USER_ID) -> dict[str, Any]:
    before = len(bot.slack.calls_to("views.publish"))
    status, _, _ = bot.post(sr.app_home_opened_event(user))
    assert status == 200
    bot.slack.wait_for("views.publish", before + 1)
    home = bot.slack.home(user)
    assert home is not None
    return home


def test_the_refusal_offers_the_ping_and_app_home_lists_it_until_dropped(bot: Harness) -> None:
    view_id = bot.command()
    chosen = banquet(customer="山田商事様")
    status, answer = bot.submit(view_id, chosen)
    assert status == 200 and answer["response_action"] == "update"
    shown = answer["view"]["blocks"]
    offer = element(shown, ids.PING_ASK)
    said = json.dumps(shown, ensure_ascii=False)
    assert "開放日に知らせる" in said and "2027/6/6" in said and "0:00" in said
    assert bot.engine.holds(bot.venue.id) == []  # refused: nothing held

    updates = len(bot.slack.calls_to("views.update"))
    body = sr.block_actions(
        actions=[sr.action(ids.PING_ASK, offer["value"], block_id=ids.PING_BLOCK)],
        view={**bot.slack.view(view_id), **answer["view"], "id": view_id},
        values=chosen,
    )
    status, _, _ = bot.post(body)
    assert status == 200
    bot.slack.wait_for("views.update", updates + 1)
    bot.settle()
    (ping,) = bot.engine.pings.listing(bot.venue.id)
    assert (ping.asker, ping.request.customer, ping.request.guests) == (
        sr.USER_ID,
        "山田商事様",
        80,
    )
    assert (ping.request.start_min, ping.request.kind, ping.opens_at) == (1080, "banquet", OPENS)
    kept = json.dumps(bot.slack.view(view_id)["blocks"], ensure_ascii=False)
    assert "DM でお知らせします" in kept

    home = open_home(bot)
    drop = element(home["blocks"], ids.PING_DROP)
    assert drop["value"] == str(ping.id)
    listed = json.dumps(home["blocks"], ensure_ascii=False)
    assert "開放日のお知らせ待ち" in listed and "山田商事様" in listed and "80名" in listed
    # someone else's click drops nothing and is told why
    clicked = sr.action(ids.PING_DROP, drop["value"])
    opens = len(bot.slack.calls_to("views.open"))
    status, _, _ = bot.post(sr.block_actions(actions=[clicked], view=home, user_id=STRANGER))
    assert status == 200
    told = bot.slack.wait_for("views.open", opens + 1)[-1]
    assert "依頼した人かマネージャー" in json.dumps(told.body, ensure_ascii=False)
    bot.settle()
    assert [p.id for p in bot.engine.pings.listing(bot.venue.id)] == [ping.id]
    again = sr.action(ids.PING_DROP, drop["value"])  # its own click (a new action_ts)
    status, _, _ = bot.post(sr.block_actions(actions=[again], view=home))
    assert status == 200
    bot.settle()
    assert bot.engine.pings.listing(bot.venue.id) == []
    (gone,) = bot.engine.pings.listing(bot.venue.id, everything=True)
    assert (gone.status, gone.dropped_by) == (PingStatus.DROPPED, sr.USER_ID)
    assert "開放日のお知らせ待ち" not in json.dumps(bot.slack.home(sr.USER_ID), ensure_ascii=False)


def test_a_refusal_for_a_taken_slot_offers_no_ping(bot: Harness) -> None:
    view_id = bot.command()
    status, answer = bot.submit(view_id, values(room="nowhere"))
    assert status == 200
    assert "開放日に知らせる" not in json.dumps(answer, ensure_ascii=False)


def test_the_dms_button_opens_the_form_filled_in_with_the_request(bot: Harness) -> None:
    venue: Venue = bot.venue
    req = banquet(customer="山田商事様")
    view_id = bot.command()
    bot.submit(view_id, req)
    body = sr.block_actions(
        actions=[sr.action(ids.PING_ASK, "ask", block_id=ids.PING_BLOCK)],
        view={**bot.slack.view(view_id), "id": view_id},
        values=req,
    )
    updates = len(bot.slack.calls_to("views.update"))
    assert bot.post(body)[0] == 200
    bot.slack.wait_for("views.update", updates + 1)
    bot.settle()
    sent = bot.engine.pings.deliver_due(venue.id, now=OPENS)
    assert isinstance(sent, list) and len(sent) == 1
    row = next(n for n in bot.engine.delivery.notices(venue.id) if n.kind == "window_open")
    dm = notice(NoticeKind.WINDOW_OPEN, row.payload)
    shown = render_notice(dm, tz=JST, locale="ja")
    button = element(shown.blocks, ids.PING_HOLD)
    assert button["value"] == str(sent[0].id) and button["text"]["text"] == "押さえる"

    opens = len(bot.slack.calls_to("views.open"))
    updates = len(bot.slack.calls_to("views.update"))
    click = sr.block_actions(
        actions=[sr.action(ids.PING_HOLD, button["value"])],
        message=sr.bot_message("1700000000.000100", blocks=shown.blocks),
        channel_id="D0DMCHAN01",
    )
    assert bot.post(click)[0] == 200
    opened = bot.slack.wait_for("views.open", opens + 1)[-1]
    bot.slack.wait_for("views.update", updates + 1)
    form = bot.slack.view(str(opened.response["view"]["id"]))
    initial = {b.get("block_id"): b["element"] for b in form["blocks"] if b["type"] == "input"}
    assert initial[ids.ROOM]["initial_option"]["value"] == "hoo"
    assert initial[ids.DATE]["initial_date"] == "2027-09-04"
    assert initial[ids.START]["initial_time"] == "18:00"
    assert initial[ids.END]["initial_time"] == "21:00"
    assert initial[ids.CUSTOMER]["initial_value"] == "山田商事様"
    assert initial[ids.GUESTS]["initial_value"] == "80"

    # a stranger's click (a crafted payload) opens nothing
    opens = len(bot.slack.calls_to("views.open"))
    stranger = sr.block_actions(
        actions=[sr.action(ids.PING_HOLD, button["value"])], user_id=STRANGER
    )
    posts = len(bot.slack.calls_to("chat.postMessage"))
    assert bot.post(stranger)[0] == 200
    told = bot.slack.wait_for("chat.postMessage", posts + 1)[-1]
    assert told.body["channel"] == STRANGER and "依頼した人" in told.body["text"]
    bot.settle()
    assert len(bot.slack.calls_to("views.open")) == opens
