"""A venue's ledger read back from a file in the 予約台帳 layout (or mapped columns): each row
parsed strictly, once, with what is wrong with it by line. Reads; places nothing."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from enum import StrEnum

from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException

from core.exports import layout

REQUIRED: tuple[str, ...] = (
    layout.DAY,
    layout.ROOM,
    layout.START,
    layout.END,
    layout.KIND,
    layout.CUSTOMER,
)
REQUIRED += (layout.SALESPERSON, layout.STATE)
KNOWN = (*layout.HEADERS, layout.CONTACT)
_DAY = re.compile(r"([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})")
_CLOCK = re.compile(r"(翌)?([0-9]{1,2}):([0-9]{2})(?::00)?")
_WHEN = re.compile(r"(.+?)[ T]([0-9]{1,2}:[0-9]{2})(?::00)?")


class PlaceAs(StrEnum):
    REQUEST = "request"  # 仮 / N番手: asked for, in file order
    CONFIRMED = "confirmed"  # 本予約: asked for, then confirmed
    LEFT = "left"  # a hold that already left (an export with --all): skipped
    HOUSE = "house"  # 社内押さえ: asked for as a house hold (its placer a manager)


@dataclass(frozen=True)
class Placement:
    how: PlaceAs
    rank: int = 0  # the rank the file says (0: none), for the order rows are placed in

    @classmethod
    def request(cls, rank: int) -> Placement:
        return cls(PlaceAs.REQUEST, rank)

    @classmethod
    def confirmed(cls) -> Placement:
        return cls(PlaceAs.CONFIRMED)

    @classmethod
    def house(cls) -> Placement:
        return cls(PlaceAs.HOUSE, 1)

    @classmethod
    def left(cls) -> Placement:
        return cls(PlaceAs.LEFT)


@dataclass(frozen=True)
class Problem:
    """Why a line cannot be placed: ``code`` with its facts (the caller words it)."""

    line: int
    code: str  # bad_date, bad_time, bad_guests, bad_deadline, bad_state, missing, ...
    facts: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SheetRow:
    """One line: one room of a hold. Minutes from local midnight; an end at or before the
    start is past midnight (its minutes above 1440). ``deadline`` venue-local, naive."""

    line: int
    day: date
    room: str
    start_min: int
    end_min: int
    kind: str
    customer: str
    salesperson: str
    placement: Placement
    guests: int | None = None
    deadline: datetime | None = None
    booking: str = ""
    note: str = ""
    contact: str = ""
    estimate: int | None = None  # 見積, whole yen
    source: str = ""  # 媒体 as written: the venue's name for a source, or its code


@dataclass(frozen=True)
class Sheet:
    rows: tuple[SheetRow, ...]
    problems: tuple[Problem, ...]
    skipped: int = 0  # lines of holds that left


class FileProblem(Exception):
    """The file as a whole cannot be read: ``code`` with its facts (the caller words it)."""

    def __init__(self, code: str, **facts: str) -> None:
        super().__init__(code)
        self.code = code
        self.facts = facts


Words = Callable[[str], Placement | None]  # a 状態 word as the caller's catalogs read it


def read_ledger(
    data: bytes, fmt: str, words: Words, columns: Mapping[str, str] | None = None
) -> Sheet:
    """``fmt``: ``xlsx`` or ``csv``; ``columns``: layout header -> the file's header."""
    lines = _xlsx_lines(data) if fmt == "xlsx" else _csv_lines(data)
    header = next(lines, None)
    if header is None:
        raise FileProblem("no_rows")
    where = _columns(header[1], columns or {})
    rows: list[SheetRow] = []
    problems: list[Problem] = []
    skipped = 0
    for number, cells in lines:
        if all(_blank(c) for c in cells):
            continue
        read = _row(number, {name: _at(cells, n) for name, n in where.items()}, words)
        if isinstance(read, Problem):
            problems.append(read)
        elif read is None:
            skipped += 1
        else:
            rows.append(read)
    if not rows and not problems and not skipped:
        raise FileProblem("no_rows")
    return Sheet(tuple(rows), tuple(problems), skipped)


def _xlsx_lines(data: bytes) -> Iterator[tuple[int, Sequence[object]]]:
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError, OSError) as err:
        raise FileProblem("not_xlsx", why=type(err).__name__) from None
    sheet = book.worksheets[0]
    yield from enumerate(sheet.iter_rows(values_only=True), start=1)
    book.close()


def _csv_lines(data: bytes) -> Iterator[tuple[int, Sequence[object]]]:
    try:
        decoded = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise FileProblem("not_utf8", line=str(data[: err.start].count(b"\n") + 1)) from None
    reader = csv.reader(io.StringIO(decoded, newline=""))
    for cells in reader:
        yield reader.line_num, cells


