"""How a venue file's problems are raised: a shared check's ``Problem`` with where it is,
so the reader's language can say it; the message is its English."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core import checks
from core.checks import Problem

MAX_NAME = 100  # a venue's, a room's or a slot's name; a part's or room's id: 64


class VenueFileError(ValueError):
    """What is wrong with a venue file, said so that its author can fix it. A failed shared
    check (``core.checks``) carries its ``problem`` and ``where`` (``rooms[2].turnover``), so
    the reader's language can say it; the message is its English."""

    def __init__(self, message: str, problem: Problem | None = None, where: str = "") -> None:
        super().__init__(message)
        self.problem = problem
        self.where = where


_ENGLISH = {
    "control": "contains a control character ({detail}); write plain text",
    "bidi": "contains an invisible text-direction override ({detail}); delete it",
    "empty": "must not be empty",
    "too_long": "is {detail} characters long; keep it to {high}",
    "user_id": "{detail!r} is not a Slack user id; write one like U0123ABCD",
    "venue_id": "{detail!r} is not a venue id; use 1 to 64 of a-z, 0-9, - and _, like grand-tokyo",
    "not_whole": "must be a whole number from {low} to {high}, not {detail}",
    "out_of_range": "must be from {low} to {high}, not {detail}",
    "unknown_key": "has an unknown key {detail!r}",
}


def _check(problem: Problem | None, where: str) -> None:
    """Raise the problem of a shared check, if any, as this file's error."""
    if problem is None:
        return
    said = _ENGLISH[problem.code].format(**vars(problem))
    if problem.close:
        said += f"; did you mean {problem.close!r}?"
    raise VenueFileError(f"{where} {said}", problem, where)


def _keys(entry: Mapping[str, Any], known: set[str], where: str) -> None:
    _check(checks.unknown_key(entry, known), where)


def _named(value: str, where: str, longest: int = MAX_NAME) -> str:
    """A name or id a person wrote: no control characters, no bidi overrides, not too long."""
    _check(checks.text(value, longest=longest, required=True), where)
    return value
