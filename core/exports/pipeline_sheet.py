"""The pipeline report as an xlsx file (XlsxWriter, as the ledger export): one sheet per
group of tables, each table a bold title and header, numbers kept numbers, yen and ratios
formatted as Excel formats them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

import xlsxwriter

Cell = str | int | float | None


@dataclass(frozen=True)
class Table:
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    money: frozenset[int] = frozenset()  # columns in yen
    percent: frozenset[int] = frozenset()  # columns of a ratio (0.25 shows 25%)


def write_tables(sheets: Sequence[tuple[str, Sequence[Table]]], out: IO[bytes]) -> None:
    """Each sheet (its name, its tables), the tables one under the other with a row between."""
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    bold = book.add_format({"bold": True})
    yen = book.add_format({"num_format": "¥#,##0"})
    ratio = book.add_format({"num_format": "0%"})
    for name, found in sheets:
        sheet = book.add_worksheet(name[:31])
        row = 0
        widths: dict[int, int] = {}
        for table in found:
            sheet.write_string(row, 0, table.title, bold)
            for n, head in enumerate(table.header):
                if head:
                    sheet.write_string(row + 1, n, head, bold)
                widths[n] = max(widths.get(n, 8), len(head) * 2)
            for r, values in enumerate(table.rows, start=row + 2):
                for n, value in enumerate(values):
                    fmt = yen if n in table.money else ratio if n in table.percent else None
                    if isinstance(value, str):
                        sheet.write_string(r, n, value)
                        widths[n] = max(widths.get(n, 8), len(value) * 2)
                    elif value is not None:
                        sheet.write_number(r, n, value, fmt)
            row += len(table.rows) + 3
        for n, size in widths.items():
            sheet.set_column(n, n, min(size, 40))
    book.close()
