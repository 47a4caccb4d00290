"""The /hold modal: live preview on every slot change, rooms found as typed (a venue with
more rooms than fit in a menu), and the submission."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from bot import ids, strict
from bot.deps import Deps
from bot.form import INVALID, Form, ModalMeta, read_form
from bot.listeners.home import publish_homes
from bot.preview import preview_line
from bot.replies import post_result
from bot.rooms import group_rooms
from bot.texts import text
from bot.texts.refusals import describe
from bot.views.hold_modal import MAX_MENU_ROOMS, hold_modal, room_groups
from bot.views.messages import posted
from core.model import Venue
from core.results import Refused

log = logging.getLogger("osae.bot")


def register(app: App, deps: Deps) -> None:
    def preview_changed(
        ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext
    ) -> None:
        ack()
        deps.after(body, client, lambda: refresh_preview(deps, body, client, context))

    def submitted(
        ack: Ack,
        body: dict[str, Any],
        view: dict[str, Any],
        client: WebClient,
        context: BoltContext,
    ) -> None:
        submit(deps, ack, body, view, client, context)

    def rooms_typed(
        ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext
    ) -> None:
        room_options(deps, ack, body, context)

    app.block_action(ids.PREVIEW_ACTION)(deps.listener(preview_changed))
    app.options(ids.ROOM)(deps.listener(rooms_typed))
    app.view_submission(ids.HOLD_MODAL)(deps.listener(submitted))


def current_preview(deps: Deps, venue: Venue, form: Form, user: str, locale: str) -> str:
    """The engine's read-only answer for the slot chosen so far, as one line."""
    if not form.slot_chosen():
        return preview_line(None, venue.tz, locale)
    result = deps.engine.preview(venue.id, form.preview_request(user), now=deps.now())
    return preview_line(result, venue.tz, locale)


def room_options(deps: Deps, ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
    """The rooms whose name or id contains what was typed, grouped as in a full menu."""
    venue = deps.venue(context)
    locale = ModalMeta.load((body.get("view") or {}).get("private_metadata")).locale
    found = group_rooms(venue.rooms.values()).matching(body["value"], MAX_MENU_ROOMS)
    ack(option_groups=[group.to_dict() for group in room_groups(found, locale)])


def refresh_preview(
    deps: Deps, body: dict[str, Any], client: WebClient, context: BoltContext
) -> None:
    view = body["view"]
    user = body["user"]["id"]
    venue = deps.venue(context)
    meta = ModalMeta.load(view.get("private_metadata"))
    form = read_form(view["state"]["values"])
    line = current_preview(deps, venue, form, user, meta.locale)
    modal = hold_modal(venue, form, meta, preview=line)
    stamp = strict.action_ts(body["actions"][0].get("action_ts")) or 0.0
    deps.views.update(
        client, view_id=view["id"], view=modal.to_dict(), hash=view.get("hash"), stamp=stamp
    )


def submit(
    deps: Deps,
    ack: Ack,
    body: dict[str, Any],
    view: dict[str, Any],
    client: WebClient,
    context: BoltContext,
) -> None:
    """Errors on the field at fault; a refusal in the modal; success closes it and posts."""
    user = body["user"]["id"]
    meta = ModalMeta.load(view.get("private_metadata"))
    form = read_form(view["state"]["values"])
    if form.invalid:
        errors = {b: text(meta.locale, INVALID[b]) for b in form.invalid}
        ack(response_action="errors", errors=errors)
        return
    missing = form.missing()
    if missing:
        ack(
            response_action="errors",
            errors={b: text(meta.locale, "field.required") for b in missing},
        )
        return
    venue = deps.venue(context)
    # The view id is the same for a double click and for Slack's retries: one hold.
    result = deps.engine.request(
        venue.id, form.request(user), now=deps.now(), idempotency_key=f"modal:{view['id']}"
    )
    if isinstance(result, Refused):
        _refuse(ack, venue, form, meta, result)
        _log(venue, user, None, result.code.value)
        return
    ack()
    _log(venue, user, result.hold.id, "replayed" if result.replayed else "ok")
    if result.replayed:
        return  # the first submission posted already

    def announce() -> None:
        post_result(client, meta, user, posted(result, venue.tz, meta.locale))
        publish_homes(deps, client, venue, {result.hold.salesperson, user})

    deps.after(body, client, announce)


def _refuse(ack: Ack, venue: Venue, form: Form, meta: ModalMeta, refused: Refused) -> None:
    reason = describe(refused, venue.tz, meta.locale)
    block = ids.FIELD_BLOCKS.get(refused.field or "")
    if block is not None:
        ack(response_action="errors", errors={block: reason})
        return
    line = preview_line(refused, venue.tz, meta.locale)
    modal = hold_modal(venue, form, meta, preview=line, refusal=reason)
    ack(response_action="update", view=modal.to_dict())


def _log(venue: Venue, user: str, hold_id: int | None, outcome: str) -> None:
    log.info(
        "hold.request",
        extra={
            "venue": venue.id,
            "hold_id": hold_id,
            "user": user,
            "action": "request",
            "outcome": outcome,
        },
    )
