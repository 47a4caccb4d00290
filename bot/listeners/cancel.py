"""``/hold cancel 12``: a manager cancels a confirmed booking, after a confirmation dialog."""

from __future__ import annotations

import json
import logging
from typing import Any

from slack_bolt import Ack, App, BoltContext, Respond
from slack_sdk import WebClient

from bot import ids
from bot.blocks import esc
from bot.deps import Deps
from bot.listeners.home import publish_homes
from bot.replies import dumps, tell
from bot.texts import text
from bot.texts.refusals import describe, hold_line
from bot.views.dialogs import cancel_modal, info_modal
from core.model import Venue
from core.results import Cancelled, Code, Refused

log = logging.getLogger("osae.bot")


def register(app: App, deps: Deps) -> None:
    def submitted(
        ack: Ack,
        body: dict[str, Any],
        view: dict[str, Any],
        client: WebClient,
        context: BoltContext,
    ) -> None:
        cancel_submitted(deps, ack, body, view, client, context)

    app.view_submission(ids.CANCEL_MODAL)(submitted)


def ask_to_cancel(
    deps: Deps,
    body: dict[str, Any],
    client: WebClient,
    context: BoltContext,
    respond: Respond,
    argument: str,
) -> None:
    """Open the dialog for a hold that exists, to a manager; others are told why not."""
    venue = deps.venue(context)
    user = body["user_id"]
    locale = deps.locales.get(user)
    if not argument.lstrip("#").isdigit():
        respond(text=text(locale, "cancel.usage"), response_type="ephemeral")
        return
    found = deps.engine.hold(venue.id, int(argument.lstrip("#")))
    if not isinstance(found, Refused) and not venue.is_manager(user):
        found = Refused(Code.NOT_AUTHORIZED, hold=found, detail="manager")  # spare a dialog
    if isinstance(found, Refused):
        respond(text=describe(found, venue.tz, locale), response_type="ephemeral")
        return
    meta = dumps({"h": found.id, "l": locale, "u": body.get("response_url")})
    view = cancel_modal(found, venue.tz, locale, meta)
    client.views_open(trigger_id=body["trigger_id"], view=view.to_dict())


def cancel_submitted(
    deps: Deps,
    ack: Ack,
    body: dict[str, Any],
    view: dict[str, Any],
    client: WebClient,
    context: BoltContext,
) -> None:
    """The engine decides (managers only, confirmed bookings only); a refusal stays in view."""
    meta = json.loads(view.get("private_metadata") or "{}")
    user, locale = body["user"]["id"], meta.get("l") or "ja"
    venue = deps.venue(context)
    result = deps.engine.cancel(venue.id, int(meta["h"]), actor=user, now=deps.now())
    _log(venue, user, int(meta["h"]), result)
    if isinstance(result, Refused):
        reason = esc(describe(result, venue.tz, locale))
        ack(response_action="update", view=info_modal(reason, locale).to_dict())
        return
    ack()
    deps.after(body, client, lambda: _announce(deps, client, venue, user, locale, meta, result))


def _announce(
    deps: Deps,
    client: WebClient,
    venue: Venue,
    user: str,
    locale: str,
    meta: dict[str, Any],
    result: Cancelled,
) -> None:
    deps.notices_written(venue.id)  # the holds promoted into the freed slot are told by DM
    done = text(locale, "cancel.done", hold=hold_line(result.hold, venue.tz, locale))
    if result.promoted:
        done += "\n" + text(locale, "done.promoted", count=len(result.promoted))
    tell(client, user, done, locale, response_url=meta.get("u"))
    publish_homes(deps, client, venue, {user, result.hold.salesperson})


def _log(venue: Venue, user: str, hold_id: int, result: Cancelled | Refused) -> None:
    outcome = result.code.value if isinstance(result, Refused) else "ok"
    log.info(
        "hold.cancel",
        extra={
            "venue": venue.id,
            "hold_id": hold_id,
            "user": user,
            "action": "cancel",
            "outcome": outcome,
        },
    )
