"""The diary's read and layout on PostgreSQL: a day, a week and a month of live holds, read
in one statement whatever their number, placed as blocks (rows, lanes, partitions, turnover,
styles) and drawn."""

from __future__ import annotations

import io
from datetime import date, datetime, timedelta

import pytest
import sqlalchemy as sa
from PIL import Image
from pypdf import PdfReader

from bot.diary_words import diary_words
from core.diary import layout
from core.diary.draw import Format, render
from core.diary.model import DiaryRange, DiaryRead, Style, View
from core.diary.words import Words
from core.engine import HoldEngine
from core.model import Hold, Kind, Slot, Status, Venue
from core.results import Refused, RequestAnswer
from tests.engine.test_team_ledger import statements
from tests.support import factories
from tests.support.factories import DAY, NOW, SALES, request

OTHER = "U0SALES002"


def held(result: RequestAnswer | Refused) -> RequestAnswer:
    assert isinstance(result, RequestAnswer), result
    return result


def test_a_day_places_each_item_on_its_rooms_with_its_turnover_and_lanes(
    engine: HoldEngine, venue: Venue
) -> None:
    whole = held(engine.request(venue.id, request("hoo", start="11:00", end="15:00"), now=NOW))
    second = held(engine.request(venue.id, request("hoo-a", start="12:00", end="13:00"), now=NOW))
    late = held(engine.request(venue.id, request("sakura", start="21:00", end="01:00"), now=NOW))
    eve = held(
        engine.request(
            venue.id,
            request(
                "sakura", day=DAY - timedelta(days=1), start="22:00", end="02:00", salesperson=OTHER
            ),
            now=NOW,
        )
    )
    assert isinstance(engine.confirm(venue.id, late.hold.id, actor=SALES, now=NOW), object)

    read = engine.diary(venue.id, DiaryRange.day(DAY))
    assert {h.id for h in read.holds} == {whole.hold.id, second.hold.id, late.hold.id, eve.hold.id}
    placed = layout.build(read, NOW)

    names = [(r.room.id, r.depth) for r in placed.rows]
    assert names == [("hoo", 0), ("hoo-a", 1), ("hoo-b", 1), ("sakura", 0), ("chapel", 0)]
    assert placed.hours == (0, 26)  # last night's event from 0:00, tonight's until 翌2:00
    own = {(b.hold.id, placed.rows[b.row].room.id): b for b in placed.blocks if not b.shared}
    first = own[(whole.hold.id, "hoo")]
    assert (first.x0, first.turn, first.x1, first.style) == (11, 15, 16, Style.FIRST)
    behind = own[(second.hold.id, "hoo-a")]
    assert behind.style is Style.SECOND and (behind.x0, behind.turn, behind.x1) == (12, 13, 14)
    shared = {(b.hold.id, placed.rows[b.row].room.id) for b in placed.blocks if b.shared}
    # the whole room's hold takes both halves; the half's 2nd takes the whole room
    assert shared == {(whole.hold.id, "hoo-a"), (whole.hold.id, "hoo-b"), (second.hold.id, "hoo")}
    tonight = own[(late.hold.id, "sakura")]
    assert tonight.style is Style.CONFIRMED and (tonight.x0, tonight.turn) == (21, 25)
    overnight = own[(eve.hold.id, "sakura")]
    assert (overnight.x0, overnight.turn, overnight.x1) == (0, 2, 3)  # 翌2:00 + 60' turnover
    assert placed.hold_count == 4


def test_lanes_split_only_where_blocks_meet() -> None:
    venue = factories.venue()
    read = _read(venue, [("hoo", "11:00", "15:00", 1), ("hoo", "11:00", "15:00", 2),
                         ("hoo", "18:00", "20:00", 1)])  # fmt: skip
    placed = layout.build(read, NOW)
    lanes = sorted((b.x0, b.lane, b.lanes) for b in placed.blocks if b.row == 0 and not b.shared)
    assert placed.hours == (8, 25)  # the axis starts at 8:00: 11:00 is 3 hours in
    assert lanes == [(3, 0, 2), (3, 1, 2), (10, 0, 1)]


