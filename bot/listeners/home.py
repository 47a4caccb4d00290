"""App Home: published when opened, and again after each action that changes a hold."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot.deps import Deps
from bot.views.home import home_view
from core.errors import UnknownVenue
from core.model import Venue

log = logging.getLogger("osae.bot")


def register(app: App, deps: Deps) -> None:
    def home_opened(
        body: dict[str, Any], event: dict[str, Any], client: WebClient, context: BoltContext
    ) -> None:
        if event.get("tab") == "home":  # the Messages tab needs nothing from us
            publish_homes(deps, client, deps.venue(context), {event["user"]})

    app.event("app_home_opened")(deps.listener(home_opened))


def publish_homes(deps: Deps, client: WebClient, venue: Venue, users: Iterable[str]) -> None:
    """Refresh these users' Home tabs; a failure is logged, never in the way of the action."""
    now = deps.now()
    for user in sorted(u for u in users if u):
        try:
            overview = deps.engine.overview(venue.id, user, now=now)
        except UnknownVenue:
            log.warning("home.not_built", extra={"venue": venue.id, "user": user})
            continue
        view = home_view(overview, venue.tz, deps.locales.get(user), now)
        try:
            client.views_publish(user_id=user, view=view.to_dict())
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
