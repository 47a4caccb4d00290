"""The checks every way in shares: Slack's forms and commands (``bot.strict``), the ``osae``
command's flags (``cli.arguments``) and the venue file (``core.venue_file``).

Pure functions. Each answers None when the value passes, or a ``Problem`` saying what is
wrong in words a message can be built from (the texts are the reader's: ``check.<code>`` in
``bot/texts``). Lengths of a hold's texts are the engine's rules (``core.rules.requests``).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass

# Bidirectional embeddings, overrides and isolates: invisible, they make "Hanako" read as
# "okanaH" (U+202E) or hide what follows. Marks (U+200E, U+200F) and joiners stay.
_BIDI_CONTROLS = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
_USER_ID = re.compile(r"[UW][A-Z0-9]{2,40}")
# Typed as --venue and kept in every row's key: letters, digits, - and _ (``grand-tokyo``).
_VENUE_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
MAX_VENUE_ID = 64


@dataclass(frozen=True)
class Problem:
    """What is wrong: ``code`` names the check (``control``, ``bidi``, ``empty``,
    ``too_long``, ``user_id``, ``venue_id``, ``unknown_key``, ``not_whole``,
    ``out_of_range``); the rest are its facts."""

    code: str
    detail: str = ""  # the offending character (U+001B), key or value, quotable
    close: str = ""  # unknown key: the known key it most resembles ("" when none does)
    low: int | None = None
    high: int | None = None  # too long: the most characters


def codepoint(char: str) -> str:
    """``U+001B``: how a message names a character it must not print."""
    return f"U+{ord(char):04X}"


def unfit(char: str, *, lines: bool = False) -> bool:
    """A control character (line breaks and tabs pass where ``lines`` are allowed) or a
    bidi override: what ``text`` refuses and ``cleaned`` removes."""
    control = unicodedata.category(char) == "Cc" and not (lines and char in "\n\t\r")
    return control or _bidi(char)


def cleaned(value: str, *, spaces: bool = False) -> str:
    """``value`` without what ``unfit`` names (a pasted NUL, ESC, U+202E); ``spaces``: white
    space controls (line breaks, tabs) stay, for a caller that splits on them."""
    return "".join(c for c in value if (spaces and c.isspace()) or not unfit(c))


def _bidi(char: str) -> bool:
    return unicodedata.bidirectional(char) in _BIDI_CONTROLS


def text(
    value: str, *, longest: int | None = None, lines: bool = False, required: bool = False
) -> Problem | None:
    """Text a person typed: no control character (NUL, ESC …; line breaks and tabs only
    where ``lines`` are allowed), no bidi override; at most ``longest`` characters; not
    blank if ``required``."""
    for char in value:
        if unfit(char, lines=lines):
            return Problem("bidi" if _bidi(char) else "control", codepoint(char))
    if required and not value.strip():
        return Problem("empty")
    if longest is not None and len(value.strip()) > longest:
        return Problem("too_long", str(len(value.strip())), high=longest)
    return None


def user_id(value: str) -> Problem | None:
    """A Slack user id (``U0123ABCD``, ``W…``): it ends up in ``<@…>`` mentions, where
    anything else could be a ``<!channel>``."""
    return None if _USER_ID.fullmatch(value) else Problem("user_id", _quoted(value))


def venue_id(value: str) -> Problem | None:
    """1 to 64 of a-z, 0-9, - and _, starting with a letter or digit (``grand-tokyo``)."""
    return None if _VENUE_ID.fullmatch(value) else Problem("venue_id", _quoted(value))


def whole(value: object, low: int, high: int) -> Problem | None:
    """A whole number from ``low`` to ``high`` (``true`` is not one)."""
    if not isinstance(value, int) or isinstance(value, bool):
        return Problem("not_whole", _quoted(repr(value)), low=low, high=high)
    if not low <= value <= high:
        return Problem("out_of_range", str(value), low=low, high=high)
    return None


def unknown_key(given: Iterable[str], known: Collection[str]) -> Problem | None:
    """The first key of ``given`` (in sorted order) that is not ``known``, with the known
    key it most resembles (``turnover`` → ``turnover_min``)."""
    for key in sorted(set(given) - set(known)):
        close = difflib.get_close_matches(key, sorted(known), n=1, cutoff=0.6)
        if not close:
            close = [k for k in sorted(known) if k.startswith(key) or key.startswith(k)][:1]
        return Problem("unknown_key", _quoted(key), close=close[0] if close else "")
    return None


def _quoted(value: str) -> str:
    """A value safe to quote back: control characters and bidi overrides as code points,
    at most 40 characters."""
    shown = "".join(codepoint(c) if unfit(c) else c for c in value[:40])
    return shown + ("…" if len(value) > 40 else "")
