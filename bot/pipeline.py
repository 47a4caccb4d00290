"""The pipeline report as people read it: tables in the reader's language, shared by the
terminal (`osae report`), its xlsx file and the managers' App Home. Cells stay numbers
(None for none) until a table is printed, so the sheet keeps them as numbers."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence

from bot.texts import lang, text
from bot.texts.kinds import kind_name
from core.exports.pipeline_sheet import Cell, Table
from core.model import Venue
from core.rules.pipeline import Figures, Forecast, Report, Split

FIGURES = (
    "enquiries",
    "holds",
    "confirmed",
    "lost",
    "expired",
    "cancelled",
    "open",
    "other_date_chosen",
    "conversion",
    "median_days",
)
FORECAST = (
    "month",
    "confirmed_bookings",
    "confirmed_guests",
    "confirmed_estimate",
    "first_bookings",
    "first_guests",
    "first_estimate",
)


def month_name(month: tuple[int, int], locale: str) -> str:
    return text(locale, "pipeline.month", year=month[0], month=month[1])


def reason_name(code: str, locale: str) -> str:
    key = "pipeline.reason.taken" if code == "taken" else f"reason.{code}"
    try:
        return text(locale, key)
    except KeyError:
        return code


def figure_cells(f: Figures) -> tuple[Cell, ...]:
    return (
        f.enquiries,
        f.holds,
        f.confirmed,
        f.lost,
        f.expired,
        f.cancelled,
        f.open,
        f.other_date_chosen,
        f.conversion,
        f.median_days_to_decision,
    )


def _figure_table(title: str, rows: Sequence[tuple[str, Figures]], locale: str) -> Table:
    header = ("", *(text(locale, f"pipeline.col.{c}") for c in FIGURES))
    cells = tuple((name, *figure_cells(f)) for name, f in rows)
    return Table(title, header, cells, percent=frozenset({FIGURES.index("conversion") + 1}))


def summary(report: Report, locale: str) -> Table:
    month = month_name(report.month, locale)
    rows = (
        (text(locale, "pipeline.by_event_month", month=month), report.by_event_month),
        (text(locale, "pipeline.by_enquiry_month", month=month), report.by_enquiry_month),
    )
    return _figure_table(text(locale, "pipeline.title", month=month), rows, locale)


def lost_lines(report: Report, locale: str) -> list[str]:
    month = month_name(report.month, locale)
    lines = []
    for basis, f in (
        (text(locale, "pipeline.by_event_month", month=month), report.by_event_month),
        (text(locale, "pipeline.by_enquiry_month", month=month), report.by_enquiry_month),
    ):
        if not f.lost_by_reason:
            lines.append(text(locale, "pipeline.lost_none", basis=basis))
            continue
        joiner = "、" if lang(locale) == "ja" else ", "
        said = joiner.join(f"{reason_name(r, locale)} {n}" for r, n in f.lost_by_reason.items())
        lines.append(text(locale, "pipeline.lost_by_reason", basis=basis, reasons=said))
    return lines


def splits(report: Report, venue: Venue, names: Mapping[str, str], locale: str) -> list[Table]:
    def person(key: str) -> str:
        return f"{names.get(key) or key} ({key})" if names.get(key) else key

    def kind(key: str) -> str:
        found = venue.policy.kind(key)
        return kind_name(key, found.name if found else "", locale)

    def source(key: str) -> str:
        return venue.policy.source_name(key) if key else text(locale, "pipeline.source.none")

    return [
        _split_table(
            text(locale, "pipeline.by_salesperson"), report.by_salesperson, person, locale
        ),
        _split_table(text(locale, "pipeline.by_kind"), report.by_kind, kind, locale),
        _split_table(text(locale, "pipeline.by_source"), report.by_source, source, locale),
    ]


def _split_table(
    title: str, found: Sequence[Split], name: Callable[[str], str], locale: str
) -> Table:
    rows: list[tuple[str, Figures]] = []
    for split in found:
        shown = name(split.key)
        rows.append((text(locale, "pipeline.split.event", name=shown), split.by_event_month))
        rows.append((text(locale, "pipeline.split.enquiry", name=shown), split.by_enquiry_month))
    return _figure_table(title, rows, locale)


def forecast(report: Report, locale: str) -> Table:
    header = tuple(text(locale, f"pipeline.col.{c}") for c in FORECAST)
    rows = tuple(_forecast_row(f, locale) for f in report.forecast)
    return Table(text(locale, "pipeline.forecast"), header, rows, money=frozenset({3, 6}))


def _forecast_row(f: Forecast, locale: str) -> tuple[Cell, ...]:
    c, first = f.confirmed, f.first
    month = month_name(f.month, locale)
    return (month, c.bookings, c.guests, c.estimate, first.bookings, first.guests, first.estimate)


def tables(report: Report, venue: Venue, names: Mapping[str, str], locale: str) -> list[Table]:
    return [
        summary(report, locale),
        *splits(report, venue, names, locale),
        forecast(report, locale),
    ]


def lines(report: Report, venue: Venue, names: Mapping[str, str], locale: str) -> list[str]:
    """The whole report as the terminal prints it."""
    out: list[str] = []
    found = tables(report, venue, names, locale)
    out += printed(found[0], locale)
    out += lost_lines(report, locale)
    for table in found[1:]:
        out += ["", *printed(table, locale)]
    return out


def cell_text(value: Cell, column: int, table: Table, locale: str) -> str:
    if value is None:
        return text(locale, "pipeline.none")
    if column in table.percent and isinstance(value, float):
        return text(locale, "pipeline.percent", value=value * 100)
    if column in table.money and isinstance(value, int):
        return text(locale, "pipeline.yen", amount=value)
    return str(value)


def printed(table: Table, locale: str) -> list[str]:
    """The table with its columns lined up (a full-width character counts two)."""
    rows = [list(table.header)] + [
        [cell_text(v, n, table, locale) for n, v in enumerate(row)] for row in table.rows
    ]
    widths = [max(width(r[n]) for r in rows) for n in range(len(table.header))]
    out = [table.title]
    for row in rows:
        cells = [_pad(v, widths[n], left=n == 0) for n, v in enumerate(row)]
        out.append("  " + "  ".join(cells).rstrip())
    return out


def _pad(value: str, size: int, *, left: bool) -> str:
    gap = " " * (size - width(value))
    return value + gap if left else gap + value


def width(value: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in value)
