"""The pipeline report (docs/rules.md, The pipeline report) against a scripted month whose
numbers are worked out by hand below: requests, confirmations, releases with reasons, an
expiry by the sweep, candidate-date pairs, an edit's swap and a cancellation, each at a
controlled ``now``. Every figure is written out here, not computed by the code under test."""

from __future__ import annotations

import io
import json
import os
from dataclasses import replace
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from PIL import Image

from bot import pipeline as words
from bot.notices import render_notice
from bot.pipeline_home import chart_png, chart_words, home_blocks
from core.engine import HoldEngine
from core.model import Details, HoldEdit, Kind, Policy, Venue
from core.operations.pipeline import PipelineRead
from core.results import ConfirmAnswer, EditAnswer, Refused, ReleaseAnswer, RequestAnswer
from core.rules.pipeline import Figures, Outlook
from core.rules.reasons import DEFAULT_REASONS, Reason
from tests.engine.test_team_ledger import statements
from tests.support import factories
from tests.support.factories import JST, MANAGER, SALES, request

OTHER = "U0SALES002"


def at(month: int, day: int, hour: int = 9) -> datetime:
    return datetime(2027, month, day, hour, 0, tzinfo=JST)


class Script:
    """The month, played through the engine; ``book`` keeps each booking's holds by name."""

    def __init__(self, engine: HoldEngine, venue: Venue) -> None:
        self.engine, self.venue = engine, venue
        self.held: dict[str, Any] = {}

    def ask(self, name: str, now: datetime, room: str, day: date, **how: Any) -> None:
        asked = request(
            room,
            day=day,
            kind=how.get("kind", Kind.WEDDING),
            salesperson=how.get("by", SALES),
        )
        asked = replace(
            asked,
            house=how.get("house", False),
            guests=how.get("guests"),
            details=Details(estimate=how.get("estimate"), source=how.get("source", "")),
        )
        if "candidate_of" in how:
            first = self.held[how["candidate_of"]]
            asked = replace(asked, enquiry_id=first.enquiry_id, customer="", kind="",
                            salesperson="", creator=first.salesperson)  # fmt: skip
        answer = self.engine.request(self.venue.id, asked, now=now)
        assert isinstance(answer, RequestAnswer), answer
        self.held[name] = answer.hold

    def confirm(self, name: str, now: datetime) -> None:
        hold = self.held[name]
        done = self.engine.confirm(self.venue.id, hold.id, actor=hold.salesperson, now=now)
        assert isinstance(done, ConfirmAnswer), done

    def release(self, name: str, now: datetime, reason: str) -> None:
        hold = self.held[name]
        done = self.engine.release(
            self.venue.id, hold.id, actor=hold.salesperson, now=now, reason=reason
        )
        assert isinstance(done, ReleaseAnswer), done


