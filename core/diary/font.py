"""The Japanese font a diary is drawn with: IPAexGothic, shipped by the matplotlib-fontja
package. Its file is found by path, without importing the package (whose import changes
matplotlib's global settings), so nothing of the process but the picture uses it."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

PACKAGE = "matplotlib_fontja"
FILE = Path("fonts") / "ipaexg.ttf"


class FontMissing(RuntimeError):
    """The font package is not installed: the picture would have no Japanese."""


@cache
def font_file() -> Path:
    """The TrueType file; ``FontMissing`` names the package to install."""
    spec = importlib.util.find_spec(PACKAGE)  # finds it, runs none of it
    places = list(spec.submodule_search_locations or []) if spec else []
    for place in places:
        found = Path(place) / FILE
        if found.is_file():
            return found
    raise FontMissing(
        "the diary's Japanese font is missing: install the matplotlib-fontja package "
        "(pip install -c constraints.txt -e .)"
    )
