"""A diary layout as PNG, for Slack: drawn with Pillow, sized to its rows and days so that a
phone shows it sharp when zoomed in. The PDF (``draw``) follows the same geometry and looks.

Pillow rather than matplotlib here because of speed: a month of 1,000 holds is 1,000 labels
of a few lines, which Pillow writes in a fraction of the time (bench/diary.py).
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from core.diary.font import font_file
from core.diary.layout import Block, Layout
from core.diary.looks import (
    BAND,
    DAY_LINE,
    GRID,
    HEADER_INK,
    LOOKS,
    PAD,
    PRIORITY_TINT,
    SHARED,
    TURNOVER,
    Look,
)
from core.diary.model import Style, View
from core.diary.words import Words, block_lines

# Pixels per axis unit (an hour, or a cell) and per row, for each view.
UNIT = {View.DAY: (92, 76), View.WEEK: (112, 84), View.MONTH: (92, 80)}
LEFT, TOP, FOOT, MARGIN = 200, 150, 64, 16
Box = tuple[int, int, int, int]


@lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_file()), size)


def render_png(layout: Layout, words: Words) -> bytes:
    across, down = UNIT[layout.view]
    if layout.view is View.WEEK and not any(c.slot for c in layout.columns):
        across *= 2  # a cell per day: as wide as a day's slots would be
    rows = max(1, len(layout.rows))
    # twice the margin on the right: the last hour label is centred on the edge
    width = LEFT + math.ceil(layout.width * across) + 2 * MARGIN
    height = TOP + rows * down + FOOT
    image = Image.new("RGB", (width, height), "white")
    pen = ImageDraw.Draw(image)
    grid = _Grid(across, down, rows, layout)
    _title(pen, layout, words, width)
    _columns(pen, grid, layout, words)
    _room_names(pen, grid, layout, words)
    _blocks(image, pen, grid, layout.blocks, words)
    _legend(image, pen, words, height)
    if not layout.blocks:
        middle = (LEFT + width) // 2, TOP + rows * down // 2
        pen.text(middle, words.empty, font=_font(22), fill="#666666", anchor="mm")
    info = PngInfo()
    info.add_itxt("Title", words.title)
    info.add_text("Software", "osae")
    out = io.BytesIO()
    image.save(out, "PNG", pnginfo=info, compress_level=1)  # 3x faster, 1.3x the bytes
    return out.getvalue()


class _Grid:
    def __init__(self, across: float, down: float, rows: int, layout: Layout) -> None:
        self.across, self.down, self.rows, self.layout = across, down, rows, layout
        self.right = LEFT + round(layout.width * across)
        self.bottom = TOP + rows * down

    def x(self, unit: float) -> int:
        return LEFT + round(unit * self.across)

    def y(self, row: float) -> int:
        return TOP + round(row * self.down)


def _title(pen: ImageDraw.ImageDraw, layout: Layout, words: Words, width: int) -> None:
    pen.text((MARGIN, 14), f"{layout.venue}　{words.title}", font=_font(30), fill="black")
    pen.text((width - MARGIN, 20), words.drawn, font=_font(16), fill="#444444", anchor="ra")


def _columns(pen: ImageDraw.ImageDraw, grid: _Grid, layout: Layout, words: Words) -> None:
    if layout.view is View.DAY:
        for x in range(int(layout.width) + 1):
            hour = layout.hours[0] + x
            at = (grid.x(x), TOP - 6)
            pen.text(at, words.hour(hour), font=_font(16), fill=HEADER_INK[False], anchor="md")
            color = DAY_LINE if hour % 24 == 0 else GRID
            pen.line((grid.x(x), TOP, grid.x(x), grid.bottom), fill=color, width=1)
    else:
        slots = any(c.slot for c in layout.columns)
        for x0, x1, n in grid.layout.day_spans():
            head = layout.heads[n]
            if head.priority:
                pen.rectangle((grid.x(x0), TOP, grid.x(x1), grid.bottom), fill=PRIORITY_TINT)
            lines = "\n".join(words.head(head))
            at = ((grid.x(x0) + grid.x(x1)) // 2, TOP - (26 if slots else 6))
            ink = HEADER_INK[head.priority]
            size = 15 if grid.across * (x1 - x0) > 60 else 13
            pen.multiline_text(at, lines, font=_font(size), fill=ink, anchor="md", align="center")
        for x, column in enumerate(layout.columns):
            pen.line((grid.x(x), TOP, grid.x(x), grid.bottom), fill=GRID, width=1)
            if column.slot is not None:
                at = (grid.x(x + 0.5), TOP - 4)
                pen.text(at, column.slot.name, font=_font(13), fill="#444444", anchor="md")
        for x0, _, _ in grid.layout.day_spans():
            pen.line((grid.x(x0), TOP, grid.x(x0), grid.bottom), fill=DAY_LINE, width=2)
        pen.line((grid.right, TOP, grid.right, grid.bottom), fill=DAY_LINE, width=2)
    for row in range(grid.rows + 1):
        pen.line((LEFT, grid.y(row), grid.right, grid.y(row)), fill=GRID, width=1)


def _room_names(pen: ImageDraw.ImageDraw, grid: _Grid, layout: Layout, words: Words) -> None:
    font = _font(19 if grid.down >= 60 else 16)
    for n, row in enumerate(layout.rows):
        name = words.partition(row.room.name) if row.depth else row.room.name
        at = (LEFT - 10, grid.y(n + 0.5))
        ink = "#555555" if row.depth else "black"
        pen.text(at, _fit(name, round(font.size), LEFT - 20), font=font, fill=ink, anchor="rm")


def _box(grid: _Grid, block: Block, x0: float, x1: float) -> Box:
    if block.shared:
        top = block.row + 1 - BAND
        return grid.x(x0), grid.y(top), grid.x(x1), grid.y(block.row + 1 - PAD / 2)
    height = (1 - BAND) / block.lanes
    top = block.row + block.lane * height + PAD / 2
    return grid.x(x0) + 2, grid.y(top), grid.x(x1), grid.y(top + height - PAD / 2)


def _blocks(
    image: Image.Image,
    pen: ImageDraw.ImageDraw,
    grid: _Grid,
    blocks: Iterable[Block],
    words: Words,
) -> None:
    for block in blocks:
        if block.shared:
            _paint(image, pen, _box(grid, block, block.x0, block.x1), SHARED)
            continue
        box = _box(grid, block, block.x0, block.turn)
        if block.x1 > block.turn:
            _paint(image, pen, _box(grid, block, block.turn, block.x1), TURNOVER)
        look = LOOKS[block.style]
        _paint(image, pen, box, look)
        _label(image, box, block, words, look)


def _paint(image: Image.Image, pen: ImageDraw.ImageDraw, box: Box, look: Look) -> None:
    x0, y0, x1, y1 = box
    if x1 - x0 < 1 or y1 - y0 < 1:
        return
    width = max(1, round(look.width * 1.5))
    pen.rectangle(box, fill=look.face, outline=None if look.dashed else look.edge, width=width)
    if look.hatch:
        tile = _tile(look.hatch, look.edge).crop((0, 0, x1 - x0, y1 - y0))
        image.paste(tile, (x0, y0), tile)
    if look.dashed:
        for a, b in _dashes(box):
            pen.line((a, b), fill=look.edge, width=width)


def _dashes(box: Box, dash: int = 6, gap: int = 4) -> Iterable[tuple[tuple[int, int], ...]]:
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash + gap):
        end = min(x + dash, x1)
        yield (x, y0), (end, y0)
        yield (x, y1), (end, y1)
    for y in range(y0, y1, dash + gap):
        end = min(y + dash, y1)
        yield (x0, y), (x0, end)
        yield (x1, y), (x1, end)


@lru_cache(maxsize=8)
def _tile(hatch: str, color: str) -> Image.Image:
    """A pattern to paste over a box: diagonals (/), a cross (x) or dots (.)."""
    tile = Image.new("RGBA", (1200, 160), (0, 0, 0, 0))
    pen = ImageDraw.Draw(tile)
    step = 9
    if "." in hatch:
        for x in range(2, 1200, 7):
            for y in range(2, 160, 7):
                pen.point((x, y), fill=color)
        return tile
    for x in range(-160, 1200, step):
        pen.line((x, 160, x + 160, 0), fill=color, width=1)
        if "x" in hatch:
            pen.line((x, 0, x + 160, 160), fill=color, width=1)
    return tile


def _label(image: Image.Image, box: Box, block: Block, words: Words, look: Look) -> None:
    """The lines that fit the block's height, each cut to its width."""
    x0, y0, x1, y1 = box
    height, width = y1 - y0, x1 - x0 - 6
    size = max(10, min(16, round(height / 3.1)))
    fits = max(1, math.floor((height - 3) / (size * 1.18)))
    if width < size or height < 9:
        return
    lines = block_lines(words, block.hold, block.item, block.style)
    shown = lines[:fits] if fits > 1 else [" ".join(lines[:3])]
    for n, line in enumerate(shown):
        y = y0 + 2 + round(n * size * 1.18)
        written = _written(_fit(line, size, width), size)
        image.paste(look.ink, (x0 + 4, y, x0 + 4 + written.width, y + written.height), written)