def _columns(header: Sequence[object], mapping: Mapping[str, str]) -> dict[str, int]:
    found = [str(h).strip() if h is not None else "" for h in header]
    wanted = {name: mapping.get(name, name) for name in KNOWN}
    where = {name: found.index(title) for name, title in wanted.items() if title in found}
    missing = [name for name in REQUIRED if name not in where]
    if missing:
        shown = "、".join(f"「{wanted[m]}」" for m in missing)
        raise FileProblem("missing_columns", columns=shown, found=", ".join(found))
    return where


def _at(cells: Sequence[object], n: int) -> object:
    return cells[n] if n < len(cells) else None


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _row(line: int, cell: Mapping[str, object], words: Words) -> SheetRow | Problem | None:
    """One line parsed, or its first problem; None for a hold that already left."""
    for name in REQUIRED:
        if _blank(cell.get(name)):
            return Problem(line, "missing", {"column": name})
    said = _str(cell[layout.STATE])
    placement = words(said)
    if placement is None:
        return Problem(line, "bad_state", {"value": said})
    if placement.how is PlaceAs.LEFT:
        return None
    parsed = _parsed(line, cell)
    if isinstance(parsed, Problem):
        return parsed
    day, start, end, guests, deadline = parsed
    estimate = _estimate(cell.get(layout.ESTIMATE))
    if estimate == -1:
        return Problem(line, "bad_estimate", {"value": _str(cell.get(layout.ESTIMATE))})
    return SheetRow(
        line=line,
        day=day,
        room=_str(cell[layout.ROOM]),
        start_min=start,
        end_min=end if end > start else end + 1440,
        kind=_str(cell[layout.KIND]),
        customer=_str(cell[layout.CUSTOMER]),
        salesperson=_str(cell[layout.SALESPERSON]),
        placement=placement,
        guests=guests,
        deadline=deadline,
        booking=_str(cell.get(layout.BOOKING)),
        note=_str(cell.get(layout.NOTE)),
        contact=_str(cell.get(layout.CONTACT)),
        estimate=estimate,
        source=_str(cell.get(layout.SOURCE)),
    )


def _parsed(
    line: int, cell: Mapping[str, object]
) -> tuple[date, int, int, int | None, datetime | None] | Problem:
    day = _day(cell[layout.DAY])
    if day is None:
        return Problem(line, "bad_date", {"value": _str(cell[layout.DAY])})
    times = []
    for name in (layout.START, layout.END):
        minutes = _minutes(cell[name])
        if minutes is None:
            return Problem(line, "bad_time", {"column": name, "value": _str(cell[name])})
        times.append(minutes)
    guests = _guests(cell.get(layout.GUESTS))
    if guests == -1:
        return Problem(line, "bad_guests", {"value": _str(cell.get(layout.GUESTS))})
    deadline = _deadline(cell.get(layout.DEADLINE))
    if deadline is False:
        return Problem(line, "bad_deadline", {"value": _str(cell.get(layout.DEADLINE))})
    return day, times[0], times[1], guests, deadline if isinstance(deadline, datetime) else None


def _str(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _day(value: object) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    match = _DAY.fullmatch(_str(value))
    if match is None:
        return None
    try:
        return date(*(int(g) for g in match.groups()))
    except ValueError:
        return None


def _minutes(value: object) -> int | None:
    """Minutes after midnight; 翌1:00 (the next day's) counts past 1440."""
    if isinstance(value, datetime):
        value = value.time()
    if isinstance(value, time):
        return value.hour * 60 + value.minute
    if isinstance(value, float) and 0 <= value < 1:  # an Excel time kept as a number
        return round(value * 1440)
    match = _CLOCK.fullmatch(_str(value))
    if match is None:
        return None
    hours, minutes = int(match.group(2)), int(match.group(3))
    if hours > 23 or minutes > 59:
        return None
    return hours * 60 + minutes + (1440 if match.group(1) else 0)


def _guests(value: object) -> int | None:
    """None when empty, -1 when unreadable."""
    if _blank(value):
        return None
    said = _str(value).removesuffix("名").removesuffix("人")
    return int(said) if said.isdecimal() and 0 < int(said) <= 100_000 else -1


def _estimate(value: object) -> int | None:
    """Whole yen (``3500000``, ``3,500,000``, ``¥3,500,000``, ``350万``): None when empty,
    -1 when unreadable."""
    if _blank(value):
        return None
    said = _str(value).lstrip("¥￥").replace(",", "").removesuffix("円")
    ten_thousands = said.endswith("万")
    said = said.removesuffix("万")
    if not said.isascii() or not said.isdecimal():
        return -1
    yen = int(said) * (10_000 if ten_thousands else 1)
    return yen if yen <= 1_000_000_000 else -1


def _deadline(value: object) -> datetime | bool | None:
    """None when empty, False when unreadable."""
    if _blank(value):
        return None
    if isinstance(value, datetime):
        return value.replace(second=0, microsecond=0)
    match = _WHEN.fullmatch(_str(value))
    day = _day(match.group(1)) if match else None
    minutes = _minutes(match.group(2)) if match else None
    if day is None or minutes is None or minutes >= 1440:
        return False
    return datetime.combine(day, time(minutes // 60, minutes % 60))
