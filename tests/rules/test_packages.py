"""Packages as pure rules: each item's rank, the hold's, who moves up; and a hold's items
read back from what older versions wrote (no database)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta

from core.model import Hold, HoldItem, ItemRequest, Kind, Status
from core.results import Code, Refused
from core.rules.promotion import new_ranks
from core.rules.requests import Blocked, Checked, Occupant, Ranked, check_request, decide_rank
from core.rules.spans import Span
from core.serialize import hold_from_json, hold_to_json
from tests.support import factories
from tests.support.factories import DAY, JST, NOW

VENUE = factories.venue()


def at(clock: str) -> datetime:
    hours, minutes = (int(x) for x in clock.split(":"))
    return datetime(DAY.year, DAY.month, DAY.day, tzinfo=JST) + timedelta(
        hours=hours, minutes=minutes
    )


def occupant(hold_id: int, parts: set[str], start: str, end: str, **flags: bool) -> Occupant:
    span = Span(frozenset(parts), at(start), at(end))
    return Occupant(hold_id, 1, span, flags.get("confirmed", False), flags.get("first", False))


def wedding() -> Checked:
    req = replace(
        factories.request(room="hoo-a", start="12:30", end="15:30"),
        also=(ItemRequest("chapel", 660, 720),),
    )
    checked = check_request(req, VENUE, NOW)
    assert isinstance(checked, Checked)
    return checked


def test_each_item_ranks_on_its_own_and_the_hold_takes_the_largest() -> None:
    ahead_on_chapel = occupant(1, {"C1"}, "11:00", "13:00", first=True)
    ranked = decide_rank(wedding(), [ahead_on_chapel], VENUE, NOW)
    assert isinstance(ranked, Ranked)
    assert (ranked.rank, ranked.item_ranks, ranked.expires_at, ranked.ahead) == (
        2,
        (1, 2),
        None,
        (1,),
    )
    alone = decide_rank(wedding(), [], VENUE, NOW)
    assert isinstance(alone, Ranked) and alone.expires_at == NOW + timedelta(days=7)


def test_a_confirmed_hold_on_any_item_refuses_the_package_naming_that_room() -> None:
    second_full = [
        occupant(1, {"A1"}, "12:00", "14:00", first=True),
        occupant(2, {"C1"}, "11:30", "12:30", confirmed=True),
    ]
    blocked = decide_rank(wedding(), second_full, VENUE, NOW)
    assert blocked == Blocked(Code.CONFIRMED_CONFLICT, holders=(2,), room="chapel", in_way=(1, 2))
    two_ahead = [
        occupant(1, {"C1"}, "11:00", "13:00", first=True),
        occupant(2, {"C1"}, "11:00", "13:00"),
    ]
    assert decide_rank(wedding(), two_ahead, VENUE, NOW) == Blocked(
        Code.RANK_TOO_LOW, holders=(1,), rank=3, limit=2, room="chapel", in_way=(1, 2)
    )


def _package(hold_id: int, ranks: tuple[int, int]) -> Hold:
    hall = HoldItem(
        "hoo-a", "鳳凰A", frozenset({"A1"}), at("12:30"), at("15:30"), at("16:30"), ranks[0]
    )
    chapel = HoldItem(
        "chapel", "チャペル", frozenset({"C1"}), at("11:00"), at("12:00"), at("13:00"), ranks[1]
    )
    base = factories.request()
    return Hold(
        hold_id, "v", "hoo-a", "鳳凰A", hall.parts, DAY, hall.start_at, hall.end_at, hall.span_end,
        Kind.WEDDING, base.customer, "", base.salesperson, base.creator, Status.TENTATIVE,
        max(ranks), None, 0, NOW, NOW, enquiry_id=hold_id, items=(hall, chapel),
    )  # fmt: skip


def test_a_package_on_the_last_day_there_is_is_refused_before_its_rooms_are_timed() -> None:
    """Its first room ends that evening; another runs past midnight into year 10000."""
    req = replace(
        factories.request(room="hoo-a", day=date(9999, 12, 31), start="12:00", end="15:00"),
        also=(ItemRequest("chapel", 22 * 60, 26 * 60),),
    )
    refused = check_request(req, VENUE, NOW)
    assert isinstance(refused, Refused)
    assert (refused.code, refused.field, refused.room) == (Code.BEYOND_HORIZON, "date", None)


def test_a_package_moves_up_only_when_its_last_waiting_item_does() -> None:
    waiting = _package(3, (2, 2))
    on_hall = occupant(1, {"A1"}, "12:00", "16:00", first=True)
    on_chapel = occupant(2, {"C1"}, "11:00", "12:30", first=True)
    around = [
        on_hall,
        on_chapel,
        Occupant(3, 1, Span(frozenset({"A1"}), at("12:30"), at("16:30")), False, False),
    ]
    half = new_ranks([waiting], around, gone={1})
    assert [(m.hold.id, m.item_ranks, m.rank) for m in half] == [(3, (1, 2), 2)]
    both = new_ranks([waiting], around, gone={1, 2})
    assert [(m.hold.id, m.item_ranks, m.rank) for m in both] == [(3, (1, 1), 1)]
    assert new_ranks([waiting], around, gone=set()) == []


def test_a_hold_written_before_packages_reads_as_one_item() -> None:
    hold = _package(4, (1, 1))
    payload = hold_to_json(hold)
    assert hold_from_json(payload) == hold
    old = {k: v for k, v in payload.items() if k not in ("items", "enquiry_id")}
    one = hold_from_json(old)
    assert [(i.room_id, i.start_at, i.span_end, i.rank) for i in one.items] == [
        ("hoo-a", at("12:30"), at("16:30"), 1)
    ]
    assert one.left(Status.RELEASED, NOW).items[0].rank is None
