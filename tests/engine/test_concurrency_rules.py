"""The two rules that keep SERIALIZABLE aborts down, as tests (docs/concurrency.md,
Concurrency): a request's write transaction reads no hold row, and an operation that
trusted its cached venue checks it on every refusal branch that read nothing to check it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa

from core.db import create_engine
from core.engine import HoldEngine
from core.model import HoldRequest, ItemRequest, Room, Venue
from core.results import Availability, Code, Preview, Refused, RequestAnswer
from core.rules.search import Search
from core.store import venues as stored_venues
from tests.support import factories
from tests.support.factories import DAY, NOW, SALES, request

# A statement that reads one of these tables (a FROM, a JOIN or an UPDATE of it). An INSERT
# INTO them reads nothing: the hold's own INSERT does not match.
HOLD_READ = re.compile(r"\b(?:FROM|JOIN|UPDATE)\s+(holds|hold_items)\b", re.IGNORECASE)


@contextmanager
def serializable_statements(db: sa.Engine) -> Iterator[list[str]]:
    """Every statement sent inside a SERIALIZABLE transaction on ``db`` while open, whoever
    sends it. A read in autocommit (a crowd's look, the reads after the commit) is not one."""
    sent: list[str] = []

    def before(
        conn: sa.Connection, cursor: Any, statement: str, params: Any, context: Any, many: bool
    ) -> None:
        dbapi = cursor.connection
        if not dbapi.autocommit and dbapi.isolation_level == psycopg.IsolationLevel.SERIALIZABLE:
            sent.append(" ".join(statement.split()))

    sa.event.listen(db, "before_cursor_execute", before)
    try:
        yield sent
    finally:
        sa.event.remove(db, "before_cursor_execute", before)


def hold_reads(statements: list[str]) -> list[str]:
    return [s[:160] for s in statements if HOLD_READ.search(s)]


@pytest.fixture
def db(db_url: str) -> Iterator[sa.Engine]:
    """A pool of this test's own: the listener sees its statements and no one else's."""
    engine = create_engine(db_url, pool_size=10)
    yield engine
    engine.dispose()


def test_the_statement_capture_sees_a_hold_read_where_there_is_one(db: sa.Engine) -> None:
    """The detector is not blind: a candidate date (the one request that reads holds in its
    transaction: its enquiry's live dates) and a sweep read them, and it sees both."""
    engine = HoldEngine(db, queue=False)
    venue = engine.venues.save_venue(factories.venue(), now=NOW)
    first = engine.writes.request(venue.id, request(), now=NOW)
    assert isinstance(first, RequestAnswer)
    other_date = _candidate(first.hold.enquiry_id, DAY + timedelta(days=1))
    with serializable_statements(db) as sent:
        joined = engine.writes.request(venue.id, other_date, now=NOW)
    assert isinstance(joined, RequestAnswer)
    assert hold_reads(sent)
    with serializable_statements(db) as sent:
        swept = engine.writes.expire_due(venue.id, now=NOW, limit=10)
    assert not isinstance(swept, Refused)
    assert hold_reads(sent)


def test_a_requests_write_transaction_reads_no_hold_row(db: sa.Engine) -> None:
    """A 1st, its resubmission while the slot has room (a twin that would be 2nd: its
    attempt meets the key and starts again), a 2nd that queues (its note to the 1st), a
    refusal for rank, a resubmission then (refused, its twin's answer instead), a package,
    a refusal for a confirmed hold: none reads ``holds`` or ``hold_items`` between its BEGIN
    and its COMMIT or ROLLBACK."""
    engine = HoldEngine(db, queue=False)
    venue = engine.venues.save_venue(factories.venue(), now=NOW)
    asked = request(room="hoo-a")
    with serializable_statements(db) as sent:
        first = engine.writes.request(venue.id, asked, now=NOW, idempotency_key="k-1")
        resubmitted = engine.writes.request(venue.id, asked, now=NOW, idempotency_key="k-1")
        second = engine.writes.request(venue.id, request(room="hoo", salesperson="U0TWO"), now=NOW)
        third = engine.writes.request(
            venue.id, request(room="hoo-a", salesperson="U0THREE"), now=NOW
        )
        again = engine.writes.request(venue.id, asked, now=NOW, idempotency_key="k-1")
        package = replace(
            request(room="sakura", start="17:00", end="19:00"),
            also=(ItemRequest("chapel", factories.minutes("16:00"), factories.minutes("16:30")),),
        )
        packaged = engine.writes.request(venue.id, package, now=NOW)
    assert isinstance(first, RequestAnswer) and first.rank == 1
    assert isinstance(second, RequestAnswer) and second.rank == 2
    assert isinstance(third, Refused) and third.code is Code.RANK_TOO_LOW
    assert isinstance(again, RequestAnswer) and again.replayed
    assert isinstance(resubmitted, RequestAnswer) and resubmitted.replayed
    assert resubmitted.hold.id == again.hold.id == first.hold.id
    assert isinstance(packaged, RequestAnswer)
    assert sent, "the capture saw the transactions"
    assert hold_reads(sent) == []

    confirmed = engine.writes.confirm(venue.id, packaged.hold.id, actor=SALES, now=NOW)
    assert not isinstance(confirmed, Refused), confirmed
    with serializable_statements(db) as sent:
        taken = engine.writes.request(
            venue.id, request(room="sakura", start="17:00", end="18:00"), now=NOW
        )
    assert isinstance(taken, Refused) and taken.code is Code.CONFIRMED_CONFLICT
    assert sent and hold_reads(sent) == []


@pytest.mark.slow
@pytest.mark.parametrize("trial", range(3))
def test_a_crowd_for_one_slot_reads_no_hold_row_in_its_transactions(
    db: sa.Engine, trial: int
) -> None:
    """Eight at once for one slot with this process's admission on: some are refused on
    sight, some in a transaction, two get it; twins of one key race too."""
    engine = HoldEngine(db)
    venue = engine.venues.save_venue(factories.venue(), now=NOW)
    start = threading.Barrier(10)
    answers: list[object] = []

    def ask(salesperson: str, key: str | None) -> None:
        req = request(room="hoo-b", customer=f"客{trial}", salesperson=salesperson)
        start.wait()
        answers.append(engine.writes.request(venue.id, req, now=NOW, idempotency_key=key))

    askers = [(f"U0CROWD{n}", None) for n in range(8)] + [("U0TWIN", "twin")] * 2
    with serializable_statements(db) as sent:
        threads = [threading.Thread(target=ask, args=who) for who in askers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert len(answers) == 10
    held = [a for a in answers if isinstance(a, RequestAnswer)]
    assert len({a.hold.id for a in held}) == 2, answers
    assert hold_reads(sent) == []


# -- a cached venue gone stale -------------------------------------------------------------
@dataclass(frozen=True)
class Branch:
    """A refusal branch: what another process changes in the venue, what this one asks on
    its cached copy, and what the venue as stored now answers instead."""

    name: str
    change: Callable[[Venue], Venue]
    ask: Callable[[HoldEngine, Venue, dict[str, int]], object]
    fresh: Callable[[object], bool]


def _new_room(venue: Venue) -> Venue:
    rooms = dict(venue.rooms)
    rooms["annex"] = Room("annex", "別館", frozenset({"X1"}), 60, len(rooms))
    return replace(venue, rooms=rooms)


def _more_candidates(venue: Venue) -> Venue:
    return replace(venue, policy=replace(venue.policy, max_candidates=3))


def _manager(venue: Venue) -> Venue:
    return replace(venue, managers=venue.managers | {"U0OUTSIDER"})


def _renamed(venue: Venue) -> Venue:
    return replace(venue, name=f"{venue.name} (new)")


def _candidate(enquiry: int, day: date, **fields: Any) -> HoldRequest:
    return replace(request(day=day, **fields), customer="", salesperson="", enquiry_id=enquiry)


def _requested(answer: object) -> bool:
    return isinstance(answer, RequestAnswer)


def _refused(code: Code) -> Callable[[object], bool]:
    return lambda answer: isinstance(answer, Refused) and answer.code is code


BRANCHES = [
    # request: the request's own input (check_request), before any bump
    Branch(
        "request_unknown_room",
        _new_room,
        lambda e, v, _: e.writes.request(v.id, request(room="annex"), now=NOW),
        _requested,
    ),
    # request: the enquiry it would join (_enquiry), before any bump
    Branch(
        "request_enquiry_not_found",
        _renamed,
        lambda e, v, _: e.writes.request(v.id, _candidate(10**9, DAY), now=NOW),
        _refused(Code.ENQUIRY_NOT_FOUND),
    ),
    Branch(
        "request_not_authorized",
        _manager,
        lambda e, v, ids: e.writes.request(
            v.id, _candidate(ids["enquiry"], DAY + timedelta(days=7), creator="U0OUTSIDER"), now=NOW
        ),
        _requested,
    ),
    # request: the enquiry's room for another date (_no_room_in), before any bump
    Branch(
        "request_too_many_candidates",
        _more_candidates,
        lambda e, v, ids: e.writes.request(
            v.id, _candidate(ids["full"], DAY + timedelta(days=9)), now=NOW
        ),
        _requested,
    ),
    # the preview: the same branches, read-only
    Branch(
        "preview_unknown_room",
        _new_room,
        lambda e, v, _: e.writes.preview(v.id, request(room="annex"), now=NOW),
        lambda answer: isinstance(answer, Preview),
    ),
    Branch(
        "preview_not_authorized",
        _manager,
        lambda e, v, ids: e.writes.preview(
            v.id, _candidate(ids["enquiry"], DAY + timedelta(days=7), creator="U0OUTSIDER"), now=NOW
        ),
        lambda answer: isinstance(answer, Preview),
    ),
    Branch(
        "preview_too_many_candidates",
        _more_candidates,
        lambda e, v, ids: e.writes.preview(
            v.id, _candidate(ids["full"], DAY + timedelta(days=9)), now=NOW
        ),
        lambda answer: isinstance(answer, Preview),
    ),
    # a search: its input refused (check_search), and every place refused on its input
    Branch(
        "search_unknown_room",
        _new_room,
        lambda e, v, _: e.reads.search(v.id, Search(DAY, DAY, rooms=("annex",)), now=NOW),
        lambda answer: isinstance(answer, Availability),
    ),
    Branch(
        "search_nothing_to_read",
        _renamed,
        lambda e, v, _: e.reads.search(
            v.id, Search(DAY - timedelta(days=30), DAY - timedelta(days=20)), now=NOW
        ),
        lambda answer: isinstance(answer, Availability) and not answer.found,
    ),
]


@pytest.mark.parametrize("branch", BRANCHES, ids=[b.name for b in BRANCHES])
def test_a_refusal_on_a_stale_cached_venue_is_checked_and_answered_afresh(
    sa_engine: sa.Engine, branch: Branch
) -> None:
    """Another process saves the venue after this one cached it; this one's operation then
    meets a refusal branch on its copy. It must see that the copy is stale (and answer what
    the stored venue answers), not refuse on what the venue no longer is."""
    cached = HoldEngine(sa_engine, queue=False)
    venue = cached.venues.save_venue(factories.venue(), now=NOW)
    ids = _enquiries(cached, venue)
    assert cached.venues.kept_venue(venue.id) is not None
    saved = HoldEngine(sa_engine, queue=False).venues.save_venue(branch.change(venue), now=NOW)
    assert saved.revision > venue.revision

    answer = branch.ask(cached, venue, ids)

    assert branch.fresh(answer), answer
    kept = cached.venues.kept_venue(venue.id)
    assert kept is not None and kept.revision == saved.revision, "the stale copy was kept"
    with sa_engine.connect() as conn:
        assert stored_venues.revision(conn, venue.id) == saved.revision


def _enquiries(engine: HoldEngine, venue: Venue) -> dict[str, int]:
    """An enquiry with one candidate date, and one with all its (two) candidate dates."""
    one = engine.writes.request(venue.id, request(room="sakura"), now=NOW)
    full = engine.writes.request(
        venue.id, request(room="chapel", start="10:00", end="11:00"), now=NOW
    )
    assert isinstance(one, RequestAnswer) and isinstance(full, RequestAnswer)
    other_date = _candidate(full.hold.enquiry_id, DAY + timedelta(days=1), room="chapel")
    assert isinstance(engine.writes.request(venue.id, other_date, now=NOW), RequestAnswer)
    return {"enquiry": one.hold.enquiry_id, "full": full.hold.enquiry_id}
