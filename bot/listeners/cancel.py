"""``/hold cancel 12``: a manager cancels a confirmed booking, after a confirmation dialog."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, App, BoltContext, Respond
from slack_sdk import WebClient

from bot import ids, strict
from bot.deps import Deps
from bot.form import HoldMeta
from bot.listeners.home import publish_homes
from bot.replies import tell
from bot.texts import text
from bot.texts.refusals import describe, hold_line
from bot.views.dialogs import cancel_modal, info_modal
from core.model import Hold, Venue
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

    app.view_submission(ids.CANCEL_MODAL)(deps.listener(submitted))


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
    number = strict.number(argument.removeprefix("#").removeprefix("＃"))
    if number is None:  # not a number (² and ¹² are not either)
        respond(text=text(locale, "cancel.usage"), response_type="ephemeral")
        return
    found: Hold | Refused = (
        deps.engine.hold(venue.id, number)
        if strict.is_hold_id(number)
        else Refused(Code.HOLD_NOT_FOUND, detail=str(number)[:24])  # beyond the id column
    )
    if not isinstance(found, Refused) and not venue.is_manager(user):
        found = Refused(Code.NOT_AUTHORIZED, hold=found, detail="manager")  # spare a dialog
    if isinstance(found, Refused):
        respond(text=describe(found, venue.tz, locale), response_type="ephemeral")
        return
    meta = HoldMeta(found.id, locale, body.get("response_url")).dump()
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
    meta = HoldMeta.load(view.get("private_metadata"))
    user, locale = body["user"]["id"], meta.locale
    venue = deps.venue(context)
    result: Cancelled | Refused = (
        deps.engine.cancel(venue.id, meta.hold_id, actor=user, now=deps.now())
        if meta.hold_id is not None
        else Refused(Code.HOLD_NOT_FOUND, detail="-")
    )
    _log(venue, user, meta.hold_id, result)
    if isinstance(result, Refused):
        reason = describe(result, venue.tz, locale)
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
    meta: HoldMeta,
    result: Cancelled,
) -> None:
    deps.notices_written(venue.id)  # the holds promoted into the freed slot are told by DM
    done = text(locale, "cancel.done", hold=hold_line(result.hold, venue.tz, locale))
    if result.promoted:
        done += "\n" + text(locale, "done.promoted", count=len(result.promoted))
    tell(client, user, done, locale, response_url=meta.response_url)
    publish_homes(deps, client, venue, {user, result.hold.salesperson})


def _log(venue: Venue, user: str, hold_id: int | None, result: Cancelled | Refused) -> None:
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
