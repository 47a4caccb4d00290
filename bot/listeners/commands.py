"""``/hold``: open the modal (prefilled from a quick form), ``/hold list``, ``/hold help``."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, App, BoltContext, Respond
from slack_sdk import WebClient

from bot import ids
from bot.deps import Deps
from bot.form import Form, ModalMeta
from bot.listeners.cancel import ask_to_cancel
from bot.listeners.modal import current_preview
from bot.quickform import QuickForm, parse
from bot.views.hold_modal import hold_modal, loading_modal, quick_notes
from bot.views.messages import help_message, listing
from core.model import LIVE, Venue

HELP_WORDS = {"help", "ヘルプ", "使い方", "?", "？"}
LIST_WORDS = {"list", "一覧", "リスト", "ls"}
CANCEL_WORDS = {"cancel", "取消", "取り消し", "取消し"}

log = logging.getLogger("osae.bot")


def register(app: App, deps: Deps) -> None:
    def hold_command(
        ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext, respond: Respond
    ) -> None:
        text = (body.get("text") or "").strip()
        word = text.split(maxsplit=1)[0].casefold() if text else ""
        if word in HELP_WORDS:
            message = help_message(deps.locales.get(body["user_id"]))
            ack(text=message.text, blocks=message.blocks)
        elif word in LIST_WORDS:
            ack()
            deps.after(body, client, lambda: my_holds(deps, body["user_id"], context, respond))
        elif word in CANCEL_WORDS:
            ack()
            rest = text.split(maxsplit=1)[1:]  # what follows the word, if anything
            ask_to_cancel(deps, body, client, context, respond, rest[0].strip() if rest else "")
        else:
            ack()
            open_form(deps, body, client, context, text)

    app.command(ids.COMMAND)(deps.listener(hold_command))


def open_form(
    deps: Deps, body: dict[str, Any], client: WebClient, context: BoltContext, text: str
) -> None:
    """A loading modal at once (the trigger lasts 3 s), then the form built from the engine."""
    venue = deps.venue(context)  # before opening: a workspace without a venue gets a message
    opened = client.views_open(trigger_id=body["trigger_id"], view=loading_modal().to_dict())
    view = opened["view"]
    deps.after(body, client, lambda: fill_form(deps, body, client, venue, view, text))


def fill_form(
    deps: Deps,
    body: dict[str, Any],
    client: WebClient,
    venue: Venue,
    view: dict[str, Any],
    text: str,
) -> None:
    user = body["user_id"]
    locale = deps.locales.get(user)
    today = deps.now().astimezone(venue.tz).date()
    quick = parse(text, list(venue.rooms.values()), today) if text else QuickForm()
    form = Form.from_quick(quick, salesperson=user)
    meta = ModalMeta(
        channel=body.get("channel_id"),
        locale=locale,
        notes=quick_notes(quick, locale),
        response_url=body.get("response_url"),
    )
    modal = hold_modal(venue, form, meta, preview=current_preview(deps, venue, form, user, locale))
    deps.views.update(
        client, view_id=view["id"], view=modal.to_dict(), hash=view["hash"], stamp=0.0
    )
    log.info(
        "hold.form_opened",
        extra={"venue": venue.id, "user": user, "action": "open", "quick": bool(text)},
    )


def my_holds(deps: Deps, user: str, context: BoltContext, respond: Respond) -> None:
    """``/hold list``: my live holds from today on, soonest first, only to me."""
    venue = deps.venue(context)
    locale = deps.locales.get(user)
    today = deps.now().astimezone(venue.tz).date()
    found = deps.engine.holds(venue.id, salesperson=user, statuses=sorted(LIVE))
    holds = [h for h in found if h.local_date >= today]
    holds.sort(key=lambda h: (h.start_at, h.id))
    message = listing(holds, venue.tz, locale)
    respond(text=message.text, blocks=message.blocks, response_type="ephemeral")
