"""What every listener needs, built once by ``build_app``, and how it reaches them.

A listener is ``handler(deps, args)``: Bolt's ``Args`` (ack, body, view, client, context,
respond...) and these dependencies. ``deps.listener(handler)`` is what each surface registers
with Bolt, so dependencies reach every listener the same one way.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from slack_bolt import Args

from bot.after_ack import AfterAck
from bot.errors import NoVenue, UserError
from bot.locales import UserLocales
from bot.setup_files import FileFetcher
from bot.view_updates import ViewUpdates
from bot.workspaces import VenueResolver
from core.engine import HoldEngine
from core.exports.feed_tokens import FeedKey
from core.model import Venue

log = logging.getLogger("osae.bot")


@dataclass(frozen=True)
class Deps:
    engine: HoldEngine
    venues: VenueResolver
    now: Callable[[], datetime]
    on_notices: Callable[[str], None]
    locales: UserLocales
    views: ViewUpdates
    after: AfterAck  # after-ack work: ``deps.after(body, client, lambda: ...)``
    # Many workspaces: who installed osae in a workspace (team, enterprise) -> user id, the
    # one who may set its venue up in App Home before it has managers
    installer: Callable[[str | None, str | None], str | None] = lambda team, org: None
    privacy_url: str | None = None  # OSAE_PRIVACY_URL, in App Home's about
    fetch_file: FileFetcher = field(default_factory=FileFetcher)  # an uploaded venue file
    # issue 27: a calendar feed's URL for App Home (None: no feed link can be shown)
    feed_link: Callable[[FeedKey], str | None] = lambda feed: None
    # its token issued (App Home's button; showing App Home only reads, ``feed_link``)
    feed_issue: Callable[[FeedKey], str | None] = lambda feed: None

    def venue_id(self, context: Any) -> str:
        """The venue of the workspace a request came from; ``NoVenue`` if none is set."""
        team = getattr(context, "team_id", None)
        found = self.venues_of(context)
        if not found:
            raise NoVenue(team)
        if len(found) == 1:
            return found[0]
        # A hotel group's workspace: the venue this person chose last (the form asks)
        user = getattr(context, "user_id", None)
        chosen = self.engine.venues.chosen_venue(user, found) if user else None
        return chosen or found[0]

    def venues_of(self, context: Any) -> list[str]:
        """Every venue of the workspace a request came from (a hotel group's: several)."""
        team, org = getattr(context, "team_id", None), getattr(context, "enterprise_id", None)
        return self.venues.all_of(team, org)

    def venue(self, context: Any) -> Venue:
        return self._stored(self.venue_id(context))

    def venue_seen(self, venue_id: str) -> Venue:
        """The venue as the engine's operation on it just saw it, to word its answer: no
        read of its own (``venue`` checks the stored revision: a transaction per request)."""
        return self.engine.venues.kept_venue(venue_id) or self._stored(venue_id)

    def _stored(self, venue_id: str) -> Venue:
        venue = self.engine.venues.venue(venue_id)
        if venue is None:  # configured, but never loaded into the database
            raise UserError("refusal.unknown_venue", detail=venue_id)
        return venue

    def listener(self, handler: Callable[[Deps, Args], None]) -> Callable[[Args], None]:
        """``handler`` as a Bolt listener whose trouble after its ack is told on the side (a
        refusal like "workspace not linked" included) and never raised: raising past the ack
        makes Bolt drop it, and Slack then gets a 404 after 3 s (or a 500 when Bolt processes
        before responding). Before the ack, trouble still goes to Bolt's error handler, which
        answers in the response. Events are acknowledged by Bolt itself: always on the side.
        """

        def run(args: Args) -> None:
            try:
                handler(self, args)
            except Exception as err:
                if args.ack.response is None and args.event is None:
                    raise
                self.after.on_error(err, args.body, None, args.client)

        run.__name__ = run.__qualname__ = handler.__name__  # Bolt's logs name the listener
        return run

    def notices_written(self, venue_id: str) -> None:
        """Ask the jobs to drain the outbox now; holds must work even when that fails."""
        try:
            self.on_notices(venue_id)
        except Exception as err:  # noqa: BLE001 - Redis down: notices wait in the outbox
            log.warning("outbox.enqueue_failed", extra={"venue": venue_id, "error": repr(err)})
