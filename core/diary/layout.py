"""Where each block of a diary goes: rows of rooms, an axis of hours or of days, and every
live item as a block in its row, in lanes where blocks meet. Pure: the drawing reads it.

A partition (鳳凰A inside 鳳凰の間) is a row under its whole room; an item on a room that
shares a part with a row's room shows on that row too, as ``shared`` (the whole room's
banquet takes both halves; a half's wedding takes the whole room).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from core.diary.model import DiaryRange, DiaryRead, Style, View
from core.model import Hold, HoldItem, Room, Slot, Status, Venue
from core.rules.calendar import holiday_name, is_priority_day
from core.rules.lunisolar import OutOfRange
from core.rules.rokuyo import Rokuyo, rokuyo

DAY_HOURS = (8, 25)  # a day's axis by default: 8:00 to 翌1:00
HOUR = timedelta(hours=1)
MINUTES_PER_DAY = 1440
TURNOVER_SHARE = 0.25  # of a cell, at most, for the turnover strip in a week or a month


@dataclass(frozen=True)
class Row:
    room: Room
    depth: int  # 1: a partition, drawn under its whole room


@dataclass(frozen=True)
class DayHead:
    """What the date axis says of a day; the words are the caller's."""

    day: date
    rokuyo: Rokuyo | None  # None where the venue does not show it
    holiday: bool  # a national holiday of the venue's calendar
    priority: bool  # a wedding-priority day (weekend, holiday, a listed date)


@dataclass(frozen=True)
class Column:
    """One cell across of a week or a month: a day, or one of its slots."""

    day: date
    slot: Slot | None


@dataclass(frozen=True)
class Block:
    """One item on one row. ``x0``..``x1`` in axis units (hours of the day, or columns), the
    turnover from ``turn`` to ``x1``; ``lane`` of ``lanes`` where blocks meet on the row."""

    row: int
    x0: float
    x1: float
    turn: float
    lane: int
    lanes: int
    style: Style
    hold: Hold
    item: HoldItem
    shared: bool


@dataclass(frozen=True)
class Layout:
    view: View
    venue: str
    range: DiaryRange
    tz: ZoneInfo
    rows: tuple[Row, ...]
    heads: tuple[DayHead, ...]  # one per day of the range
    columns: tuple[Column, ...]  # a week's or a month's cells; () for a day
    hours: tuple[int, int]  # a day's axis (25 = 翌1:00); for a week or a month, unused
    blocks: tuple[Block, ...]
    drawn_at: datetime

    @property
    def width(self) -> float:
        """The axis length in its units."""
        if self.view is View.DAY:
            return float(self.hours[1] - self.hours[0])
        return float(len(self.columns))

    @property
    def hold_count(self) -> int:
        return len({b.hold.id for b in self.blocks})

    def day_spans(self) -> list[tuple[float, float, int]]:
        """Each day's stretch of the axis (x0, x1, its index in ``heads``): the PDF and the
        PNG draw day lines, tints and heads over the same stretches."""
        if self.view is View.DAY:
            return [(0.0, self.width, 0)]
        spans: list[tuple[float, float, int]] = []
        for n, column in enumerate(self.columns):
            index = (column.day - self.range.first).days
            if spans and spans[-1][2] == index:
                spans[-1] = (spans[-1][0], n + 1.0, index)
            else:
                spans.append((float(n), n + 1.0, index))
        return spans


def build(
    read: DiaryRead,
    drawn_at: datetime,
    *,
    rooms: Collection[str] | None = None,
    hours: tuple[int, int] = DAY_HOURS,
) -> Layout:
    """The layout of ``read`` (drawn at ``drawn_at``), of every active room or only ``rooms``."""
    venue, days = read.venue, read.range
    rows = tuple(_rows(venue, rooms))
    columns = () if days.view is View.DAY else tuple(_columns(venue, days))
    if days.view is View.DAY:
        hours = _hours_for(read, hours)
        placed = _day_blocks(read, rows, hours)
    else:
        placed = _cell_blocks(read, rows, columns)
    return Layout(
        view=days.view,
        venue=venue.name,
        range=days,
        tz=venue.tz,
        rows=rows,
        heads=tuple(_head(venue, d) for d in days.days),
        columns=columns,
        hours=hours,
        blocks=tuple(_in_lanes(placed)),
        drawn_at=drawn_at,
    )


def _rows(venue: Venue, wanted: Collection[str] | None) -> Iterable[Row]:
    """Venue-file order, each partition right under the first whole room it divides."""
    active = sorted(
        (r for r in venue.rooms.values() if r.active and (wanted is None or r.id in wanted)),
        key=lambda r: (r.position, r.id),
    )
    partitions = {r.id for r in active if any(r.parts < o.parts for o in active)}
    placed: set[str] = set()
    for room in active:
        if room.id in partitions:
            continue
        yield Row(room, 0)
        for part in active:
            if part.id in partitions and part.id not in placed and part.parts < room.parts:
                placed.add(part.id)
                yield Row(part, 1)


def _columns(venue: Venue, days: DiaryRange) -> Iterable[Column]:
    slots = venue.slots if days.view is View.WEEK else ()
    for day in days.days:
        if slots:
            yield from (Column(day, s) for s in slots)
        else:
            yield Column(day, None)


def _head(venue: Venue, day: date) -> DayHead:
    entries = venue.policy.priority_days
    six: Rokuyo | None = None
    if venue.policy.show_rokuyo:
        try:
            six = rokuyo(day)
        except OutOfRange:
            six = None
    holiday = holiday_name(day, entries) is not None
    return DayHead(day, six, holiday, is_priority_day(day, entries))


