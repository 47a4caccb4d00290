"""Publishing App Home: when opened, and again to each person an action concerns."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot import venue_names
from bot.blocks import MAX_VIEW_BLOCKS
from bot.deps import Deps
from bot.takeout import home_blocks
from bot.texts import dates
from bot.views.home import home_view
from bot.views.manager import manager_home_view
from bot.views.setup import home_extras
from core.errors import UnknownVenue
from core.ledger_views import TeamHome
from core.model import Venue

log = logging.getLogger("osae.bot")


def publish_homes(deps: Deps, client: WebClient, venue: Venue, users: Iterable[str]) -> None:
    """Refresh these users' Home tabs; a failure is logged, never in the way of the action.
    Managers see the whole team's ledger above their own holds."""
    now = deps.now()
    team: TeamHome | None = None
    choices = venue_names.choices_beside(deps, venue)  # a hotel group's: which venue
    for user in sorted(u for u in users if u):
        deps.locales.bind(user, client, keep=True)  # a colleague: same workspace, same token
        locale = deps.locales.get(user)
        try:
            overview = deps.engine.reads.overview(venue.id, user, now=now)
            if venue.is_manager(user):
                team = team or deps.engine.reads.team_home(venue.id, now=now)
        except UnknownVenue:
            log.warning("home.not_built", extra={"venue": venue.id, "user": user})
            continue
        style = dates.style_for(venue, now)
        if venue.is_manager(user) and team is not None:
            view = manager_home_view(
                team, overview, venue.tz, locale, now, style=style, venue=venue
            )
        else:
            view = home_view(overview, venue.tz, locale, now, style=style)
        extras = home_extras(
            locale,
            venue,
            may_set_up=venue.is_manager(user),
            privacy_url=deps.privacy_url,
            choices=choices,
        )
        extras = [*home_blocks(venue, user, locale, deps.feed_link), *extras]
        payload = view.to_dict()
        payload["blocks"] = payload["blocks"][: MAX_VIEW_BLOCKS - len(extras)] + extras
        try:
            client.views_publish(user_id=user, view=payload)
        except SlackApiError as err:
            log.warning(
                "slack.home_publish_failed",
                extra={"venue": venue.id, "user": user, "error": err.response.get("error")},
            )
        except (SlackClientError, OSError) as err:  # Slack unreachable: the action stands
            log.warning(
                "slack.home_publish_failed",
                extra={"venue": venue.id, "user": user, "error": repr(err)},
            )
