"""A manager's App Home 「グラフで見る」: this month's pipeline as a chart picture (managers
only, checked on the server for every click), drawn after the ack and uploaded to the
manager's DM as the diary is (``files_upload_v2``); if it cannot be, the DM says why."""

from __future__ import annotations

import logging

from slack_bolt import App, Args
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot import ids
from bot.deps import Deps
from bot.errors import UserError
from bot.pipeline import month_name
from bot.pipeline_home import chart_png
from bot.texts import esc, text
from core.model import Venue

log = logging.getLogger("osae.bot")


def register(app: App, deps: Deps) -> None:
    app.action(ids.PIPELINE_CHART)(deps.listener(chart_button))


def chart_button(deps: Deps, args: Args) -> None:
    """The month is the venue's this month, whatever the button's value says."""
    args.ack()
    venue = deps.venue(args.context)
    user = args.body["user"]["id"]
    if not venue.is_manager(user):  # the button is a manager's; a click is never trusted
        raise UserError("pipeline.home.managers_only")
    deps.after(args.body, args.client, lambda: send(deps, args.client, venue, user))


def send(deps: Deps, client: WebClient, venue: Venue, user: str) -> None:
    locale = deps.locales.get(user)
    today = deps.now().astimezone(venue.tz).date()
    read = deps.engine.reads.pipeline(venue.id, today.year, today.month)
    picture = chart_png(read, venue, locale)
    month = month_name(read.report.month, locale)
    said = text(locale, "pipeline.chart.sent", month=month)
    try:
        client.files_upload_v2(
            channels=[user],  # the manager's DM (no conversations.open: no im:write scope)
            file=picture,
            filename=f"pipeline-{today.year:04d}-{today.month:02d}.png",
            title=said,
            alt_txt=said,
            initial_comment=esc(said),
        )
    except (SlackClientError, OSError) as err:  # API refusals, the upload URL, timeouts
        reason = err.response.get("error") if isinstance(err, SlackApiError) else type(err).__name__
        log.warning("pipeline.upload_failed", extra={"venue": venue.id, "error": reason})
        _tell(client, user, text(locale, "pipeline.chart.failed", why=esc(str(reason))))
        return
    log.info("pipeline.chart_sent", extra={"venue": venue.id, "bytes": len(picture)})


def _tell(client: WebClient, user: str, message: str) -> None:
    try:
        client.chat_postMessage(channel=user, text=message)
    except (SlackClientError, OSError) as err:
        log.warning("pipeline.tell_failed", extra={"error": str(err)})
