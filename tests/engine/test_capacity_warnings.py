"""Guests over a room's capacity (issue 25, item 8), on PostgreSQL: a warning in the
preview and in the request's answer, one per room of a package, never a refusal; and on the
hold's channel card."""

from __future__ import annotations

import json
from dataclasses import replace
from zoneinfo import ZoneInfo

from bot.card_notices import render_card
from bot.preview import preview_line
from bot.texts.refusals import describe_warning
from core.engine import HoldEngine
from core.model import HoldRequest, ItemRequest, Venue
from core.results import Preview, RequestAnswer, WarningCode
from tests.support import factories
from tests.support.factories import NOW, minutes, request

TOKYO = ZoneInfo("Asia/Tokyo")


def seated(engine: HoldEngine) -> Venue:
    """鳳凰の間 seats 120, the chapel 60; 桜の間 does not say."""
    rooms = factories.rooms()
    rooms["hoo"] = replace(rooms["hoo"], capacity=120)
    rooms["chapel"] = replace(rooms["chapel"], capacity=60)
    return engine.save_venue(factories.venue(rooms=rooms), now=NOW)


def package(guests: int | None) -> HoldRequest:
    chapel = ItemRequest("chapel", minutes("09:00"), minutes("10:00"))
    return replace(request(room="hoo"), guests=guests, also=(chapel,))


def test_guests_over_a_rooms_capacity_warn_per_room_and_are_never_refused(
    engine: HoldEngine,
) -> None:
    venue = seated(engine)
    seen = engine.writes.preview(venue.id, package(100), now=NOW)
    assert isinstance(seen, Preview) and seen.rank == 1
    (warned,) = seen.warnings  # the chapel's 60, not the ballroom's 120
    assert warned.code is WarningCode.OVER_CAPACITY
    assert (warned.room, warned.capacity, warned.guests) == ("chapel", 60, 100)
    said = describe_warning(warned, TOKYO, "ja")
    assert said.startswith("チャペルの定員は着席60名です（100名で押さえます）")
    shown = preview_line(seen, TOKYO, "ja", ("鳳凰の間", "チャペル"))  # the /hold form's
    assert shown.splitlines()[-1] == f":warning: {said}"

    made = engine.writes.request(venue.id, package(200), now=NOW)
    assert isinstance(made, RequestAnswer) and made.rank == 1  # taken all the same
    over = [(w.room, w.capacity) for w in made.warnings if w.code is WarningCode.OVER_CAPACITY]
    assert over == [("hoo", 120), ("chapel", 60)]

    card = render_card(
        made.hold,
        tz=TOKYO,
        locale="ja",
        extend=True,
        now=NOW,
        capacities={"hoo": 120, "chapel": 60},
    )
    assert "鳳凰の間の定員は着席120名です（200名）" in json.dumps(card.blocks, ensure_ascii=False)
    assert "チャペルの定員は着席60名です（200名）" in json.dumps(card.blocks, ensure_ascii=False)
    plain = render_card(made.hold, tz=TOKYO, locale="ja", extend=True, now=NOW)
    assert "定員" not in json.dumps(
        plain.blocks, ensure_ascii=False
    )  # no capacities given: nothing to warn of


def test_within_capacity_or_without_one_or_without_guests_nothing_is_said(
    engine: HoldEngine,
) -> None:
    venue = seated(engine)
    for asked in (
        package(60),  # exactly the chapel's
        package(None),  # no guest count
        replace(request(room="sakura"), guests=500),  # 桜の間 does not say
    ):
        made = engine.writes.request(venue.id, asked, now=NOW)
        assert isinstance(made, RequestAnswer)
        assert not [w for w in made.warnings if w.code is WarningCode.OVER_CAPACITY]
