"""The window pings (開放日に知らせる): asked, dropped, listed, and told when the window opens
(the clock's job). Writes answer ``Refused`` for an unknown venue or lasting contention;
reads raise ``UnknownVenue``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import TypeVar

from core.errors import Busy, UnknownVenue
from core.model import HoldRequest
from core.operations import pings
from core.operations.tx import Tx
from core.pings import PingAnswer, WindowPing
from core.results import Code, Refused
from core.runner import Runner

R = TypeVar("R")


class Pings:
    def __init__(self, run: Runner) -> None:
        self._run = run

    def add(
        self, venue_id: str, req: HoldRequest, *, asker: str, now: datetime
    ) -> PingAnswer | Refused:
        """Keep ``req`` (refused for its banquet window alone) and tell ``asker`` when the
        window opens; any other answer is a refusal saying what to do instead."""
        return self._write(venue_id, now, partial(pings.add, req=req, asker=asker))

    def drop(
        self, venue_id: str, ping_id: int, *, actor: str, now: datetime
    ) -> WindowPing | Refused:
        """Its asker or a manager."""
        return self._write(venue_id, now, partial(pings.drop, ping_id=ping_id, actor=actor))

    def deliver_due(self, venue_id: str, *, now: datetime) -> list[WindowPing] | Refused:
        """What the clock's job runs: every ping whose window has opened, told once."""
        return self._write(venue_id, now, pings.deliver_due)

    def one(self, venue_id: str, ping_id: int) -> WindowPing | Refused:
        """One ping of the venue, whatever its status."""
        return self._run.read(venue_id, partial(pings.one, ping_id=ping_id))

    def listing(
        self, venue_id: str, *, asker: str | None = None, everything: bool = False
    ) -> list[WindowPing]:
        """The waiting pings (of ``asker``) in the order asked; ``everything``: all of them."""
        return self._run.read(venue_id, partial(pings.listing, asker=asker, everything=everything))

    def _write(self, venue_id: str, now: datetime, operation: Callable[[Tx], R]) -> R | Refused:
        try:
            return self._run.write(venue_id, now, operation)
        except UnknownVenue:
            return Refused(Code.UNKNOWN_VENUE, detail=venue_id)
        except Busy:
            return Refused(Code.BUSY)