@pytest.fixture
def month(engine: HoldEngine, venue: Venue) -> Script:
    """A: U0SALES001, B: U0SALES002. Bookings B1..B14 (no B13), in the order they happen."""
    s, e, v = Script(engine, venue), engine, venue
    s.ask("B1", at(3, 1), "hoo", date(2027, 4, 7), source="zexy", guests=80, estimate=4_000_000)
    s.ask("B2", at(3, 1, 10), "hoo", date(2027, 4, 7), by=OTHER, source="hanayume",
          guests=60, estimate=3_000_000)  # fmt: skip
    s.ask("B3", at(3, 2), "sakura", date(2027, 4, 8), source="fair", guests=50, estimate=2_500_000)
    s.ask("B3b", at(3, 3), "sakura", date(2027, 5, 12), candidate_of="B3")
    # a house hold (社内押さえ: the venue's fair) in April, 1st with no deadline: not sales,
    # so no figure below counts it, the forecast's 1st bookings included
    s.ask("H1", at(3, 3, 11), "hoo-b", date(2027, 4, 27), by=MANAGER, house=True, guests=200,
          estimate=1, source="fair")  # fmt: skip
    s.ask("B12", at(3, 3, 12), "hoo-b", date(2027, 4, 20), by=OTHER, source="fair",
          guests=50, estimate=2_000_000)  # fmt: skip
    s.confirm("B1", at(3, 4))  # B2 loses its slot: lost, "taken"
    s.ask("B4", at(3, 5), "chapel", date(2027, 4, 13), by=OTHER, kind=Kind.BANQUET,
          source="website", guests=30, estimate=600_000)  # fmt: skip
    s.confirm("B12", at(3, 5, 12))
    s.confirm("B3", at(3, 8))  # its May candidate: other date chosen
    s.ask("B5", at(3, 8), "hoo-b", date(2027, 4, 15), source="zexy", guests=70,
          estimate=3_500_000)  # fmt: skip
    swept = e.sweep(v.id, now=at(3, 8, 10))  # B4 (banquet: 3 days) was due at 3/8 09:00
    assert not isinstance(swept, Refused) and list(swept.expired) == [s.held["B4"].id]
    s.ask("B8", at(3, 9), "sakura", date(2027, 4, 21), by=OTHER, source="referral",
          guests=100, estimate=5_000_000)  # fmt: skip
    s.ask("B6", at(3, 10), "chapel", date(2027, 4, 20))  # no source, guests or estimate
    b6 = s.held["B6"]
    swap = HoldEdit(hold_id=b6.id, version=b6.version, actor=SALES, room_id="sakura",
                    local_date=date(2027, 4, 21))  # fmt: skip
    swapped = e.edit(v.id, swap, now=at(3, 11))  # onto B8's slot: a new hold, 2nd
    assert isinstance(swapped, EditAnswer) and not swapped.kept_place
    assert swapped.hold.rank == 2
    s.release("B5", at(3, 12), "other_venue")
    s.ask("B9", at(3, 15), "chapel", date(2027, 4, 23), source="zexy", guests=90,
          estimate=4_500_000)  # fmt: skip
    s.release("B9", at(3, 15, 10), "entry_error")  # not a booking at all
    s.ask("B14", at(3, 16), "sakura", date(2027, 4, 28), kind=Kind.BANQUET, source="website",
          guests=20, estimate=300_000)  # fmt: skip
    s.release("B14", at(3, 17), "budget")
    s.ask("B11", at(3, 20), "hoo", date(2027, 5, 19), source="hanayume", guests=70)
    s.confirm("B11", at(3, 22))
    cancelled = e.cancel(v.id, s.held["B12"].id, actor=MANAGER, now=at(3, 25), reason="延期")
    assert not isinstance(cancelled, Refused)
    s.ask("B7", at(4, 1, 10), "hoo-a", date(2027, 5, 11), by=OTHER, kind=Kind.BANQUET,
          source="phone", guests=40, estimate=800_000)  # fmt: skip
    s.ask("B7b", at(4, 2, 10), "hoo-a", date(2027, 4, 22), candidate_of="B7")
    s.ask("B10", at(4, 5), "chapel", date(2027, 6, 9), by=OTHER, source="zexy", guests=120,
          estimate=6_000_000)  # fmt: skip
    return s


def april(engine: HoldEngine, venue: Venue) -> PipelineRead:
    return engine.reads.pipeline(venue.id, 2027, 4)


# Days from each decided booking's first hold to its decision, by hand:
# B1 3/1 09:00 → confirmed 3/4 09:00: 3.0     B2 3/1 10:00 → lost 3/4 09:00: 2 23/24
# B3 3/2 09:00 → confirmed 3/8 09:00: 6.0     B4 3/5 09:00 → expired 3/8 10:00: 3 1/24
# B5 3/8 → released 3/12: 4.0                 B12 3/3 12:00 → confirmed 3/5 12:00: 2.0
# B14 3/16 → released 3/17: 1.0               B11 3/20 → confirmed 3/22: 2.0


