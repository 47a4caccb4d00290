"""The /hold modal: live preview on every slot change, rooms added and removed (a package),
rooms found as typed (a venue with more rooms than fit in a menu), and the submission."""

from __future__ import annotations

from dataclasses import replace

from slack_bolt import Ack, App, Args

from bot import ids, strict
from bot.deps import Deps
from bot.edit_form import edit_preview
from bot.form import REQUIRED_TEXT, Form, Row, invalid_text, read_form
from bot.homes import publish_homes
from bot.listeners.edit import submit_edit
from bot.logs import log_action
from bot.metadata import Meta
from bot.preview import current_preview, preview_line, room_names
from bot.replies import post_result
from bot.rooms import group_rooms
from bot.texts import dates, text
from bot.texts.dates import DateStyle
from bot.texts.refusals import describe
from bot.views.free import alternatives_blocks
from bot.views.hold_modal import MAX_MENU_ROOMS, hold_modal, room_groups
from bot.views.messages import posted
from bot.views.pings import ping_offer
from core.model import Kind, Venue
from core.results import Refused


def register(app: App, deps: Deps) -> None:
    app.block_action(ids.PREVIEW_ACTION)(deps.listener(preview_changed))
    app.block_action(ids.ITEM_ACTION)(deps.listener(preview_changed))
    app.block_action(ids.HOUSE)(deps.listener(preview_changed))
    app.block_action(ids.ADD_ROOM)(deps.listener(rows_changed))
    app.block_action(ids.REMOVE_ROOM)(deps.listener(rows_changed))
    app.options(ids.ROOM)(deps.listener(room_options))
    app.options(ids.ITEM_ROOM_ACTION)(deps.listener(room_options))
    app.view_submission(ids.HOLD_MODAL)(deps.listener(submit))


def preview_changed(deps: Deps, args: Args) -> None:
    """A slot input changed: the preview line follows, after the ack."""
    args.ack()
    deps.after(args.body, args.client, lambda: refresh_preview(deps, args))


def rows_changed(deps: Deps, args: Args) -> None:
    """ "+ Add a room" or a row's remove button: the form is drawn again with its new rows."""
    args.ack()
    deps.after(args.body, args.client, lambda: refresh_preview(deps, args))


def refresh_preview(deps: Deps, args: Args) -> None:
    view = args.body["view"]
    venue = deps.venue(args.context)
    meta = Meta.load(view.get("private_metadata"))
    form = read_form(view["state"]["values"], meta.rows, meta.enquiry_id)
    action = args.body["actions"][0]
    if action.get("action_id") in (ids.ADD_ROOM, ids.REMOVE_ROOM):
        form = _with_rows(form, action, venue.policy.max_items, meta.last_row)
        keys = tuple(row.key for row in form.rows)
        meta = replace(meta, rows=keys, last_row=max((meta.last_row, *keys)))
    user = args.body["user"]["id"]
    if meta.editing:
        line = edit_preview(deps.engine, venue, form, meta, user, deps.now())
    else:
        line = current_preview(deps.engine, venue, form, user, meta.locale, deps.now())
    modal = hold_modal(venue, form, meta, preview=line)
    stamp = strict.action_ts(args.body["actions"][0].get("action_ts")) or 0.0
    deps.views.update(
        args.client, view_id=view["id"], view=modal.to_dict(), hash=view.get("hash"), stamp=stamp
    )


def _with_rows(form: Form, action: dict[str, object], max_items: int, last_key: int) -> Form:
    """The form after an add (a new row whose start is the last row's end, its key never used
    in this form before) or a remove (the row the button's value names); a click past the
    venue's limit or on no row changes nothing.
    """
    if action.get("action_id") == ids.REMOVE_ROOM:
        key = strict.number(action.get("value"))
        return replace(form, rows=tuple(row for row in form.rows if row.key != key))
    if len(form.rows) + 1 >= max_items:
        return form
    key = max((last_key, *(row.key for row in form.rows))) + 1
    if key > ids.MAX_ROW_KEY:  # a thousand rows added and removed in one form
        return form
    last_end = form.rows[-1].end_min if form.rows else form.end_min
    return replace(form, rows=(*form.rows, Row(key, start_min=last_end)))


