"""A diary layout drawn as PDF (A4 or A3 landscape, to print, its text real text in an
embedded TrueType font), or as PNG (for Slack: ``raster``, with the same looks).

Blocks are told apart in colour and in black and white: a confirmed booking is solid dark, a
1st hold light with a heavy border, a 2nd white with a dashed border, a house hold cross-
hatched; each starts with its mark (本, 1, 2, 社) and the turnover after it is hatched grey.
Drawn with matplotlib's object API on a figure of its own (no pyplot, no global state but
the PDF font type, set for the drawing only and under a lock).
"""

from __future__ import annotations

import io
import math
import threading
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

import matplotlib
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Patch, Rectangle
from matplotlib.transforms import TransformedBbox

from core.diary.font import font_file
from core.diary.layout import Block, Layout
from core.diary.looks import (
    BAND as _BAND,
)
from core.diary.looks import (
    DAY_LINE,
    GRID,
    HEADER_INK,
    LOOKS,
    PRIORITY_TINT,
    SHARED,
    TURNOVER,
    Look,
)
from core.diary.looks import (
    PAD as _PAD,
)
from core.diary.model import Style, View
from core.diary.raster import render_png
from core.diary.words import Words, block_lines


class Format(StrEnum):
    PNG = "png"
    PDF = "pdf"


class Paper(StrEnum):
    A4 = "a4"
    A3 = "a3"


PAPER_INCHES = {Paper.A4: (11.69, 8.27), Paper.A3: (16.54, 11.69)}  # landscape
PNG_DPI = 150
_RC: dict[str, Any] = {"pdf.fonttype": 42, "ps.fonttype": 42, "svg.fonttype": "none"}
_LOCK = threading.Lock()  # rcParams are the process's: one drawing at a time sets them


_LEFT = 0.11  # of the figure's width: the room names


def render(layout: Layout, words: Words, fmt: Format, *, paper: Paper | None = None) -> bytes:
    """The picture's bytes: PNG sized to its rows, or one PDF page of ``paper`` (A4 unless
    it is a month, which reads better on A3)."""
    if fmt is Format.PNG:
        return render_png(layout, words)
    size = _size(layout, fmt, paper)
    with _LOCK, matplotlib.rc_context(_RC):  # type: ignore[arg-type]
        figure = Figure(figsize=size, dpi=PNG_DPI)
        _draw(figure, layout, words, FontProperties(fname=str(font_file())))
        out = io.BytesIO()
        figure.savefig(out, format=fmt.value, dpi=PNG_DPI, metadata=_metadata(fmt, words))
    return out.getvalue()


def _metadata(fmt: Format, words: Words) -> dict[str, Any]:
    if fmt is Format.PDF:
        return {"Title": words.title, "Creator": "osae"}
    return {"Title": words.title, "Software": "osae"}


def _size(layout: Layout, fmt: Format, paper: Paper | None) -> tuple[float, float]:
    if fmt is Format.PDF:
        return PAPER_INCHES[paper or (Paper.A3 if layout.view is View.MONTH else Paper.A4)]
    width = {View.DAY: 16.0, View.WEEK: 18.0, View.MONTH: 26.0}[layout.view]
    per_row = {View.DAY: 0.45, View.WEEK: 0.6, View.MONTH: 0.6}[layout.view]
    return width, 2.2 + per_row * max(3, len(layout.rows))


def _draw(figure: Figure, layout: Layout, words: Words, font: FontProperties) -> None:
    width_in, height_in = figure.get_size_inches()
    top, bottom = 1 - 1.05 / height_in, 0.75 / height_in
    axes = figure.add_axes((_LEFT, bottom, 0.985 - _LEFT, top - bottom))
    rows = max(1, len(layout.rows))
    axes.set_xlim(0, layout.width)
    axes.set_ylim(rows, 0)
    axes.set_axis_off()
    row_pt = (top - bottom) * height_in * 72 / rows
    column_pt = (0.985 - _LEFT) * width_in * 72 / max(1.0, layout.width)
    _title(figure, layout, words, font, top)
    _tint(axes, layout, rows)
    _grid(axes, layout, rows)
    _room_names(axes, layout, words, font, row_pt)
    _axis(axes, layout, words, font, column_pt)
    _blocks(axes, layout.blocks, words, font, row_pt, column_pt)
    _legend(figure, words, font)
    if not layout.blocks:
        axes.text(
            layout.width / 2,
            rows / 2,
            words.empty,
            fontproperties=font,
            size=11,
            ha="center",
            va="center",
            color="#666666",
        )


