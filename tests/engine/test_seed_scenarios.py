"""The seed's seven tests (seeds/000_*), as scenarios on the real engine and PostgreSQL."""

from __future__ import annotations

from datetime import date, timedelta

from core.engine import HoldEngine
from core.model import Kind, Status, Venue
from core.results import Code, ConfirmAnswer, Refused, RequestAnswer, Swept
from tests.support.factories import NOW, SALES, decision_dms, later, request

LATER = date(2027, 3, 31)  # far enough that deadlines are not capped at the event's start


def accepted(result: RequestAnswer | Refused) -> RequestAnswer:
    assert isinstance(result, RequestAnswer), result
    return result


def outbox_kinds(engine: HoldEngine, venue: Venue) -> list[tuple[str, int | None]]:
    return sorted((n.kind, n.hold_id) for n in decision_dms(engine.notices(venue.id)))


def test_same_room_and_time_takes_a_first_and_a_second_and_refuses_a_third(
    engine: HoldEngine, venue: Venue
) -> None:
    """同じ部屋・同じ時間は、1番手・2番手まで受けて、3件目は断る"""
    first = accepted(engine.request(venue.id, request(), now=NOW))
    second = accepted(engine.request(venue.id, request(), now=NOW))
    third = engine.request(venue.id, request(), now=NOW)

    assert (first.rank, second.rank) == (1, 2)
    assert first.expires_at == NOW + timedelta(days=7)
    assert second.expires_at is None
    assert second.ahead == (first.hold,)
    assert isinstance(third, Refused)
    assert third.code is Code.RANK_TOO_LOW
    assert (third.rank, third.limit) == (3, 2)
    assert [h.id for h in third.holders] == [first.hold.id]


def test_halves_are_each_first_and_the_whole_room_waits_behind_both(
    engine: HoldEngine, venue: Venue
) -> None:
    """分割した部屋は別々に1番手になれるが、全体の押さえは両方の後ろに付く"""
    a = accepted(engine.request(venue.id, request(room="hoo-a"), now=NOW))
    b = accepted(engine.request(venue.id, request(room="hoo-b"), now=NOW))
    whole = accepted(engine.request(venue.id, request(room="hoo"), now=NOW))

    assert (a.rank, b.rank, whole.rank) == (1, 1, 2)
    assert {h.id for h in whole.ahead} == {a.hold.id, b.hold.id}
    # The seed's "count + 1" would say 3 and refuse; a second whole-room hold is the one refused.
    again = engine.request(venue.id, request(room="hoo"), now=NOW)
    assert isinstance(again, Refused)
    assert again.code is Code.RANK_TOO_LOW


def test_whole_room_after_two_half_holds_at_different_times_is_still_second(
    engine: HoldEngine, venue: Venue
) -> None:
    accepted(engine.request(venue.id, request(room="hoo-a", start="09:00", end="11:00"), now=NOW))
    accepted(engine.request(venue.id, request(room="hoo-a", start="17:00", end="20:00"), now=NOW))
    whole = engine.request(venue.id, request(room="hoo", start="08:00", end="22:00"), now=NOW)
    assert accepted(whole).rank == 2


def test_turnover_of_sixty_minutes_must_be_left_free(engine: HoldEngine, venue: Venue) -> None:
    """転換の60分を空けないと重なりとみなす"""
    accepted(engine.request(venue.id, request(start="11:00", end="14:00"), now=NOW))

    too_close = accepted(engine.request(venue.id, request(start="14:59", end="17:00"), now=NOW))
    assert too_close.rank == 2
    assert engine.release(venue.id, too_close.hold.id, actor=SALES, now=NOW).ok

    just_free = accepted(engine.request(venue.id, request(start="15:00", end="18:00"), now=NOW))
    before = accepted(engine.request(venue.id, request(start="08:00", end="10:00"), now=NOW))
    assert just_free.rank == 1  # half-open: 14:00 + 60 min touches 15:00
    assert before.rank == 1  # 10:00 + 60 min ends exactly at 11:00


