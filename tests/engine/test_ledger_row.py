"""What a hold carries (the venue's kind, guests, contact, note) and why a released hold was
released, on PostgreSQL."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, replace
from datetime import date

import sqlalchemy as sa

from core.engine import HoldEngine
from core.model import Details, EventKind, Kind, Outcome, Policy, Status, Venue
from core.operations.request import request_hash
from core.results import Code, ConfirmAnswer, Refused, ReleaseAnswer, RequestAnswer
from tests.support import factories, invariants
from tests.support.factories import NOW, SALES, request

OTHER = "U0SALES002"
KINDS = (
    EventKind("wedding", "婚礼", Kind.WEDDING),
    EventKind("banquet", "一般宴会", Kind.BANQUET),
    EventKind("nijikai", "二次会", Kind.BANQUET),
)
SATURDAY = date(2027, 9, 4)  # a wedding-priority day more than 90 days after NOW


def kinds_venue(engine: HoldEngine) -> Venue:
    return engine.save_venue(factories.venue(Policy(kinds=KINDS)), now=NOW)


def test_a_hold_carries_its_kind_guests_contact_and_note(engine: HoldEngine) -> None:
    venue = kinds_venue(engine)
    asked = replace(
        request(kind="nijikai", note="乾杯酒は持ち込み"), guests=40, contact="090-1111-2222"
    )
    made = engine.request(venue.id, asked, now=NOW)
    assert isinstance(made, RequestAnswer)
    stored = engine.hold(venue.id, made.hold.id)
    for hold in (made.hold, stored):
        assert not isinstance(hold, Refused)
        assert (hold.kind_id, hold.kind_name, hold.kind) == ("nijikai", "二次会", Kind.BANQUET)
        assert (hold.guests, hold.contact, hold.note) == (40, "090-1111-2222", "乾杯酒は持ち込み")
    # its class decides: a banquet's 3 days, not a wedding's 7
    assert made.expires_at == NOW.replace(day=4)
    assert "090-1111-2222" not in repr(made)  # a repr may end up in a log line


def test_the_class_of_a_kind_decides_the_banquet_window(engine: HoldEngine) -> None:
    venue = kinds_venue(engine)
    refused = engine.request(venue.id, request(kind="nijikai", day=SATURDAY), now=NOW)
    assert isinstance(refused, Refused) and refused.code is Code.BANQUET_NOT_OPEN
    wedding = engine.request(venue.id, request(kind="wedding", day=SATURDAY), now=NOW)
    assert isinstance(wedding, RequestAnswer)


def test_a_kind_the_venue_does_not_have_is_refused_with_the_kinds_it_has(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    venue = kinds_venue(engine)
    refused = engine.request(venue.id, request(kind="bonenkai"), now=NOW)
    assert isinstance(refused, Refused)
    assert (refused.code, refused.field, refused.detail) == (Code.UNKNOWN_KIND, "kind", "bonenkai")
    assert [k.id for k in refused.kinds] == ["wedding", "banquet", "nijikai"]
    # at a venue without [[kinds]], the defaults still work
    plain = engine.save_venue(factories.venue(), now=NOW)
    for kind in ("wedding", "banquet"):
        assert isinstance(engine.request(plain.id, request(kind=kind), now=NOW), RequestAnswer)
    with sa_engine.connect() as conn:
        count = conn.execute(
            sa.text("SELECT count(*) FROM holds WHERE venue_id = :v"), {"v": venue.id}
        ).scalar_one()
    assert count == 0


def test_bad_guests_and_a_long_contact_are_refused_on_their_field_without_quoting_it(
    engine: HoldEngine,
) -> None:
    venue = kinds_venue(engine)
    for guests in (0, -3, 100_001):
        refused = engine.request(venue.id, replace(request(), guests=guests), now=NOW)
        assert isinstance(refused, Refused)
        assert (refused.code, refused.field) == (Code.BAD_GUESTS, "guests")
    secret = "03-0000-0000 " * 20
    refused = engine.request(venue.id, replace(request(), contact=secret), now=NOW)
    assert isinstance(refused, Refused)
    assert (refused.code, refused.field) == (Code.BAD_CONTACT, "contact")
    assert "03-0000" not in refused.detail


def test_a_candidate_date_takes_its_enquirys_kind_and_brings_new_guests(
    engine: HoldEngine,
) -> None:
    venue = kinds_venue(engine)
    first = engine.request(
        venue.id, replace(request(kind="nijikai"), guests=30, contact="幹事 090"), now=NOW
    )
    assert isinstance(first, RequestAnswer)
    joined = replace(
        request(day=date(2027, 3, 11), kind=""),
        customer="",
        enquiry_id=first.hold.enquiry_id,
        guests=45,
    )
    second = engine.request(venue.id, joined, now=NOW)
    assert isinstance(second, RequestAnswer), second
    assert (second.hold.kind_id, second.hold.guests, second.hold.contact) == (
        "nijikai",
        45,
        "幹事 090",
    )
    again = engine.hold(venue.id, first.hold.id)
    assert not isinstance(again, Refused) and again.guests == 45  # the enquiry's, shared
    mismatch = engine.request(
        venue.id, replace(joined, kind="wedding", local_date=date(2027, 3, 12)), now=NOW
    )
    assert isinstance(mismatch, Refused) and mismatch.code is Code.ENQUIRY_MISMATCH
    assert mismatch.detail == "nijikai"


def test_withdrawn_lost_and_other_date_chosen_are_told_apart(
    engine: HoldEngine, sa_engine: sa.Engine
) -> None:
    venue = kinds_venue(engine)
    withdrawn = engine.request(venue.id, request(room="sakura"), now=NOW)
    assert isinstance(withdrawn, RequestAnswer)
    done = engine.release(venue.id, withdrawn.hold.id, actor=SALES, now=NOW)
    assert isinstance(done, ReleaseAnswer)
    assert (done.hold.status, done.hold.outcome) == (Status.RELEASED, Outcome.WITHDRAWN)

    winner = engine.request(venue.id, request(), now=NOW)
    loser = engine.request(venue.id, request(salesperson=OTHER), now=NOW)
    assert isinstance(winner, RequestAnswer) and isinstance(loser, RequestAnswer)
    other_date = replace(
        request(day=date(2027, 3, 12), kind=""),
        customer="",
        enquiry_id=winner.hold.enquiry_id,
    )
    candidate = engine.request(venue.id, other_date, now=NOW)
    assert isinstance(candidate, RequestAnswer)
    confirmed = engine.confirm(venue.id, winner.hold.id, actor=SALES, now=NOW)
    assert isinstance(confirmed, ConfirmAnswer)
    by_id = {h.id: h.outcome for h in confirmed.released}
    assert by_id == {loser.hold.id: Outcome.LOST, candidate.hold.id: Outcome.OTHER_DATE_CHOSEN}
    stored = {h.id: h.outcome for h in engine.holds(venue.id)}
    assert stored[loser.hold.id] is Outcome.LOST
    assert stored[candidate.hold.id] is Outcome.OTHER_DATE_CHOSEN
    assert stored[withdrawn.hold.id] is Outcome.WITHDRAWN
    assert stored[winner.hold.id] is None
    invariants.check(sa_engine, venue)


def test_a_request_without_guests_or_contact_hashes_as_before() -> None:
    """Idempotency keys stored before 0004 still match their resubmission."""
    req = request()
    fields = asdict(req)
    for added in ("guests", "contact", "also", "enquiry_id", "details", "house"):
        del fields[added]
    fields["local_date"] = req.local_date.isoformat()
    before = hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()
    assert request_hash(req) == before
    assert request_hash(replace(req, house=True)) != before
    assert request_hash(replace(req, guests=40)) != before
    assert request_hash(replace(req, contact="090")) != before
    assert request_hash(replace(req, details=Details(estimate=1))) != before
