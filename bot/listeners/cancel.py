"""The cancel dialog's submission: a manager cancels a confirmed booking (``/hold cancel 12``
opens the dialog, in ``listeners.commands``)."""

from __future__ import annotations

from slack_bolt import App, Args
from slack_sdk import WebClient

from bot import ids
from bot.deps import Deps
from bot.homes import publish_homes
from bot.logs import log_action
from bot.metadata import Meta
from bot.replies import tell
from bot.texts import dates, text
from bot.texts.refusals import describe, hold_line
from bot.views.dialogs import info_modal
from core.model import Venue
from core.results import Cancelled, Code, Refused


def register(app: App, deps: Deps) -> None:
    app.view_submission(ids.CANCEL_MODAL)(deps.listener(cancel_submitted))


def cancel_submitted(deps: Deps, args: Args) -> None:
    """The engine decides (managers only, confirmed bookings only); a refusal stays in view."""
    meta = Meta.load(args.body["view"].get("private_metadata"))
    user, locale = args.body["user"]["id"], meta.locale
    venue = deps.venue(args.context)
    result: Cancelled | Refused = (
        deps.engine.cancel(venue.id, meta.hold_id, actor=user, now=deps.now())
        if meta.hold_id is not None
        else Refused(Code.HOLD_NOT_FOUND, detail="-")
    )
    log_action("cancel", venue.id, user, meta.hold_id, _outcome(result))
    if isinstance(result, Refused):
        reason = describe(result, venue.tz, locale, style=dates.style_for(venue, deps.now()))
        args.ack(response_action="update", view=info_modal(reason, locale).to_dict())
        return
    args.ack()
    client = args.client
    deps.after(args.body, client, lambda: _announce(deps, client, venue, user, meta, result))


def _announce(
    deps: Deps, client: WebClient, venue: Venue, user: str, meta: Meta, result: Cancelled
) -> None:
    deps.notices_written(venue.id)  # the holds promoted into the freed slot are told by DM
    line = hold_line(result.hold, venue.tz, meta.locale, style=dates.style_for(venue, deps.now()))
    done = text(meta.locale, "cancel.done", hold=line)
    if result.promoted:
        done += "\n" + text(meta.locale, "done.promoted", count=len(result.promoted))
    tell(client, user, done, meta.locale, response_url=meta.response_url)
    publish_homes(deps, client, venue, {user, result.hold.salesperson})


def _outcome(result: Cancelled | Refused) -> str:
    return result.code.value if isinstance(result, Refused) else "ok"