def room_options(deps: Deps, args: Args) -> None:
    """The rooms whose name or id contains what was typed, grouped as in a full menu."""
    venue = deps.venue(args.context)
    locale = Meta.load((args.body.get("view") or {}).get("private_metadata")).locale
    found = group_rooms(venue.rooms.values()).matching(args.body["value"], MAX_MENU_ROOMS)
    args.ack(option_groups=[group.to_dict() for group in room_groups(found, locale)])


def submit(deps: Deps, args: Args) -> None:
    """Errors on the field at fault; a refusal in the modal; success closes it and posts."""
    ack, view, user = args.ack, args.body["view"], args.body["user"]["id"]
    meta = Meta.load(view.get("private_metadata"))
    form = read_form(view["state"]["values"], meta.rows, meta.enquiry_id)
    if form.invalid:
        ack(
            response_action="errors",
            errors={b: text(meta.locale, invalid_text(b)) for b in form.invalid},
        )
        return
    if missing := form.missing():
        ack(
            response_action="errors",
            # a further room's row: its room or time, as the first row's are asked for
            errors={b: text(meta.locale, _required(form, b)) for b in missing},
        )
        return
    if meta.editing:
        submit_edit(deps, args, deps.venue(args.context), form, meta)
        return
    # The view id is the same for a double click and for Slack's retries: one hold. Opened
    # from App Home (no channel), its card is the jobs' to post in the sales channel.
    venue_id = deps.venue_id(args.context)
    result = deps.engine.writes.request(
        venue_id,
        form.request(user),
        now=deps.now(),
        idempotency_key=f"modal:{view['id']}",
        announce=meta.channel is None,
    )
    venue = deps.venue_seen(venue_id)
    if isinstance(result, Refused):
        _refuse(ack, venue, form, meta, result, dates.style_for(venue, deps.now()))
        log_action("request", venue.id, user, None, result.code.value)
        return
    ack()
    log_action("request", venue.id, user, result.hold.id, "replayed" if result.replayed else "ok")
    if result.replayed:
        return  # the first submission posted already

    def announce() -> None:
        hold = result.hold
        if meta.channel is None or result.rank > 1:
            deps.notices_written(venue.id)  # its card, or the 1st told a 2nd now waits
        style = dates.style_for(venue, deps.now())
        candidate = meta.enquiry_id is not None
        message = posted(result, venue.tz, meta.locale, candidate=candidate, style=style)
        spot = post_result(args.client, meta, user, message)
        if spot is not None:
            deps.engine.delivery.card_posted(venue.id, hold.id, spot, now=deps.now())
        elif meta.channel is not None:
            # Not posted where /hold was typed (the bot is no member there): the ledger's
            # card goes to the sales channel, where the jobs can keep it true.
            deps.engine.writes.announce(venue.id, hold.id, actor=user, now=deps.now())
            deps.notices_written(venue.id)
        publish_homes(deps, args.client, venue, {hold.salesperson, user})

    deps.after(args.body, args.client, announce)


def _refuse(
    ack: Ack, venue: Venue, form: Form, meta: Meta, refused: Refused, style: DateStyle
) -> None:
    reason = describe(refused, venue.tz, meta.locale, style=style)
    block = form.row_block(refused.room, refused.field)
    if block == ids.HOUSE and not meta.house:
        block = None  # a form with no 社内押さえ choice: said above the form
    # a banquet window not open yet: 「開放日に知らせる」 beside the refusal (a new booking's)
    ping = ping_offer(refused, venue.tz, meta.locale, style) if meta.enquiry_id is None else []
    if block is not None and not ping:
        ack(response_action="errors", errors={block: reason})
        return
    line = preview_line(refused, venue.tz, meta.locale, room_names(venue, form), style=style)
    # the buttons carry the form's kind id (二次会 stays 二次会 in the form they open)
    offered = ping or alternatives_blocks(
        refused.alternatives, venue, form.kind or Kind.WEDDING.value, meta.locale, style
    )
    modal = hold_modal(venue, form, meta, preview=line, refusal=reason, alternatives=offered)
    ack(response_action="update", view=modal.to_dict())


def _required(form: Form, block: str) -> str:
    """What an input left empty is told: each names what it wants; a further room's row
    asks for its room or time as the first row does."""
    for row in form.rows:
        for mine, first in zip(row.blocks(), (ids.ROOM, ids.START, ids.END), strict=True):
            if block == mine:
                return REQUIRED_TEXT[first]
    return REQUIRED_TEXT.get(block, "field.required")