def test_a_week_with_slots_and_a_month_by_day(engine: HoldEngine, sa_engine: sa.Engine) -> None:
    venue = engine.save_venue(
        factories.venue(slots=(Slot("昼", 660, 900), Slot("夜", 1080, 1320))), now=NOW
    )
    wed = held(engine.request(venue.id, request("hoo", start="11:00", end="21:00"), now=NOW))
    sun = held(engine.request(venue.id, request("chapel", day=date(2027, 3, 14)), now=NOW))
    apart = held(engine.request(venue.id, request("chapel", day=date(2027, 3, 31)), now=NOW))

    week = layout.build(engine.diary(venue.id, DiaryRange.week(DAY)), NOW)
    assert (week.range.first, week.range.last, len(week.columns)) == (
        date(2027, 3, 8), date(2027, 3, 14), 14)  # fmt: skip
    own = {b.hold.id: b for b in week.blocks if not b.shared}
    assert set(own) == {wed.hold.id, sun.hold.id}
    assert (own[wed.hold.id].x0, own[wed.hold.id].x1) == (4, 6)  # Wednesday's 昼 and 夜
    # the turnover's share of the block: 60' after 600' of event
    assert own[wed.hold.id].x1 - own[wed.hold.id].turn == pytest.approx(2 * 60 / 660)
    assert (own[sun.hold.id].x0, own[sun.hold.id].x1) == (12, 13)  # Sunday's 昼
    assert [h.priority for h in week.heads] == [False] * 5 + [True, True]

    with statements(sa_engine) as seen:
        read = engine.diary(venue.id, DiaryRange.month(2027, 3))
    assert len([s for s in seen if "hold_items" in s]) == 1  # one statement for the month
    month = layout.build(read, NOW)
    assert month.view is View.MONTH and len(month.columns) == 31
    assert {b.hold.id for b in month.blocks} == {wed.hold.id, sun.hold.id, apart.hold.id}
    assert all(c.slot is None for c in month.columns)
    assert month.heads[20].holiday  # 3/21 (春分の日)
    assert month.heads[0].rokuyo is not None
    pdf = render(month, _words(), Format.PDF)
    assert pdf.startswith(b"%PDF")


def _words() -> Words:
    return diary_words(factories.venue(), DiaryRange.month(2027, 3), "ja", NOW, lambda u: u)


def _read(venue: Venue, items: list[tuple[str, str, str, int]]) -> DiaryRead:
    holds = []
    for n, (room_id, start, end, rank) in enumerate(items, 1):
        room = venue.rooms[room_id]
        at = datetime.combine(DAY, datetime.min.time(), factories.JST)
        begin = at + timedelta(minutes=factories.minutes(start))
        finish = at + timedelta(minutes=factories.minutes(end))
        holds.append(
            Hold(
                id=n,
                venue_id=venue.id,
                room_id=room.id,
                room_name=room.name,
                parts=room.parts,
                local_date=DAY,
                start_at=begin,
                end_at=finish,
                span_end=finish + timedelta(minutes=60),
                kind=Kind.WEDDING,
                customer=f"c{n}",
                note="",
                salesperson=SALES,
                creator=SALES,
                status=Status.TENTATIVE,
                rank=rank,
                expires_at=NOW + timedelta(days=7) if rank == 1 else None,
                extensions_used=0,
                created_at=NOW,
                updated_at=NOW,
            )
        )
    return DiaryRead(venue, DiaryRange.day(DAY), tuple(holds))


def test_a_busy_month_keeps_every_customer_in_the_pdfs_text_however_small_its_block() -> None:
    venue = factories.venue()
    month = DiaryRange.month(2027, 5)
    holds = []
    for n in range(150):  # two or three a room and day: lanes, cut labels
        room = venue.rooms[("hoo", "hoo-a", "sakura", "chapel")[n % 4]]
        day = month.days[(n // 4) % len(month.days)]
        at = datetime.combine(day, datetime.min.time(), factories.JST)
        begin = at + timedelta(hours=10 + 4 * (n // 124))
        finish = begin + timedelta(hours=3)
        holds.append(
            Hold(
                id=n + 1,
                venue_id=venue.id,
                room_id=room.id,
                room_name=room.name,
                parts=room.parts,
                local_date=day,
                start_at=begin,
                end_at=finish,
                span_end=finish + timedelta(minutes=60),
                kind=Kind.BANQUET,
                customer=f"顧客{n:03d}様",
                note="",
                salesperson=SALES,
                creator=SALES,
                status=Status.CONFIRMED,
                rank=None,
                expires_at=None,
                extensions_used=0,
                created_at=NOW,
                updated_at=NOW,
            )
        )
    placed = layout.build(DiaryRead(venue, month, tuple(holds)), NOW)
    words = diary_words(venue, month, "ja", NOW, lambda u: "鈴木")
    reader = PdfReader(io.BytesIO(render(placed, words, Format.PDF)))
    assert len(reader.pages) == 1
    written = reader.pages[0].extract_text()
    missing = [h.customer for h in holds if h.customer not in written]
    assert missing == []
    png = Image.open(io.BytesIO(render(placed, words, Format.PNG)))
    assert png.format == "PNG" and png.width > 2800  # 31 days of 92 px and the room names