def test_by_event_month_counts_bookings_once_whatever_their_candidates_and_swaps(
    engine: HoldEngine, venue: Venue, month: Script
) -> None:
    # April's events: B1 B3 confirmed; B12 cancelled; B2 (taken) B5 (other venue) B14
    # (budget) lost; B4 expired; B6 (its swap, 2nd) B7 (its April candidate) B8 open. B9 was
    # an entry error. B3's May candidate and B7's May one are not May's.
    # Candidate dates: B3 2, B7 2, every other 1 (B6's replaced hold not counted): 12.
    # Median of 1, 2, 2 23/24, 3, 3 1/24, 4, 6: 3.0.
    assert april(engine, venue).report.by_event_month == Figures(
        enquiries=10, holds=12, confirmed=2, cancelled=1, open=3, lost=3,
        lost_by_reason={"other_venue": 1, "budget": 1, "taken": 1}, expired=1,
        other_date_chosen=1, entry_errors=1, median_days_to_decision=3.0,
    )  # fmt: skip
    event = april(engine, venue).report.by_event_month
    assert (event.decided, event.conversion) == (7, round(2 / 7, 4))


def test_by_enquiry_month(engine: HoldEngine, venue: Venue, month: Script) -> None:
    # April's enquiries: B7 (two candidates) and B10, both open: nothing decided.
    assert april(engine, venue).report.by_enquiry_month == Figures(
        enquiries=2, holds=3, open=2, median_days_to_decision=None
    )
    assert april(engine, venue).report.by_enquiry_month.conversion is None
    # March's: B1 B3 B11 confirmed, B12 cancelled, B2 B5 B14 lost, B4 expired, B6 B8 open,
    # B9 an entry error. Median of 1, 2, 2, 2 23/24, 3, 3 1/24, 4, 6: (2 23/24 + 3) / 2 → 3.0.
    march = engine.reads.pipeline(venue.id, 2027, 3).report.by_enquiry_month
    assert march == Figures(
        enquiries=10, holds=11, confirmed=3, cancelled=1, open=2, lost=3,
        lost_by_reason={"other_venue": 1, "budget": 1, "taken": 1}, expired=1,
        other_date_chosen=1, entry_errors=1, median_days_to_decision=3.0,
    )  # fmt: skip
    assert (march.decided, march.conversion) == (8, 0.375)


def test_splits_by_salesperson_kind_and_source(
    engine: HoldEngine, venue: Venue, month: Script
) -> None:
    report = april(engine, venue).report
    people = {s.key: s for s in report.by_salesperson}
    assert list(people) == [SALES, OTHER]
    # A's April events: B1 B3 confirmed, B5 B14 lost, B6 open (B9 an entry error); days 3,
    # 6, 4, 1: median 3.5
    assert people[SALES].by_event_month == Figures(
        enquiries=5, holds=6, confirmed=2, open=1, lost=2,
        lost_by_reason={"other_venue": 1, "budget": 1}, other_date_chosen=1, entry_errors=1,
        median_days_to_decision=3.5,
    )  # fmt: skip
    assert people[SALES].by_enquiry_month == Figures()
    # B's: B2 lost (taken), B4 expired, B12 cancelled, B7 B8 open; days 2 23/24, 3 1/24, 2
    assert people[OTHER].by_event_month == Figures(
        enquiries=5, holds=6, cancelled=1, open=2, lost=1, lost_by_reason={"taken": 1},
        expired=1, median_days_to_decision=3.0,
    )  # fmt: skip
    assert people[OTHER].by_event_month.conversion == 0.0
    assert people[OTHER].by_enquiry_month == Figures(enquiries=2, holds=3, open=2)
    kinds = {s.key: s for s in report.by_kind}
    # banquets in April: B4 expired, B14 lost (budget), B7 open
    assert kinds["banquet"].by_event_month == Figures(
        enquiries=3, holds=4, open=1, lost=1, lost_by_reason={"budget": 1}, expired=1,
        median_days_to_decision=2.0,  # (1 + 3 1/24) / 2
    )  # fmt: skip
    assert kinds["wedding"].by_event_month.enquiries == 7
    sources = {s.key: s for s in report.by_source}
    assert list(sources) == sorted(["", "fair", "hanayume", "phone", "referral", "website", "zexy"])
    assert sources["zexy"].by_event_month == Figures(
        enquiries=2, holds=2, confirmed=1, lost=1, lost_by_reason={"other_venue": 1},
        entry_errors=1, median_days_to_decision=3.5,  # B1 B5, and B9's entry error
    )  # fmt: skip
    assert sources["zexy"].by_enquiry_month == Figures(enquiries=1, holds=1, open=1)
    assert sources[""].by_event_month == Figures(enquiries=1, holds=1, open=1)