def _title(figure: Figure, layout: Layout, words: Words, font: FontProperties, top: float) -> None:
    y = 1 - (1 - top) * 0.28
    figure.text(
        0.01,
        y,
        f"{layout.venue}　{words.title}",
        fontproperties=font,
        size=13,
        ha="left",
        va="top",
        weight="bold",
    )
    figure.text(
        0.99, y, words.drawn, fontproperties=font, size=8, ha="right", va="top", color="#444444"
    )


def _tint(axes: Axes, layout: Layout, rows: int) -> None:
    if layout.view is View.DAY:
        return
    tinted = [
        Rectangle((x0, 0), x1 - x0, rows)
        for x0, x1, n in layout.day_spans()
        if layout.heads[n].priority
    ]
    axes.add_collection(
        PatchCollection(tinted, facecolor=PRIORITY_TINT, edgecolor="none", zorder=0)
    )


def _grid(axes: Axes, layout: Layout, rows: int) -> None:
    thin: list[list[tuple[float, float]]] = [[(0, y), (layout.width, y)] for y in range(rows + 1)]
    thick: list[list[tuple[float, float]]] = []
    if layout.view is View.DAY:
        for x in range(int(layout.width) + 1):
            (thick if (layout.hours[0] + x) % 24 == 0 else thin).append([(x, 0), (x, rows)])
    else:
        for x0, _, _ in layout.day_spans():
            thick.append([(x0, 0), (x0, rows)])
        thick.append([(layout.width, 0), (layout.width, rows)])
        for x in range(len(layout.columns)):
            thin.append([(x, 0), (x, rows)])
    axes.add_collection(LineCollection(thin, colors=GRID, linewidths=0.4, zorder=1))
    axes.add_collection(LineCollection(thick, colors=DAY_LINE, linewidths=0.8, zorder=1))


def _room_names(
    axes: Axes, layout: Layout, words: Words, font: FontProperties, row_pt: float
) -> None:
    size = max(5.0, min(9.0, row_pt * 0.45))
    where = axes.get_yaxis_transform()
    for n, row in enumerate(layout.rows):
        name = words.partition(row.room.name) if row.depth else row.room.name
        axes.text(
            -0.006,
            n + 0.5,
            name,
            transform=where,
            fontproperties=font,
            size=size,
            ha="right",
            va="center",
            color="#555555" if row.depth else "black",
        )


def _axis(axes: Axes, layout: Layout, words: Words, font: FontProperties, column_pt: float) -> None:
    where = axes.get_xaxis_transform()
    if layout.view is View.DAY:
        ink = HEADER_INK[False]  # the title says the day, its 六曜 and holiday
        for x in range(int(layout.width) + 1):
            axes.text(
                x,
                1.004,
                words.hour(layout.hours[0] + x),
                transform=where,
                fontproperties=font,
                size=7,
                ha="center",
                va="bottom",
                color=ink,
            )
        return
    # a holiday's name (five characters: こどもの日) fits its column
    size = max(4.5, min(8.0, column_pt * (0.17 if layout.view is View.MONTH else 0.22)))
    for x0, x1, n in layout.day_spans():
        head = layout.heads[n]
        lines = "\n".join(words.head(head))
        lift = 1.004 + (0.025 if layout.columns[int(x0)].slot is not None else 0)
        axes.text(
            (x0 + x1) / 2,
            lift,
            lines,
            transform=where,
            fontproperties=font,
            size=size,
            ha="center",
            va="bottom",
            color=HEADER_INK[head.priority],
            linespacing=1.1,
        )
    for x, column in enumerate(layout.columns):
        if column.slot is not None:
            axes.text(
                x + 0.5,
                1.002,
                column.slot.name,
                transform=where,
                fontproperties=font,
                size=max(4.5, size - 1),
                ha="center",
                va="bottom",
                color="#444444",
            )


