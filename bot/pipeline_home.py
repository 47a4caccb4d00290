"""The pipeline at a glance: the managers' App Home block (this month and the next three:
enquiries, confirmed, losses by their top reasons, conversion, forecast guests and
estimate, with 「グラフで見る」) and the chart picture that button (and `osae report
--format png`) draws, in the reader's language."""

from __future__ import annotations

from slack_sdk.models.blocks import Block, ButtonElement

from bot import ids
from bot.blocks import context, plain, section
from bot.pipeline import month_name, reason_name
from bot.texts import lang, text
from core.exports.pipeline_chart import ChartWords, render_chart
from core.model import Venue
from core.operations.pipeline import PipelineRead
from core.rules.pipeline import MonthLine, Outlook, months_ahead, top_reasons

MONTHS = 4  # this month and the next three


def lines_of(read: PipelineRead) -> tuple[MonthLine, ...]:
    return months_ahead(read.bookings, read.report.month, MONTHS)


def home_blocks(read: PipelineRead, locale: str) -> list[Block]:
    """A section of one line a month and the chart's button; a context saying how counted."""
    said = [f"*{text(locale, 'pipeline.home.title')}*"]
    said += [month_line(line, locale) for line in lines_of(read)]
    lead = section("\n".join(said), block_id=ids.PIPELINE_BLOCK)
    lead.accessory = ButtonElement(
        action_id=ids.PIPELINE_CHART,
        text=plain(text(locale, "pipeline.home.button"), 75),
        value=f"{read.report.month[0]:04d}-{read.report.month[1]:02d}",
    )
    return [lead, context(text(locale, "pipeline.home.footer"))]


def month_line(line: MonthLine, locale: str) -> str:
    f, ahead = line.figures, line.forecast
    joiner = "、" if lang(locale) == "ja" else ", "
    reasons = joiner.join(f"{reason_name(r, locale)} {n}" for r, n in top_reasons(f))
    lost = text(locale, "pipeline.home.lost", lost=f.lost, reasons=reasons) if reasons else ""
    return text(
        locale,
        "pipeline.home.line",
        month=month_name(line.month, locale),
        enquiries=f.enquiries,
        confirmed=f.confirmed,
        lost=lost or text(locale, "pipeline.home.lost_none", lost=f.lost),
        conversion=_percent(f.conversion, locale),
        confirmed_outlook=_outlook(ahead.confirmed, locale),
        first_outlook=_outlook(ahead.first, locale),
    )


def _percent(value: float | None, locale: str) -> str:
    if value is None:
        return text(locale, "pipeline.none")
    return text(locale, "pipeline.percent", value=value * 100)


def _outlook(o: Outlook, locale: str) -> str:
    return text(locale, "pipeline.home.outlook", guests=o.guests, estimate=o.estimate)


def chart_png(read: PipelineRead, venue: Venue, locale: str) -> bytes:
    return render_chart(lines_of(read), chart_words(read, venue, locale))


def chart_words(read: PipelineRead, venue: Venue, locale: str) -> ChartWords:
    lines = lines_of(read)
    month = month_name(read.report.month, locale)
    reasons = read.report.by_event_month.lost_by_reason
    ranked = sorted(reasons.items(), key=lambda pair: -pair[1])
    return ChartWords(
        title=text(locale, "pipeline.chart.title", venue=venue.name, month=month),
        subtitle=text(locale, "pipeline.chart.subtitle"),
        months=tuple(month_name(line.month, locale) for line in lines),
        counts_title=text(locale, "pipeline.chart.counts"),
        counts=(
            text(locale, "pipeline.col.enquiries"),
            text(locale, "pipeline.col.confirmed"),
            text(locale, "pipeline.col.lost"),
            text(locale, "pipeline.col.expired"),
        ),
        guests_title=text(locale, "pipeline.chart.guests"),
        guests=(text(locale, "pipeline.col.confirmed"), text(locale, "pipeline.chart.first")),
        money=tuple(
            text(
                locale,
                "pipeline.yen",
                amount=line.forecast.confirmed.estimate + line.forecast.first.estimate,
            )
            for line in lines
        ),
        reasons_title=text(locale, "pipeline.chart.reasons", month=month),
        reasons=tuple((reason_name(r, locale), n) for r, n in ranked),
        no_reasons=text(locale, "pipeline.chart.no_reasons"),
    )
