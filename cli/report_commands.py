"""`osae report`: a month's pipeline (docs/rules.md, The pipeline report) as a table, as
JSON (a contract: fields are added, never renamed) or as an xlsx file."""

from __future__ import annotations

import argparse
import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot import pipeline as words
from bot.pipeline_home import chart_png
from bot.texts import text
from cli.context import emit, locale, now_of, open_venue, say
from cli.errors import CommandError
from cli.ledger_commands import _month
from core.exports.pipeline_sheet import write_tables
from core.model import Venue
from core.operations.pipeline import PipelineRead
from core.rules.pipeline import LOSS_REASONS, Figures, Outlook, Report, Split

FORMATS = ("xlsx", "png")  # png: the chart App Home's 「グラフで見る」 sends


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    report = commands.add_parser(
        "report",
        parents=[common],
        help=say("cli.report.help"),
    )
    report.add_argument("--month", type=_month, help=say("cli.report.month"))
    report.add_argument("--format", choices=FORMATS, help=say("cli.report.format"))
    report.add_argument("--out", type=Path, metavar="FILE", help=say("cli.report.out"))
    report.set_defaults(handler=show_report)


def show_report(args: argparse.Namespace) -> int:
    code = locale()
    if args.format and args.out is None:
        raise CommandError("usage", text(code, "pipeline.format", fmt=args.format), exit_code=2)
    engine, venue = open_venue(args)
    if args.month is None:
        today = now_of(args, venue.tz).astimezone(venue.tz).date()
        year, month = today.year, today.month
    else:
        year, month = args.month
    found = engine.reads.pipeline(venue.id, year, month)
    report, names = found.report, found.names
    if args.format:
        return _write(args, found, venue, code)
    return emit(
        args.json, report_json(report, venue, names), words.lines(report, venue, names, code)
    )


def _write(args: argparse.Namespace, found: PipelineRead, venue: Venue, code: str) -> int:
    report = found.report
    if args.format == "png":
        data, done = chart_png(found, venue, code), "pipeline.chart.saved"
    else:
        data, done = xlsx(report, venue, found.names, code), "pipeline.saved"

    try:
        args.out.write_bytes(data)
    except OSError as err:
        why = err.strerror or type(err).__name__
        said = text(code, "pipeline.cannot_write", file=args.out, why=why)
        raise CommandError("cannot_write", said) from None
    month = words.month_name(report.month, code)
    payload = {"file": str(args.out), "format": args.format, "bytes": len(data)}
    payload["month"] = _month_text(report.month)
    return emit(args.json, payload, [text(code, done, month=month, file=args.out)])


def xlsx(report: Report, venue: Venue, names: Mapping[str, str], code: str) -> bytes:
    found = words.tables(report, venue, names, code)
    buffer = io.BytesIO()
    sheets = [
        (text(code, "pipeline.sheet.summary"), found[:1]),
        (text(code, "pipeline.sheet.splits"), found[1:-1]),
        (text(code, "pipeline.sheet.forecast"), found[-1:]),
    ]
    write_tables(sheets, buffer)
    return buffer.getvalue()


def report_json(report: Report, venue: Venue, names: Mapping[str, str]) -> dict[str, Any]:
    policy = venue.policy
    return {
        "month": _month_text(report.month),
        "timezone": venue.timezone,
        "by_event_month": figures_json(report.by_event_month),
        "by_enquiry_month": figures_json(report.by_enquiry_month),
        "by_salesperson": [
            {"salesperson": s.key, "salesperson_name": names.get(s.key) or s.key, **_split(s)}
            for s in report.by_salesperson
        ],
        "by_kind": [
            {"kind": s.key, "kind_name": _kind_name(venue, s.key), **_split(s)}
            for s in report.by_kind
        ],
        "by_source": [
            {"source": s.key or None, "source_name": policy.source_name(s.key), **_split(s)}
            for s in report.by_source
        ],
        "by_reason": _by_reason(report),
        "forecast": [
            {
                "month": _month_text(f.month),
                "confirmed": _outlook(f.confirmed),
                "first": _outlook(f.first),
            }
            for f in report.forecast
        ],
    }


def figures_json(f: Figures) -> dict[str, Any]:
    return {
        "enquiries": f.enquiries,
        "holds": f.holds,
        "confirmed": f.confirmed,
        "lost": f.lost,
        "lost_by_reason": dict(f.lost_by_reason),
        "expired": f.expired,
        "other_date_chosen": f.other_date_chosen,
        "cancelled": f.cancelled,
        "open": f.open,
        "decided": f.decided,
        "conversion": f.conversion,
        "median_days_to_decision": f.median_days_to_decision,
        "entry_errors": f.entry_errors,
    }


def _split(split: Split) -> dict[str, Any]:
    return {
        "by_event_month": figures_json(split.by_event_month),
        "by_enquiry_month": figures_json(split.by_enquiry_month),
    }


def _by_reason(report: Report) -> list[dict[str, Any]]:
    event, asked = report.by_event_month.lost_by_reason, report.by_enquiry_month.lost_by_reason
    extra = sorted((set(event) | set(asked)) - set(LOSS_REASONS))
    return [
        {"reason": r, "by_event_month": event.get(r, 0), "by_enquiry_month": asked.get(r, 0)}
        for r in (*LOSS_REASONS, *extra)
    ]


def _outlook(o: Outlook) -> dict[str, int]:
    return {
        "bookings": o.bookings,
        "guests": o.guests,
        "estimate": o.estimate,
        "without_estimate": o.without_estimate,
    }


def _kind_name(venue: Venue, kind_id: str) -> str:
    found = venue.policy.kind(kind_id)
    return found.name if found else kind_id


def _month_text(month: tuple[int, int]) -> str:
    return f"{month[0]:04d}-{month[1]:02d}"