def _rect(block: Block, x0: float, x1: float) -> Rectangle:
    """A block's box: own blocks in their lane above the row's band of shared ones."""
    if block.shared:
        return Rectangle((x0, block.row + 1 - _BAND), max(0.0, x1 - x0), _BAND - _PAD / 2)
    height = (1 - _BAND) / block.lanes
    y = block.row + block.lane * height + _PAD / 2
    return Rectangle((x0, y), max(0.0, x1 - x0), height - _PAD / 2)


def _collection(patches: Sequence[Rectangle], look: Look) -> PatchCollection:
    return PatchCollection(
        patches,
        facecolor=look.face,
        edgecolor=look.edge,
        linewidths=look.width,
        linestyles=(0, (3, 2)) if look.dashed else "solid",
        hatch=look.hatch,
        zorder=2,
    )


def _blocks(
    axes: Axes,
    blocks: Sequence[Block],
    words: Words,
    font: FontProperties,
    row_pt: float,
    column_pt: float,
) -> None:
    inset = 0.03 if blocks and blocks[0].x1 - blocks[0].x0 > 0 else 0.0
    shared = [_rect(b, b.x0 + inset, b.x1 - inset) for b in blocks if b.shared]
    axes.add_collection(_collection(shared, SHARED))
    for style in Style:
        own = [_rect(b, b.x0 + inset, b.turn) for b in blocks if not b.shared and b.style is style]
        axes.add_collection(_collection(own, LOOKS[style]))
    turnover = [_rect(b, b.turn, b.x1 - inset) for b in blocks if not b.shared and b.x1 > b.turn]
    axes.add_collection(_collection(turnover, TURNOVER))
    for block in blocks:
        if not block.shared:
            _label(axes, block, words, font, row_pt, column_pt, inset)


def _label(
    axes: Axes,
    block: Block,
    words: Words,
    font: FontProperties,
    row_pt: float,
    column_pt: float,
    inset: float,
) -> None:
    """The block's lines that fit its height, clipped to its box (the PDF keeps the text)."""
    height_pt = row_pt * ((1 - _BAND) / block.lanes - _PAD / 2)
    width_pt = (block.turn - block.x0) * column_pt  # a narrow cell (a month) writes smaller
    size = max(3.5, min(9.0, height_pt / 2.6, width_pt * 0.22))
    fits = max(1, math.floor((height_pt - 1) / (size * 1.18)))
    lines = block_lines(words, block.hold, block.item, block.style)
    shown = lines[:fits] if fits > 1 else [" ".join(lines[:3])]
    box = _rect(block, block.x0 + inset, block.turn)
    shown_text = axes.text(
        box.get_x() + 0.04 * min(1.0, block.turn - block.x0),
        box.get_y() + 0.02 / block.lanes,
        "\n".join(shown),
        fontproperties=font,
        size=size,
        ha="left",
        va="top",
        color=LOOKS[block.style].ink,
        linespacing=1.08,
        zorder=4,
        clip_on=True,
    )
    # A clip box, not a clip path: Agg clips text to a rectangle only.
    shown_text.set_clip_path(None)
    shown_text.set_clip_box(TransformedBbox(box.get_bbox(), axes.transData))


def _legend(figure: Figure, words: Words, font: FontProperties) -> None:
    handles = [_handle(LOOKS[s], f"{words.tag[s]}  {words.legend[s]}") for s in Style]
    handles += [_handle(TURNOVER, words.turnover), _handle(SHARED, words.shared)]
    figure.legend(
        handles=list(handles),
        loc="lower center",
        ncol=len(handles),
        prop=_sized(font, 8),
        frameon=False,
        bbox_to_anchor=(0.5, 0.005),
        handlelength=2.2,
    )


def _handle(look: Look, label: str) -> Patch:
    return Patch(
        facecolor=look.face,
        edgecolor=look.edge,
        linewidth=look.width,
        linestyle=(0, (3, 2)) if look.dashed else "solid",
        hatch=look.hatch,
        label=label,
    )


def _sized(font: FontProperties, size: float) -> FontProperties:
    sized = font.copy()
    sized.set_size(size)
    return sized
