"""The diary picture in Slack: ``/hold 台帳 10/2`` (``週 10/2``, ``10月``) and App Home's
button draw it after the ack and upload it (files.getUploadURLExternal, the upload URL,
files.completeUploadExternal: ``files_upload_v2``) with a summary beside it: into the channel
it was asked in, or to the asker's DM (from App Home, a DM, or a channel osae is not in)."""

from __future__ import annotations

import logging
from datetime import datetime

from slack_bolt import App, Args
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot import diary_asked, ids
from bot.deps import Deps
from bot.diary_words import diary_words, summary
from bot.names import cached_names
from bot.texts import esc, text
from core.diary import layout
from core.diary.draw import Format, render
from core.diary.model import DiaryRange
from core.model import Venue

log = logging.getLogger("osae.bot")
NOT_THERE = {"not_in_channel", "channel_not_found", "is_archived"}  # then the DM instead


def register(app: App, deps: Deps) -> None:
    app.action(ids.DIARY_WEEK)(deps.listener(home_button))


def diary_command(deps: Deps, args: Args, typed: str) -> None:
    """Acks at once (a refusal, or that it is being drawn); the drawing follows the ack."""
    body = args.body
    user = body["user_id"]
    locale = deps.locales.get(user)
    venue = deps.venue(args.context)
    today = deps.now().astimezone(venue.tz).date()
    asked = diary_asked.read(typed, today)
    if isinstance(asked, diary_asked.Unread):
        reason = text(locale, asked.key, word=esc(asked.word))
        args.ack(text=text(locale, "diary.usage", reason=reason))
        return
    words = diary_words(venue, asked, locale, deps.now(), person=str)
    args.ack(text=text(locale, "diary.drawing", title=words.title))
    channel = str(body.get("channel_id") or "")
    where = None if channel.startswith("D") else channel  # a DM: the asker's own, below
    deps.after(body, args.client, lambda: send(deps, args.client, venue, asked, user, where))


def home_button(deps: Deps, args: Args) -> None:
    """App Home's 今週の台帳: this week's picture in the person's DM."""
    args.ack()
    venue = deps.venue(args.context)
    user = args.body["user"]["id"]
    week = DiaryRange.week(deps.now().astimezone(venue.tz).date())
    deps.after(args.body, args.client, lambda: send(deps, args.client, venue, week, user, None))


def send(
    deps: Deps, client: WebClient, venue: Venue, days: DiaryRange, user: str, channel: str | None
) -> None:
    """Draw ``days`` and upload it into ``channel`` (None: the user's DM, as it is when osae
    may not post there); if the upload fails, the user is told why in the DM."""
    locale = deps.locales.get(user)
    now: datetime = deps.now()
    read = deps.engine.reads.diary(venue.id, days)
    names = cached_names(deps.engine, client, venue.id, {h.salesperson for h in read.holds}, now)
    placed = layout.build(read, now)
    words = diary_words(venue, days, locale, now, person=lambda u: names.get(u, u))
    picture = render(placed, words, Format.PNG)
    said = summary(placed, words, locale)
    try:
        try:
            _upload(client, channel or user, picture, days, (words.title, said), esc(said))
        except SlackApiError as err:
            if channel is None or err.response.get("error") not in NOT_THERE:
                raise
            moved = text(locale, "diary.moved", channel=channel) + "\n" + esc(said)
            _upload(client, user, picture, days, (words.title, said), moved)
    except (SlackClientError, OSError) as err:  # API refusals, the upload URL, timeouts
        reason = err.response.get("error") if isinstance(err, SlackApiError) else type(err).__name__
        log.warning("diary.upload_failed", extra={"venue": venue.id, "user": user, "error": reason})
        _tell(client, user, text(locale, "diary.failed", error=esc(str(reason))))
        return
    log.info(
        "diary.sent",
        extra={"venue": venue.id, "user": user, "view": days.view.value, "bytes": len(picture)},
    )


def _upload(
    client: WebClient,
    where: str,
    picture: bytes,
    days: DiaryRange,
    named: tuple[str, str],
    comment: str,
) -> None:
    """``where``: a channel, or a user id for their DM (``channels`` takes both; no
    conversations.open, so no im:write scope). ``named``: the picture's title and its
    summary (the alt text screen readers say); ``comment``: mrkdwn, escaped already."""
    title, said = named
    client.files_upload_v2(
        channels=[where],
        file=picture,
        filename=f"diary-{days.view.value}-{days.first.isoformat()}.png",
        title=title,
        alt_txt=said[:1000],
        initial_comment=comment,
    )


def _tell(client: WebClient, user: str, message: str) -> None:
    try:
        client.chat_postMessage(channel=user, text=message)
    except (SlackClientError, OSError) as err:
        log.warning("diary.tell_failed", extra={"user": user, "error": str(err)})
