"""The pipeline as a picture (PNG), drawn as the diary's PDF is: matplotlib with the packaged
Japanese font (``core.diary.font``), one drawing at a time. Three panels: each event month's
enquiries, confirmed, lost and expired; the forecast's guests (confirmed and live 1st) with
their estimates; the month's losses by reason. Its words come from the caller (ja or en)."""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties

from core.diary.font import font_file
from core.rules.pipeline import MonthLine

DPI = 150
_LOCK = threading.Lock()  # rcParams are the process's (as the diary's drawing)
_RC: dict[str, Any] = {"axes.spines.top": False, "axes.spines.right": False}
# counts: enquiries, confirmed, lost, expired; guests: confirmed, live 1st
COLOURS = ("#9aa5b1", "#2f6f4f", "#c0504d", "#e3a33b")
GUESTS = ("#2f6f4f", "#a9cfb9")


@dataclass(frozen=True)
class ChartWords:
    """What the picture says, in the reader's language."""

    title: str
    subtitle: str
    months: tuple[str, ...]  # a label per MonthLine
    counts_title: str
    counts: tuple[str, str, str, str]  # enquiries, confirmed, lost, expired
    guests_title: str
    guests: tuple[str, str]  # confirmed, live 1st
    money: tuple[str, ...]  # each month's estimate, written out (confirmed + 1st)
    reasons_title: str
    reasons: tuple[tuple[str, int], ...]  # (name, bookings), most first
    no_reasons: str


def render_chart(lines: Sequence[MonthLine], words: ChartWords) -> bytes:
    """The PNG's bytes (about 1,650 × 1,050 pixels)."""
    font = FontProperties(fname=str(font_file()))
    with _LOCK, matplotlib.rc_context(_RC):  # type: ignore[arg-type]
        figure = Figure(figsize=(11, 7), dpi=DPI)
        grid = figure.add_gridspec(2, 2, height_ratios=(1, 1), hspace=0.5, wspace=0.45)
        figure.subplots_adjust(left=0.07, right=0.97, top=0.82, bottom=0.08)
        figure.text(0.07, 0.95, words.title, fontproperties=font, fontsize=17, weight="bold")
        figure.text(0.07, 0.905, words.subtitle, fontproperties=font, fontsize=10, color="#555")
        _counts(figure.add_subplot(grid[0, :]), lines, words, font)
        _guests(figure.add_subplot(grid[1, 0]), lines, words, font)
        _reasons(figure.add_subplot(grid[1, 1]), words, font)
        out = io.BytesIO()
        figure.savefig(out, format="png", dpi=DPI, metadata={"Title": words.title})
    return out.getvalue()


def _counts(
    axes: Axes, lines: Sequence[MonthLine], words: ChartWords, font: FontProperties
) -> None:
    width = 0.2
    for n, (label, colour) in enumerate(zip(words.counts, COLOURS, strict=True)):
        values = [_count(line, n) for line in lines]
        places = [i + (n - 1.5) * width for i in range(len(lines))]
        bars = axes.bar(places, values, width, color=colour, label=label)
        axes.bar_label(bars, fontsize=9)
    _frame(axes, words.counts_title, words.months, font)
    _legend(axes, font, 4)


def _count(line: MonthLine, n: int) -> int:
    f = line.figures
    return (f.enquiries, f.confirmed, f.lost, f.expired)[n]


def _guests(
    axes: Axes, lines: Sequence[MonthLine], words: ChartWords, font: FontProperties
) -> None:
    places = range(len(lines))
    confirmed = [line.forecast.confirmed.guests for line in lines]
    first = [line.forecast.first.guests for line in lines]
    axes.bar(places, confirmed, 0.55, color=GUESTS[0], label=words.guests[0])
    axes.bar(places, first, 0.55, bottom=confirmed, color=GUESTS[1], label=words.guests[1])
    top = max([c + f for c, f in zip(confirmed, first, strict=True)] + [1])
    for i, said in enumerate(words.money):
        axes.text(i, confirmed[i] + first[i] + top * 0.03, said, ha="center", fontsize=8,
                  fontproperties=font)  # fmt: skip
    axes.set_ylim(0, top * 1.45)  # room above the bars for the legend
    _frame(axes, words.guests_title, words.months, font)
    axes.legend(prop=font, frameon=False, ncols=2, loc="upper right")


def _reasons(axes: Axes, words: ChartWords, font: FontProperties) -> None:
    axes.set_title(words.reasons_title, fontproperties=font, fontsize=12, loc="left")
    if not words.reasons:
        axes.axis("off")
        axes.text(0.5, 0.5, words.no_reasons, ha="center", fontproperties=font, fontsize=11)
        return
    names = [name for name, _ in reversed(words.reasons)]
    counts = [count for _, count in reversed(words.reasons)]
    bars = axes.barh(range(len(names)), counts, color=COLOURS[2])
    axes.bar_label(bars, fontsize=9, padding=3)
    axes.set_xlim(0, max(counts) * 1.15)
    axes.set_yticks(range(len(names)), names, fontproperties=font, fontsize=9)
    axes.xaxis.get_major_locator().set_params(integer=True)  # type: ignore[call-arg]


def _frame(axes: Axes, title: str, months: Sequence[str], font: FontProperties) -> None:
    axes.set_title(title, fontproperties=font, fontsize=12, loc="left")
    axes.set_xticks(range(len(months)), months, fontproperties=font, fontsize=10)
    axes.yaxis.get_major_locator().set_params(integer=True)  # type: ignore[call-arg]


def _legend(axes: Axes, font: FontProperties, columns: int) -> None:
    """Above the panel on the right, clear of every bar and label."""
    axes.legend(prop=font, frameon=False, ncols=columns, loc="lower right", bbox_to_anchor=(1, 1.0))
