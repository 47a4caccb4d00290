"""Whether two customer names are the same customer (docs/rules.md, Candidate dates)."""

from __future__ import annotations

import re
import unicodedata

# Honorifics staff add or leave off: 山田様, 山田さま, 山田 様. Applied to the end only.
_HONORIFIC = re.compile(r"(様|さま)+$")
_SPACE = re.compile(r"\s+")


def customer_key(name: str) -> str:
    """The name as compared: full and half width alike (NFKC: ｻﾄｳ = サトウ, ＡＢＣ = abc),
    no spaces anywhere (山田 太郎 = 山田太郎), no trailing 様 / さま, case folded."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return _HONORIFIC.sub("", _SPACE.sub("", folded))
