"""Publishing App Home: when opened, and again to each person an action concerns."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError
from slack_sdk.models.blocks import Block

from bot import follow_ups, names, pipeline_home, venue_names
from bot.blocks import MAX_VIEW_BLOCKS
from bot.deps import Deps
from bot.takeout import home_blocks
from bot.texts import dates
from bot.venue_names import Choices
from bot.views.home import home_view
from bot.views.manager import manager_home_view
from bot.views.pings import home_pings
from bot.views.setup import Json, home_extras
from core.errors import UnknownVenue
from core.ledger_views import TeamHome
from core.model import Venue
from core.operations.pipeline import PipelineRead

log = logging.getLogger("osae.bot")


def publish_homes(deps: Deps, client: WebClient, venue: Venue, users: Iterable[str]) -> None:
    """Refresh these users' Home tabs; a failure is logged, never in the way of the action.
    Managers see the whole team's ledger above their own holds."""
    now = deps.now()
    team: TeamHome | None = None
    pipeline: PipelineRead | None = None  # the managers': read once, said in each one's language
    choices = venue_names.choices_beside(deps, venue)  # a hotel group's: which venue
    people = sorted({u for u in users if u})
    for user in people:
        deps.locales.bind(user, client, keep=True)  # a colleague: same workspace, same token
    spoken = {user: deps.locales.get(user) for user in people}  # users.info: names come too
    names.remember_seen(deps.engine, deps.locales, venue.id, people, now)  # for the terminal
    for user in people:
        locale = spoken[user]
        try:
            overview = deps.engine.reads.overview(venue.id, user, now=now)
            if venue.is_manager(user):
                team = team or deps.engine.reads.team_home(venue.id, now=now)
                pipeline = pipeline or pipeline_read(deps, venue, now)
        except UnknownVenue:
            log.warning("home.not_built", extra={"venue": venue.id, "user": user})
            continue
        style = dates.style_for(venue, now)
        if venue.is_manager(user) and team is not None:
            said = _said(pipeline, locale)
            view = manager_home_view(
                team, overview, venue.tz, locale, now, style=style, pipeline=said, venue=venue
            )
        else:
            view = home_view(overview, venue.tz, locale, now, style=style)
        extras = _extras(deps, venue, user, locale, now, choices)
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


def _extras(
    deps: Deps, venue: Venue, user: str, locale: str, now: datetime, choices: Choices
) -> list[Json]:
    """What follows the home's own blocks: the person's follow-ups and pings, the takeout's
    blocks, the venue's settings."""
    extras = home_extras(
        locale,
        venue,
        may_set_up=venue.is_manager(user),
        privacy_url=deps.privacy_url,
        choices=choices,
    )
    waiting = deps.engine.pings.listing(venue.id, asker=user)  # 開放日のお知らせ待ち
    week = now.astimezone(venue.tz).date() + timedelta(days=6)  # 次のアクション: this week
    due = deps.engine.reads.follow_ups(venue.id, user, until=week)
    mine = [
        *follow_ups.home_blocks(due, venue, locale, now),
        *home_pings(waiting, venue, locale, now),
    ]
    return [*mine, *home_blocks(venue, user, locale, deps.feed_link), *extras]


def pipeline_read(deps: Deps, venue: Venue, now: datetime) -> PipelineRead:
    """This month's pipeline (``bot.pipeline_home`` says it at a glance)."""
    today = now.astimezone(venue.tz).date()
    return deps.engine.reads.pipeline(venue.id, today.year, today.month)


def _said(read: PipelineRead | None, locale: str) -> list[Block]:
    return pipeline_home.home_blocks(read, locale) if read is not None else []
