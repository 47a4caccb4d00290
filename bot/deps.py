"""What every listener needs, built once by ``build_app``."""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from bot.after_ack import AfterAck
from bot.errors import NoVenue, UserError
from bot.locales import UserLocales
from bot.venues import VenueResolver
from bot.view_updates import ViewUpdates
from core.engine import HoldEngine
from core.model import Venue

log = logging.getLogger("osae.bot")
Listener = TypeVar("Listener", bound=Callable[..., Any])


@dataclass(frozen=True)
class Deps:
    engine: HoldEngine
    venues: VenueResolver
    now: Callable[[], datetime]
    on_notices: Callable[[str], None]
    locales: UserLocales
    views: ViewUpdates
    after: AfterAck  # after-ack work: ``deps.after(body, client, lambda: ...)``

    def venue_id(self, context: Any) -> str:
        """The venue of the workspace a request came from; ``NoVenue`` if none is set."""
        team = getattr(context, "team_id", None)
        venue_id = self.venues(team)
        if venue_id is None:
            raise NoVenue(team)
        return venue_id

    def venue(self, context: Any) -> Venue:
        venue_id = self.venue_id(context)
        venue = self.engine.venue(venue_id)
        if venue is None:  # configured, but never loaded into the database
            raise UserError("refusal.unknown_venue", detail=venue_id)
        return venue

    def listener(self, func: Listener) -> Listener:
        """``func`` as a Bolt listener whose trouble after its ack is told on the side (a
        refusal like "workspace not linked" included) and never raised: raising past the ack
        makes Bolt drop it, and Slack then gets a 404 after 3 s (or a 500 when Bolt processes
        before responding). Before the ack, trouble still goes to Bolt's error handler, which
        answers in the response. ``func`` must take ``body`` and ``client``.
        """
        names = inspect.getfullargspec(func).args
        assert {"body", "client"} <= set(names), func  # noqa: S101 - a wiring mistake

        @functools.wraps(func)
        def run(**kwargs: Any) -> Any:
            ack = kwargs.get("ack")
            try:
                return func(**kwargs)
            except Exception as err:
                if ack is not None and ack.response is None:
                    raise
                self.after.on_error(err, kwargs["body"], None, kwargs["client"])
                return None

        return run  # type: ignore[return-value]

    def notices_written(self, venue_id: str) -> None:
        """Ask the jobs to drain the outbox now; holds must work even when that fails."""
        try:
            self.on_notices(venue_id)
        except Exception as err:  # noqa: BLE001 - Redis down: notices wait in the outbox
            log.warning("outbox.enqueue_failed", extra={"venue": venue_id, "error": repr(err)})
