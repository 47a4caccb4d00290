"""Argument types shared by the commands: parsed strictly once, at the edge, by ``bot.strict``."""

from __future__ import annotations

import argparse
from datetime import date

from bot import strict
from bot.texts.checked import said
from cli.context import locale, say
from core import checks


def iso_date(value: str) -> date:
    parsed = strict.iso_date(value)
    if parsed is None:
        raise argparse.ArgumentTypeError(say("cli.bad.date", value=repr(value)))
    return parsed


def clock(value: str) -> int:
    """Minutes after midnight of ``HH:MM``."""
    minutes = strict.clock(value)
    if minutes is None:
        raise argparse.ArgumentTypeError(say("cli.bad.clock", value=repr(value)))
    return minutes


def guests(value: str) -> int:
    counted = strict.count(value)
    if counted is None:
        raise argparse.ArgumentTypeError(
            say("cli.bad.guests", value=repr(value), high=strict.MAX_GUESTS)
        )
    return counted


# issue 26: the flags people type text or Slack ids into pass the checks Slack's fields do
# (core.checks), each failure one line in the terminal's language (exit code 2, as usage).
def _checked(problem: checks.Problem | None, value: str) -> str:
    if problem is not None:
        raise argparse.ArgumentTypeError(said(problem, None, locale()))
    return value


def typed(value: str) -> str:
    """One line of text (a customer, a reason): no control characters, no bidi overrides."""
    return _checked(checks.text(value), value)


def lines(value: str) -> str:
    """Text that may break lines (a note)."""
    return _checked(checks.text(value, lines=True), value)


def user(value: str) -> str:
    """A Slack user id (a salesperson, a creator, an actor): ``<!channel>`` is not one."""
    return _checked(checks.user_id(value.strip()), value.strip())
