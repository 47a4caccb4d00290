"""App Home: published when its tab is opened."""

from __future__ import annotations

from slack_bolt import App, Args

from bot.deps import Deps
from bot.homes import publish_homes


def register(app: App, deps: Deps) -> None:
    app.event("app_home_opened")(deps.listener(home_opened))


def home_opened(deps: Deps, args: Args) -> None:
    event = args.event or {}
    if event.get("tab") == "home":  # the Messages tab needs nothing from us
        publish_homes(deps, args.client, deps.venue(args.context), {event["user"]})