def forget() -> None:
    """Drop the lines written so far (a bench's cold rounds)."""
    _written.cache_clear()
    _fit.cache_clear()


@lru_cache(maxsize=4096)
def _written(line: str, size: int) -> Image.Image:
    """A line as a mask, written once: a month repeats its kinds, guests, salespeople and
    deadlines on hundreds of blocks, and writing text is most of the picture's time."""
    font = _font(size)
    _, _, right, bottom = font.getbbox(line)
    mask = Image.new("L", (max(1, math.ceil(right)), max(1, math.ceil(bottom))), 0)
    ImageDraw.Draw(mask).text((0, 0), line, font=font, fill=255)
    return mask


@lru_cache(maxsize=4096)
def _fit(text: str, size: int, width: float) -> str:
    """``text`` cut to ``width`` pixels (most of a label is its first words)."""
    font = _font(size)
    full = font.getlength(text)
    if full <= width:
        return text
    keep = max(0, int(len(text) * width / full))
    while keep and font.getlength(text[:keep]) > width:
        keep -= 1
    return text[:keep]


def _legend(image: Image.Image, pen: ImageDraw.ImageDraw, words: Words, height: int) -> None:
    entries = [(LOOKS[s], f"{words.tag[s]}  {words.legend[s]}") for s in Style]
    entries += [(TURNOVER, words.turnover), (SHARED, words.shared)]
    x, y = LEFT, height - FOOT + 22
    font = _font(16)
    for look, label in entries:
        _paint(image, pen, (x, y, x + 40, y + 20), look)
        pen.text((x + 48, y + 10), label, font=font, fill="black", anchor="lm")
        x += 48 + round(font.getlength(label)) + 36