def test_only_a_first_hold_within_its_deadline_confirms_and_the_second_is_told(
    engine: HoldEngine, venue: Venue
) -> None:
    """本予約にできるのは期限内の1番手だけ。決まったら2番手を外して知らせる"""
    first = accepted(engine.request(venue.id, request(), now=NOW))
    second = accepted(engine.request(venue.id, request(salesperson="U0SALES002"), now=NOW))

    not_first = engine.confirm(venue.id, second.hold.id, actor="U0SALES002", now=NOW)
    assert isinstance(not_first, Refused)
    assert not_first.code is Code.NOT_FIRST

    deadline = first.expires_at
    assert deadline is not None
    too_late = engine.confirm(venue.id, first.hold.id, actor=SALES, now=deadline)
    assert isinstance(too_late, Refused)
    assert too_late.code is Code.DEADLINE_PASSED

    done = engine.confirm(venue.id, first.hold.id, actor=SALES, now=deadline - timedelta(seconds=1))
    assert isinstance(done, ConfirmAnswer)
    assert done.hold.status is Status.CONFIRMED
    assert [h.id for h in done.released] == [second.hold.id]
    assert done.released[0].status is Status.RELEASED
    assert done.promoted == ()
    assert outbox_kinds(engine, venue) == [("lost", second.hold.id)]
    lost = decision_dms(engine.notices(venue.id))[0]
    assert lost.recipient == "U0SALES002"
    assert lost.payload["winner"]["id"] == first.hold.id


def test_when_a_first_lapses_the_second_moves_up_with_a_deadline_from_then(
    engine: HoldEngine, venue: Venue
) -> None:
    """1番手の期限が切れたら、2番手を繰り上げて、その時点から期限を付ける"""
    first = accepted(engine.request(venue.id, request(day=LATER, kind=Kind.BANQUET), now=NOW))
    second = accepted(engine.request(venue.id, request(day=LATER, kind=Kind.WEDDING), now=NOW))
    assert first.expires_at == NOW + timedelta(days=3)

    sweep_at = later(days=3, minutes=1)
    swept = engine.sweep(venue.id, now=sweep_at)

    assert isinstance(swept, Swept)
    assert swept.expired == (first.hold.id,)
    assert swept.promoted == (second.hold.id,)
    promoted = engine.hold(venue.id, second.hold.id)
    assert not isinstance(promoted, Refused)
    assert promoted.rank == 1
    assert promoted.expires_at == sweep_at + timedelta(days=7)
    assert outbox_kinds(engine, venue) == [
        ("expired", first.hold.id),
        ("promoted", second.hold.id),
    ]


def test_whole_room_moves_up_only_when_both_halves_are_gone(
    engine: HoldEngine, venue: Venue
) -> None:
    """全体の押さえは、分割の押さえが両方なくなるまで繰り上がらない"""
    a = accepted(engine.request(venue.id, request(room="hoo-a", day=LATER), now=NOW))
    b = accepted(
        engine.request(venue.id, request(room="hoo-b", day=LATER, kind=Kind.BANQUET), now=NOW)
    )
    whole = accepted(engine.request(venue.id, request(room="hoo", day=LATER), now=NOW))

    after_b = engine.sweep(venue.id, now=later(days=3, minutes=1))  # the banquet half lapses
    assert isinstance(after_b, Swept)
    assert (after_b.expired, after_b.promoted) == ((b.hold.id,), ())
    still = engine.hold(venue.id, whole.hold.id)
    assert not isinstance(still, Refused)
    assert (still.rank, still.expires_at) == (2, None)

    released = engine.release(venue.id, a.hold.id, actor=SALES, now=later(days=4))
    assert not isinstance(released, Refused)
    assert [h.id for h in released.promoted] == [whole.hold.id]
    assert released.promoted[0].expires_at == later(days=4) + timedelta(days=7)


def test_weekend_banquets_beyond_ninety_days_are_refused_but_weddings_taken(
    engine: HoldEngine, venue: Venue
) -> None:
    """土日の一般宴会は、90日より先の日付では受けない（婚礼は受ける）"""
    saturday = date(2027, 6, 5)  # 96 days after NOW
    banquet = engine.request(venue.id, request(day=saturday, kind=Kind.BANQUET), now=NOW)
    wedding = engine.request(venue.id, request(day=saturday, kind=Kind.WEDDING), now=NOW)
    weekday = engine.request(venue.id, request(day=date(2027, 6, 9), kind=Kind.BANQUET), now=NOW)

    assert isinstance(banquet, Refused)
    assert banquet.code is Code.BANQUET_NOT_OPEN
    assert banquet.opens_at is not None
    assert banquet.opens_at.isoformat() == "2027-03-07T00:00:00+09:00"
    assert accepted(wedding).rank == 1
    assert accepted(weekday).rank == 1
    # From the opening midnight on, the banquet is taken (as 2nd, behind the wedding).
    opened = engine.request(
        venue.id, request(day=saturday, kind=Kind.BANQUET), now=banquet.opens_at
    )
    assert accepted(opened).rank == 2


def test_a_deadline_never_falls_after_the_event_starts(engine: HoldEngine, venue: Venue) -> None:
    soon = accepted(engine.request(venue.id, request(day=date(2027, 3, 3)), now=NOW))
    assert soon.expires_at == soon.hold.start_at
    assert soon.hold.start_at.isoformat() == "2027-03-03T02:00:00+00:00"  # 11:00 in Tokyo
