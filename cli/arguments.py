"""Argument types shared by the commands: parsed strictly once, at the edge, by ``bot.strict``."""

from __future__ import annotations

import argparse
from datetime import date

from bot import strict


def iso_date(value: str) -> date:
    parsed = strict.iso_date(value)
    if parsed is None:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date like 2027-03-10")
    return parsed


def clock(value: str) -> int:
    """Minutes after midnight of ``HH:MM``."""
    minutes = strict.clock(value)
    if minutes is None:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a time written HH:MM, like 09:00 or 23:30"
        )
    return minutes


def guests(value: str) -> int:
    counted = strict.count(value)
    if counted is None:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a number of guests from 1 to {strict.MAX_GUESTS}, like 40"
        )
    return counted
