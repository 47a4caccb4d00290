"""App Home 「カレンダーに追加する（URLを発行）」: the click issues the clicker's calendar feed
(a manager's, the venue's too) and publishes their App Home again, now showing the URLs.
Who may have which feed is decided here from the clicker, never from the button's value."""

from __future__ import annotations

from slack_bolt import App, Args

from bot import ids
from bot.deps import Deps
from bot.errors import UserError
from bot.homes import publish_homes
from core.exports.feed_tokens import FeedKey, Scope


def register(app: App, deps: Deps) -> None:
    app.action(ids.FEED_ISSUE)(deps.listener(issue_button))


def issue_button(deps: Deps, args: Args) -> None:
    args.ack()
    venue = deps.venue(args.context)
    user = args.body["user"]["id"]
    wanted = str((args.action or {}).get("value") or "")
    if wanted not in (ids.FEED_MINE, ids.FEED_VENUE):
        raise UserError("takeout.feed.stale_button")
    feeds = [FeedKey(venue.id, Scope.SALESPERSON, user)]  # only ever the clicker's own
    if wanted == ids.FEED_VENUE:
        if not venue.is_manager(user):  # a forged click: nothing is issued at all
            raise UserError("takeout.feed.managers_only")
        feeds.append(FeedKey(venue.id, Scope.VENUE))

    def issue() -> None:
        # after the ack, as the App Home it publishes (a refusal told on the side)
        for feed in feeds:
            if deps.feed_issue(feed) is None:
                raise UserError("takeout.feed.cannot_issue")
        publish_homes(deps, args.client, venue, {user})

    deps.after(args.body, args.client, issue)