def test_the_forecast_counts_confirmed_and_live_first_bookings_by_event_month(
    engine: HoldEngine, venue: Venue, month: Script
) -> None:
    forecast = {f.month: f for f in april(engine, venue).report.forecast}
    assert list(forecast) == [(2027, 4), (2027, 5), (2027, 6), (2027, 7)]
    # April: B1 (80, ¥4.0M) and B3 (50, ¥2.5M) confirmed; B8 (100, ¥5.0M) and B7 (its April
    # candidate, 40, ¥0.8M) 1st; B6 waits 2nd: not counted
    assert forecast[2027, 4].confirmed == Outlook(2, 130, 6_500_000, 0)
    assert forecast[2027, 4].first == Outlook(2, 140, 5_800_000, 0)
    # May: B11 confirmed with no estimate; B3's and B7's May candidates are not May's
    assert forecast[2027, 5].confirmed == Outlook(1, 70, 0, 1)
    assert forecast[2027, 5].first == Outlook()
    assert forecast[2027, 6].first == Outlook(1, 120, 6_000_000, 0)
    assert forecast[2027, 6].confirmed == forecast[2027, 7].confirmed == Outlook()


def test_the_scripted_month_as_osae_report_prints_it_and_as_its_chart(
    engine: HoldEngine, venue: Venue, month: Script, tmp_path: Path
) -> None:
    """OSAE_PIPELINE_OUT=dir keeps ``april-ja.png`` and ``april-ja.txt`` there to look at."""
    read = april(engine, venue)
    out = Path(os.environ.get("OSAE_PIPELINE_OUT") or tmp_path)
    printed = words.lines(read.report, venue, read.names, "ja")
    (out / "april-ja.txt").write_text("\n".join(printed) + "\n")
    assert printed[0] == "2027年4月のパイプライン（件数は予約単位。候補日・変更で数えなおしません）"
    lost = "失注の理由（挙式・開催が2027年4月）: 他会場に決定 1、予算 1、他の予約が本予約 1"
    assert lost in printed
    assert any(line.split()[:4] == ["挙式・開催が2027年4月", "10", "12", "2"] for line in printed)
    picture = chart_png(read, venue, "ja")
    (out / "april-ja.png").write_bytes(picture)
    with Image.open(io.BytesIO(picture)) as image:
        assert image.format == "PNG" and image.size == (1650, 1050)
        assert image.info.get("Title") == f"{venue.name} パイプライン 2027年4月"
    home = home_blocks(read, "ja")[0].text.text  # type: ignore[attr-defined, union-attr]
    (out / "april-home-ja.txt").write_text(home + "\n")
    assert (
        "*2027年4月* 問合せ 10 · 本予約 2 · 失注 3（他会場に決定 1、予算 1） · 成約率 29%" in home
    )
    english = words.lines(read.report, venue, read.names, "en")
    (out / "april-en.txt").write_text("\n".join(english) + "\n")
    assert "Lost by reason (Events in 2027-04): Chose another venue 1, Budget 1, " in english[4]
    (out / "april-en.png").write_bytes(chart_png(read, venue, "en"))
    said = chart_words(read, venue, "ja")
    assert said.months == ("2027年4月", "2027年5月", "2027年6月", "2027年7月")
    assert said.money == ("¥12,300,000", "¥0", "¥6,000,000", "¥0")
    assert said.reasons == (("他会場に決定", 1), ("予算", 1), ("他の予約が本予約", 1))


