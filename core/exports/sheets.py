"""The layout's rows as a file: xlsx (openpyxl) with real Excel dates and times, a frozen
header row, filters and widths that fit; CSV in UTF-8 with a BOM, as Excel on a Japanese
Windows opens it right."""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Sequence
from datetime import date, datetime, time
from typing import IO

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from core.exports.layout import LedgerRow, headers

SHEET = "予約台帳"
_FORMATS = {date: "yyyy-mm-dd", time: "h:mm", datetime: "yyyy-mm-dd h:mm"}
_WIDEST = 60  # characters: a long note does not push the sheet off the screen


def write_xlsx(rows: Sequence[LedgerRow], out: IO[bytes], *, with_contact: bool) -> None:
    """Write-only mode: a year's ledger (20,000 rows) streams out without a cell tree."""
    book = Workbook(write_only=True)
    sheet: WriteOnlyWorksheet = book.create_sheet(SHEET)
    names = headers(with_contact)
    cells = [row.cells() for row in rows]
    for n, width in enumerate(_widths(names, cells), start=1):
        sheet.column_dimensions[get_column_letter(n)].width = width
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(names))}{len(cells) + 1}"
    bold = Font(bold=True)
    sheet.append([_styled(sheet, name, font=bold) for name in names])
    for values in cells:
        sheet.append([_cell(sheet, v) for v in values])
    book.save(out)


def _cell(sheet: WriteOnlyWorksheet, value: object) -> object:
    fmt = _FORMATS.get(type(value))
    return _styled(sheet, value, number_format=fmt) if fmt else value


def _styled(
    sheet: WriteOnlyWorksheet, value: object, *, font: Font | None = None, number_format: str = ""
) -> WriteOnlyCell:
    cell = WriteOnlyCell(sheet, value=value)
    if font is not None:
        cell.font = font
    if number_format:
        cell.number_format = number_format
    return cell


def _widths(names: Sequence[str], cells: Sequence[tuple[object, ...]]) -> list[float]:
    """Each column as wide as its widest value (a full-width character counts two)."""
    widest = [_width(name) for name in names]
    for values in cells:
        for n, value in enumerate(values):
            w = _width(_text(value))
            widest[n] = max(widest[n], w)
    return [min(w, _WIDEST) + 2.0 for w in widest]


def _width(value: str) -> int:
    if value.isascii():
        return len(value)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in value)


def write_csv(rows: Sequence[LedgerRow], out: IO[bytes], *, with_contact: bool) -> None:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(headers(with_contact))
    writer.writerows([_text(v) for v in row.cells()] for row in rows)
    out.write(buffer.getvalue().encode("utf-8-sig"))


def _text(value: object) -> str:
    """A cell as text: dates ISO, times HH:MM, nothing for None."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, time):
        return value.strftime("%H:%M")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)
