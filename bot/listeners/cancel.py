"""The cancel dialog's submission: a manager cancels a confirmed booking (``/hold cancel 12``
opens the dialog, in ``listeners.commands``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slack_bolt import App, Args
from slack_sdk import WebClient

from bot import ids, strict
from bot.deps import Deps
from bot.homes import publish_homes
from bot.logs import log_action
from bot.metadata import Meta
from bot.replies import tell
from bot.texts import dates, text
from bot.texts.refusals import describe, hold_line
from bot.views.dialogs import MAX_REASON, info_modal
from core.model import Venue
from core.results import CancelAnswer, Code, Refused


def register(app: App, deps: Deps) -> None:
    app.view_submission(ids.CANCEL_MODAL)(deps.listener(cancel_submitted))


def cancel_submitted(deps: Deps, args: Args) -> None:
    """The engine decides (managers only, confirmed bookings only); a refusal stays in view."""
    view = args.body["view"]
    meta = Meta.load(view.get("private_metadata"))
    user, locale = args.body["user"]["id"], meta.locale
    reason = read_reason((view.get("state") or {}).get("values") or {})
    if not reason:
        args.ack(
            response_action="errors",
            errors={ids.CANCEL_REASON: text(locale, "cancel.reason.required")},
        )
        return
    venue = deps.venue(args.context)
    result: CancelAnswer | Refused = (
        deps.engine.writes.cancel(venue.id, meta.hold_id, actor=user, now=deps.now(), reason=reason)
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


def read_reason(values: Mapping[str, Any]) -> str:
    """The typed reason, stripped; empty if missing, unreadable or too long (Slack keeps it
    within the field's limit; a payload that does not is not Slack's)."""
    states = values.get(ids.CANCEL_REASON)
    state = states.get(ids.CANCEL_REASON) if isinstance(states, Mapping) else None
    raw = state.get("value") if isinstance(state, Mapping) else None
    typed = strict.typed_text(raw, lines=True) if raw is not None else None
    reason = (typed or "").strip()
    return reason if len(reason) <= MAX_REASON else ""


def _announce(
    deps: Deps, client: WebClient, venue: Venue, user: str, meta: Meta, result: CancelAnswer
) -> None:
    deps.notices_written(venue.id)  # the holds promoted into the freed slot are told by DM
    line = hold_line(result.hold, venue.tz, meta.locale, style=dates.style_for(venue, deps.now()))
    done = text(meta.locale, "cancel.done", hold=line)
    if result.promoted:
        done += "\n" + text(meta.locale, "done.promoted", count=len(result.promoted))
    tell(client, user, done, meta.locale, response_url=meta.response_url)
    publish_homes(deps, client, venue, {user, result.hold.salesperson})


def _outcome(result: CancelAnswer | Refused) -> str:
    return result.code.value if isinstance(result, Refused) else "ok"