def test_the_managers_monday_digest_adds_last_weeks_numbers(
    engine: HoldEngine, venue: Venue
) -> None:
    """Last week is 2/22 (Mon) to 3/1 (Mon) 00:00; the digest is queued 3/1 09:00."""
    s = Script(engine, venue)
    s.ask("X1", at(2, 17), "hoo", date(2027, 4, 7))  # asked the week before
    s.ask("X2", at(2, 22, 10), "sakura", date(2027, 4, 8))
    s.ask("X4", at(2, 22), "chapel", date(2027, 4, 13), kind=Kind.BANQUET)  # due 2/25 09:00
    s.ask("X3", at(2, 23), "hoo-a", date(2027, 4, 14))
    s.ask("X3b", at(2, 23, 10), "hoo-a", date(2027, 4, 14), by=OTHER)  # 2nd behind X3
    s.confirm("X1", at(2, 23))
    s.release("X2", at(2, 24), "budget")
    s.confirm("X3", at(2, 25))  # X3b: lost, "taken"
    swept = engine.sweep(venue.id, now=at(2, 25, 10))
    assert not isinstance(swept, Refused) and list(swept.expired) == [s.held["X4"].id]
    s.ask("X5", at(2, 27), "sakura", date(2027, 4, 20))
    s.release("X5", at(2, 27, 10), "entry_error")  # no booking: counted nowhere
    s.ask("X6", at(3, 1, 8), "sakura", date(2027, 4, 21))  # this week: not last week's
    s.ask("H2", at(2, 24), "chapel", date(2027, 4, 28), by=MANAGER, house=True)  # not sales
    engine.queue_digests(venue.id, now=at(3, 1))
    sent = {n.recipient: n for n in engine.notices(venue.id) if n.kind == "manager_digest"}
    week = sent[MANAGER].payload["last_week"]
    # asked: X2 X3 X3b X4 (X5 an entry error); confirmed: X1 X3; lost: X2 budget, X3b taken
    assert week == {
        "from": "2027-02-22T00:00:00+09:00",
        "until": "2027-03-01T00:00:00+09:00",
        "enquiries": 4,
        "confirmed": 2,
        "lost": 2,
        "lost_by_reason": {"budget": 1, "taken": 1},
        "expired": 1,
    }
    shown = render_notice(sent[MANAGER], tz=venue.tz, locale="ja", now=at(3, 1))
    said = json.dumps(shown.blocks, ensure_ascii=False)
    assert "*先週の数字（2/22(月・仏滅)〜2/28(日・仏滅)）*" in said
    assert "問合せ 4 · 本予約 2 · 失注 2（予算 1、他の予約が本予約 1） · 期限切れ 1" in said


def test_the_report_is_two_statements_however_many_bookings(
    engine: HoldEngine, venue: Venue, sa_engine: sa.Engine
) -> None:
    def counted() -> int:
        engine.venue(venue.id)  # the venue cached: what is counted is the read itself
        with statements(sa_engine) as seen:
            engine.reads.pipeline(venue.id, 2027, 4)
        return len(seen)

    s = Script(engine, venue)
    s.ask("one", at(3, 1), "hoo", date(2027, 4, 7))
    few = counted()
    for n in range(12):
        s.ask(f"b{n}", at(3, 2), "sakura", date(2027, 4, 5) + timedelta(days=n))
        s.ask(f"c{n}", at(3, 2), "chapel", date(2027, 5, 5) + timedelta(days=n), by=OTHER)
        s.release(f"c{n}", at(3, 3), "budget")
    assert 2 <= few == counted() <= 3  # the revision check, the bookings, the names
    assert april(engine, venue).report.by_event_month.enquiries == 13


def test_a_venues_own_reason_that_is_no_loss_is_counted_as_none(engine: HoldEngine) -> None:
    """A venue's [[reasons]] with ``loss = false`` (here 休館) leaves its releases out of the
    losses, as the default 入力の誤り is; its other reasons stay losses."""
    own = (*DEFAULT_REASONS, Reason("venue_closed", "休館", loss=False))
    venue = engine.save_venue(factories.venue(policy=Policy(reasons=own)), now=factories.NOW)
    s = Script(engine, venue)
    s.ask("closed", at(3, 1), "hoo", date(2027, 4, 7))
    s.ask("budget", at(3, 1), "sakura", date(2027, 4, 8))
    s.release("closed", at(3, 2), "venue_closed")
    s.release("budget", at(3, 2), "budget")
    figures = april(engine, venue).report.by_event_month
    assert (figures.lost, dict(figures.lost_by_reason)) == (1, {"budget": 1})
    assert figures.entry_errors == 1
