"""A manager's App Home 「Excel で出力」: the 予約台帳 from today to three months ahead, contacts
included (managers only, checked on the server for every click), uploaded after the ack
(``files_upload_v2``: files.getUploadURLExternal, the upload URL, completeUploadExternal) to
the manager's DM; if it cannot be, the DM says why."""

from __future__ import annotations

import logging
from datetime import date, timedelta

from slack_bolt import App, Args
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot import ids
from bot.deps import Deps
from bot.errors import UserError
from bot.takeout import ledger_file
from bot.texts import esc, text
from core.model import Venue

log = logging.getLogger("osae.bot")
AHEAD = timedelta(days=92)  # today to three months ahead


def register(app: App, deps: Deps) -> None:
    app.action(ids.LEDGER_EXPORT)(deps.listener(export_button))


def export_button(deps: Deps, args: Args) -> None:
    args.ack()
    venue = deps.venue(args.context)
    user = args.body["user"]["id"]
    if not venue.is_manager(user):  # the button is a manager's; a click is never trusted
        raise UserError("takeout.export.managers_only")
    deps.after(args.body, args.client, lambda: send(deps, args.client, venue, user))


def send(deps: Deps, client: WebClient, venue: Venue, user: str) -> None:
    locale = deps.locales.get(user)
    first: date = deps.now().astimezone(venue.tz).date()
    last = first + AHEAD
    found = deps.engine.reads.ledger_out(venue.id, first, last)
    data, rows = ledger_file(found, venue, "xlsx", with_contact=True)
    said = text(locale, "takeout.export.sent", start=first, end=last, rows=rows)
    try:
        client.files_upload_v2(
            channels=[user],  # the manager's DM (no conversations.open: no im:write scope)
            file=data,
            filename=f"予約台帳-{first.isoformat()}-{last.isoformat()}.xlsx",
            title=said,
            initial_comment=said,
        )
    except (SlackClientError, OSError) as err:
        reason = err.response.get("error") if isinstance(err, SlackApiError) else type(err).__name__
        log.warning("export.upload_failed", extra={"venue": venue.id, "error": reason})
        _tell(client, user, text(locale, "takeout.export.failed", why=esc(str(reason))))
        return
    log.info("export.sent", extra={"venue": venue.id, "rows": rows, "bytes": len(data)})


def _tell(client: WebClient, user: str, message: str) -> None:
    try:
        client.chat_postMessage(channel=user, text=message)
    except (SlackClientError, OSError) as err:
        log.warning("export.tell_failed", extra={"error": str(err)})
