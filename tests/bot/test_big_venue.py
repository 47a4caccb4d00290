"""A venue of 300 rooms with 40-character names (120 of them partitions of one ballroom): every
room can be chosen, the room a quick form names is the menu's initial option, App Home stays
within Slack's limits. The stand-in refuses views as Slack does (100 options a menu, an
initial option that is among the options)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot import ids
from bot.form import Form
from bot.metadata import Meta
from bot.views.hold_modal import MAX_MENU_ROOMS, hold_modal
from core.engine import HoldEngine
from core.model import Policy, Room, Venue
from core.results import RequestAnswer
from tests.bot.conftest import Harness, values
from tests.support import factories
from tests.support import slack_requests as sr
from tests.support.factories import NOW, request

PARTITIONS = 120
OTHERS = 179


def name(kind: str, i: int) -> str:
    long = "グランドボールルーム・ガーデンテラス・スカイラウンジ・バンケットホール"
    return f"{kind}{i:03d} {long}"[:40]


def big_rooms(partitions: int = PARTITIONS, others: int = OTHERS) -> dict[str, Room]:
    parts = [f"p{i:03d}" for i in range(partitions)]
    rooms = [Room("grand", name("大宴会場", 0), frozenset(parts), 60, 0)]
    rooms += [
        Room(f"r{i:03d}", name("分割", i), frozenset({p}), 60, 1 + i) for i, p in enumerate(parts)
    ]
    rooms += [
        Room(f"o{i:03d}", name("個室", i), frozenset({f"q{i:03d}"}), 60, 1 + partitions + i)
        for i in range(others)
    ]
    assert all(len(r.name) == 40 for r in rooms)
    return {r.id: r for r in rooms}


@pytest.fixture
def venue(engine: HoldEngine) -> Venue:
    """300 rooms; a 60-day horizon keeps the ledger rows made for it few."""
    big = factories.venue(rooms=big_rooms(), policy=Policy(horizon_days=60))
    return engine.save_venue(big, now=NOW)


def room_element(view: dict[str, Any]) -> dict[str, Any]:
    block = next(b for b in view["blocks"] if b.get("block_id") == ids.ROOM)
    return dict(block["element"])


def suggest(bot: Harness, view_id: str, typed: str) -> list[dict[str, Any]]:
    body = sr.block_suggestion(ids.ROOM, typed, block_id=ids.ROOM, view=bot.slack.view(view_id))
    status, _, answer = bot.post(body)
    assert status == 200, answer
    return list(json.loads(answer)["option_groups"])


def values_of(groups: list[dict[str, Any]]) -> list[str]:
    return [o["value"] for g in groups for o in g["options"]]


def test_a_quick_form_naming_room_104_opens_a_modal_slack_accepts_with_it_chosen(
    bot: Harness,
) -> None:
    view_id = bot.command("r104 3/10 11:00-15:00 婚礼 山田様")
    update = bot.slack.calls_to("views.update")[-1]
    assert update.ok, update.response  # Slack would refuse an initial option not offered
    element = room_element(bot.slack.view(view_id))
    assert element["type"] == "external_select"
    assert element["initial_option"]["value"] == "r104"
    assert element["min_query_length"] == 0
    assert bot.preview_text(view_id).startswith("1番手として受付")


def test_every_room_can_be_found_by_typing_and_a_submission_holds_it(bot: Harness) -> None:
    view_id = bot.command()
    first = suggest(bot, view_id, "")
    assert len(values_of(first)) == MAX_MENU_ROOMS
    assert [g["label"]["text"] for g in first] == ["全体", "分割"]  # venue-file order

    found = suggest(bot, view_id, "r10")
    assert sorted(values_of(found)) == [f"r{i:03d}" for i in range(100, 110)]
    assert values_of(suggest(bot, view_id, "Ｒ１１９")) == ["r119"]  # full width, any case
    assert values_of(suggest(bot, view_id, "個室178")) == ["o178"]
    assert suggest(bot, view_id, "<!channel>") == []
    for typed in ("r", "分割", "グランド"):
        assert len(values_of(suggest(bot, view_id, typed))) <= MAX_MENU_ROOMS

    status, answer = bot.submit(view_id, values(room="o178"))
    assert (status, answer) == (200, {})
    (hold,) = bot.engine.holds(bot.venue.id)  # type: ignore[misc]
    assert hold.room_id == "o178"


def test_app_home_with_many_holds_in_a_big_venue_stays_within_100_blocks(
    bot: Harness,
) -> None:
    for i in range(45):
        held = bot.engine.request(
            bot.venue.id,
            request(room=f"o{i:03d}", customer=f"{'長い名前' * 10}{i}様", salesperson=sr.USER_ID),
            now=NOW,
        )
        assert isinstance(held, RequestAnswer)
    for i in range(20):  # waiting behind someone else's 1st hold
        bot.engine.request(bot.venue.id, request(room=f"r{i:03d}"), now=NOW)
        bot.engine.request(bot.venue.id, request(room=f"r{i:03d}", salesperson=sr.USER_ID), now=NOW)
    assert bot.post(sr.app_home_opened_event(sr.USER_ID))[0] == 200
    published = bot.slack.wait_for("views.publish")[0]
    assert published.ok, published.response
    assert len(published.body["view"]["blocks"]) <= 100


def test_a_venue_whose_rooms_fit_in_a_menu_gets_them_all_in_one() -> None:
    rooms = big_rooms(partitions=90, others=9)  # 100 rooms: the most a menu holds
    meta = Meta(channel="C1", locale="ja")
    view = hold_modal(factories.venue(rooms=rooms), Form(room_id="r089"), meta, preview="…")
    element = room_element(view.to_dict())
    assert element["type"] == "static_select"
    assert sorted(values_of(element["option_groups"])) == sorted(rooms)
    assert element["initial_option"]["value"] == "r089"


def test_a_further_room_row_finds_rooms_as_typed_too(bot: Harness) -> None:
    view_id = bot.command("3/10 r104 11:00-12:00 + o007 12:30-15:30 婚礼 山田様")
    view = bot.slack.view(view_id)
    row = next(b for b in view["blocks"] if b.get("block_id") == ids.item_room(1))
    assert row["element"]["type"] == "external_select"
    assert row["element"]["initial_option"]["value"] == "o007"
    body = sr.block_suggestion(
        ids.item_room(1), "個室012", block_id=ids.item_room(1), view=bot.slack.view(view_id)
    )
    status, _, answer = bot.post(body)
    assert status == 200, answer
    assert values_of(json.loads(answer)["option_groups"]) == ["o012"]
