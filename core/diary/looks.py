"""How each kind of block looks, the same on screen (PNG) and on paper (PDF): told apart in
colour and in black and white — a confirmed booking solid dark, a 1st hold light with a
heavy border, a 2nd white with a dashed border, a house hold cross-hatched; the turnover
after an event hatched grey, another room's item on a row's parts dotted at the row's foot.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.diary.model import Style


@dataclass(frozen=True)
class Look:
    face: str
    edge: str
    width: float  # of the border, in points
    dashed: bool
    hatch: str | None  # matplotlib's hatch letters: "////" diagonal, "xx" cross, "...." dots
    ink: str  # the text on it


LOOKS = {
    Style.CONFIRMED: Look("#1f3f66", "#0b1f33", 0.8, False, None, "#ffffff"),
    Style.FIRST: Look("#fbd9b5", "#9a4a00", 1.6, False, None, "#000000"),
    Style.SECOND: Look("#ffffff", "#555555", 1.0, True, None, "#000000"),
    Style.HOUSE: Look("#e8e8e8", "#444444", 1.0, False, "xx", "#000000"),
}
SHARED = Look("#ececec", "#b0b0b0", 0.4, False, "....", "#666666")
TURNOVER = Look("#d4d4d4", "#909090", 0.3, False, "////", "#000000")
PRIORITY_TINT = "#fdf1f1"  # weekends, holidays, priority dates: their columns
HEADER_INK = {False: "#222222", True: "#b00020"}  # a priority day's header in red
GRID = "#c8c8c8"
DAY_LINE = "#6b6b6b"
PAD = 0.04  # of a row, between lanes
BAND = 0.16  # of a row, at its foot: where another room's item takes this room's parts
