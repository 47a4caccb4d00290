"""Why a hold left (docs/rules.md, Why a hold left): a release's reason code and note, a
swap's old hold replaced (not withdrawn), and a month's stats counting every outcome once."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from core.engine import HoldEngine
from core.model import HoldEdit, Kind, Outcome, Status, Venue
from core.results import Code, ConfirmAnswer, EditAnswer, Refused, ReleaseAnswer, RequestAnswer
from tests.support.factories import MANAGER, NOW, SALES, later, request

OTHER = "U0SALES002"


def held(result: RequestAnswer | Refused) -> RequestAnswer:
    assert isinstance(result, RequestAnswer), result
    return result


def released(result: ReleaseAnswer | Refused) -> ReleaseAnswer:
    assert isinstance(result, ReleaseAnswer), result
    return result


def test_a_release_records_its_reason_and_note_and_a_bad_code_is_refused(
    engine: HoldEngine, venue: Venue
) -> None:
    hold = held(engine.request(venue.id, request("sakura"), now=NOW)).hold
    no = engine.release(venue.id, hold.id, actor=SALES, now=NOW, reason="cheaper")
    assert isinstance(no, Refused) and (no.code, no.field) == (Code.UNKNOWN_REASON, "reason")
    assert engine.hold(venue.id, hold.id).status is Status.TENTATIVE  # type: ignore[union-attr]
    done = released(
        engine.release(
            venue.id, hold.id, actor=SALES, now=NOW, reason="other_venue", note=" 駅前の式場 "
        )
    )
    assert (done.hold.outcome, done.hold.reason, done.hold.reason_note) == (
        Outcome.WITHDRAWN,
        "other_venue",
        "駅前の式場",
    )
    trail = engine.trail(venue.id, hold.id)
    assert trail[-1].detail["reason"] == "other_venue" and trail[-1].detail["note"] == "駅前の式場"
    plain = held(engine.request(venue.id, request("chapel"), now=NOW)).hold
    assert released(engine.release(venue.id, plain.id, actor=SALES, now=NOW)).hold.reason == (
        "unspecified"
    )


def test_a_months_stats_count_every_outcome_once_and_losses_leave_out_non_losses(
    engine: HoldEngine, venue: Venue
) -> None:
    # withdrawn x3 (budget, entry_error, unspecified)
    for room, why in (("sakura", "budget"), ("chapel", "entry_error"), ("hoo-b", None)):
        hold = held(engine.request(venue.id, request(room, day=date(2027, 3, 11)), now=NOW)).hold
        released(engine.release(venue.id, hold.id, actor=SALES, now=NOW, reason=why))
    # lost to another's confirmation, and another candidate date chosen
    winner = held(engine.request(venue.id, request("hoo"), now=NOW)).hold
    held(engine.request(venue.id, request("hoo", salesperson=OTHER), now=NOW))
    other_day = replace(
        request("hoo-a", day=date(2027, 3, 12)),
        enquiry_id=winner.enquiry_id,
        customer="",
        kind="",
        salesperson="",
    )
    held(engine.request(venue.id, other_day, now=NOW))
    assert isinstance(engine.confirm(venue.id, winner.id, actor=SALES, now=NOW), ConfirmAnswer)
    # replaced by an edit's swap (onto a date another booking holds)
    there = request("sakura", day=date(2027, 3, 13), salesperson=OTHER)
    held(engine.request(venue.id, there, now=NOW))
    mine = held(engine.request(venue.id, request("chapel", day=date(2027, 3, 14)), now=NOW)).hold
    swap = HoldEdit(
        hold_id=mine.id, version=mine.version, actor=SALES, room_id="sakura",
        local_date=date(2027, 3, 13),
    )  # fmt: skip
    done = engine.edit(venue.id, swap, now=NOW)
    assert isinstance(done, EditAnswer) and not done.kept_place
    old = engine.hold(venue.id, mine.id)
    assert not isinstance(old, Refused)
    assert (old.status, old.outcome, old.reason) == (Status.RELEASED, Outcome.REPLACED, None)
    # expired, and a confirmed booking cancelled
    held(
        engine.request(
            venue.id, request("hoo-b", day=date(2027, 3, 15), kind=Kind.BANQUET), now=NOW
        )
    )
    swept = engine.sweep(venue.id, now=later(days=3))
    assert not isinstance(swept, Refused) and len(swept.expired) == 1
    assert not isinstance(
        engine.cancel(venue.id, winner.id, actor=MANAGER, now=later(days=3)), Refused
    )

    march = engine.month_counts(venue.id, 2027, 3)
    assert march.by_outcome() == {
        "withdrawn": 3,
        "expired": 1,
        "lost": 1,
        "other_date_chosen": 1,
        "replaced": 1,
        "cancelled": 1,
    }
    assert march.by_reason == {"budget": 1, "entry_error": 1, "unspecified": 1}
    # budget, unspecified, the expiry and the loss; not the entry error, the other date, the
    # swap or the cancellation
    assert march.losses == 4
    assert (march.released, march.lost) == (3, 2)  # the old fields keep their meaning
