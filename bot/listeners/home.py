"""App Home: published when its tab is opened (before the workspace has a venue, its
installer's shows 会場の設定)."""

from __future__ import annotations

from slack_bolt import App, Args

from bot.deps import Deps
from bot.homes import publish_homes
from bot.listeners.setup import publish_start, venue_or_none


def register(app: App, deps: Deps) -> None:
    app.event("app_home_opened")(deps.listener(home_opened))


def home_opened(deps: Deps, args: Args) -> None:
    event = args.event or {}
    if event.get("tab") != "home":  # the Messages tab needs nothing from us
        return
    venue = venue_or_none(deps, args.context)
    if venue is None and publish_start(deps, args, event["user"]):
        return  # the installer of a workspace without a venue: 会場の設定 first
    publish_homes(deps, args.client, venue or deps.venue(args.context), {event["user"]})