def style_of(hold: Hold) -> Style:
    if hold.status is Status.CONFIRMED:
        return Style.CONFIRMED
    if hold.house:  # 社内押さえ: the venue's own use, cross-hatched
        return Style.HOUSE
    return Style.FIRST if hold.is_first else Style.SECOND


def _items(read: DiaryRead) -> Iterable[tuple[Hold, HoldItem]]:
    return ((h, item) for h in read.holds for item in h.items)


def _hours_for(read: DiaryRead, hours: tuple[int, int]) -> tuple[int, int]:
    """The axis widened to whole hours to show every item of the day that falls outside it."""
    midnight = _midnight(read.range.first, read.venue.tz)
    low, high = hours
    for _, item in _items(read):
        start = (item.start_at - midnight) / HOUR
        end = (item.span_end - midnight) / HOUR
        if end > 0 and start < 24:  # the day's own events (and last night's that run into it)
            low = min(low, max(0, math.floor(start)))
            high = max(high, min(48, math.ceil(end)))
    return low, high


def _day_blocks(read: DiaryRead, rows: Sequence[Row], hours: tuple[int, int]) -> list[Block]:
    midnight = _midnight(read.range.first, read.venue.tz)
    low, high = hours
    found: list[Block] = []
    for hold, item in _items(read):
        start = (item.start_at - midnight) / HOUR - low
        end = (item.end_at - midnight) / HOUR - low
        until = (item.span_end - midnight) / HOUR - low
        if until <= 0 or start >= high - low:
            continue
        x0, x1 = max(0.0, start), min(float(high - low), until)
        turn = min(max(end, x0), x1)
        found += _on_rows(rows, hold, item, x0, x1, turn)
    return found


def _cell_blocks(read: DiaryRead, rows: Sequence[Row], columns: Sequence[Column]) -> list[Block]:
    where: dict[date, list[int]] = {}
    for n, column in enumerate(columns):
        where.setdefault(column.day, []).append(n)
    found: list[Block] = []
    for hold, item in _items(read):
        cells = where.get(hold.local_date)
        if not cells:
            continue  # the day before the range: only a day's axis shows it
        first, last = _cells_of(hold, item, [columns[n] for n in cells], read.venue.tz)
        x0, x1 = float(cells[first]), float(cells[last] + 1)
        event = (item.end_at - item.start_at).total_seconds()
        turnover = (item.span_end - item.end_at).total_seconds()
        share = min(TURNOVER_SHARE, turnover / (event + turnover)) if turnover > 0 else 0.0
        found += _on_rows(rows, hold, item, x0, x1, x1 - share * (x1 - x0))
    return found


def _cells_of(
    hold: Hold, item: HoldItem, columns: Sequence[Column], tz: ZoneInfo
) -> tuple[int, int]:
    """The first and last of a day's columns the item's times fall in (the day's only one
    without slots; an item outside every slot goes to the nearest one)."""
    if len(columns) == 1 or columns[0].slot is None:
        return 0, 0
    midnight = _midnight(hold.local_date, tz)
    start = (item.start_at - midnight) / timedelta(minutes=1)
    end = (item.end_at - midnight) / timedelta(minutes=1)
    slots = [c.slot for c in columns if c.slot is not None]
    taken = [n for n, s in enumerate(slots) if s.start_min < end and start < s.end_min]
    if taken:
        return taken[0], taken[-1]
    later = [n for n, s in enumerate(slots) if s.start_min >= end]
    nearest = later[0] if later else len(slots) - 1
    return nearest, nearest


def _on_rows(
    rows: Sequence[Row], hold: Hold, item: HoldItem, x0: float, x1: float, turn: float
) -> list[Block]:
    style = style_of(hold)
    return [
        Block(n, x0, x1, turn, 0, 1, style, hold, item, shared=row.room.id != item.room_id)
        for n, row in enumerate(rows)
        if item.parts & row.room.parts
    ]


def _in_lanes(blocks: list[Block]) -> Iterable[Block]:
    """Each row's own blocks in lanes: a block takes the first lane free at its start; blocks
    that meet (a cluster) share the cluster's lane count, so one busy hour thins only itself.
    Shared blocks (another room's item on this row's parts) take no lane."""
    order = {Style.CONFIRMED: 0, Style.HOUSE: 1, Style.FIRST: 2, Style.SECOND: 3}
    yield from (b for b in blocks if b.shared)  # a band at the row's foot: no lane of its own
    by_row: dict[int, list[Block]] = {}
    for b in sorted(blocks, key=lambda b: (b.row, b.x0, order[b.style], b.hold.id)):
        if not b.shared:
            by_row.setdefault(b.row, []).append(b)
    for row_blocks in by_row.values():
        cluster: list[tuple[Block, int]] = []
        ends: list[float] = []
        for b in row_blocks:
            if cluster and b.x0 >= max(ends):
                yield from _laned(cluster, len(ends))
                cluster, ends = [], []
            lane = next((n for n, end in enumerate(ends) if end <= b.x0), len(ends))
            if lane == len(ends):
                ends.append(b.x1)
            else:
                ends[lane] = b.x1
            cluster.append((b, lane))
        yield from _laned(cluster, len(ends))


def _laned(cluster: list[tuple[Block, int]], lanes: int) -> Iterable[Block]:
    for b, lane in cluster:
        yield Block(
            b.row, b.x0, b.x1, b.turn, lane, lanes, b.style, b.hold, b.item, shared=b.shared
        )


def _midnight(day: date, tz: ZoneInfo) -> datetime:
    return datetime.combine(day, time(), tz)
