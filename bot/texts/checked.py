"""A shared check's failure (``core.checks``) as one line in the reader's language."""

from __future__ import annotations

from bot.texts import text
from core.checks import Problem


def said(problem: Problem, where: str | None, locale: str | None) -> str:
    """What is wrong with ``where`` (a venue file's key; None: "the value", as a flag's own
    message says it after the flag's name) and what to write instead."""
    where = text(locale, "check.this_value") if where is None else where
    key = f"check.{problem.code}" + (".close" if problem.close else "")
    return text(locale, key, where=where, **vars(problem))
