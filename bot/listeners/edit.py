""" "Edit" on a hold's card: the /hold form filled in with the hold, its preview saying
whether the change keeps the hold's place, and its submission (the engine's edit)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from slack_bolt import Ack, App, Args

from bot import ids, strict
from bot.deps import Deps
from bot.edit_form import change_key, change_of, edit_line, form_of
from bot.form import Form
from bot.homes import publish_homes
from bot.logs import log_action
from bot.metadata import Meta, Source
from bot.replies import post_result
from bot.texts import dates, text
from bot.texts.refusals import describe, holders, ordinal
from bot.views.dialogs import info_modal
from bot.views.hold_modal import hold_modal, loading_modal
from bot.views.messages import outcome
from core.model import HoldEdit, Venue
from core.results import Code, EditAnswer, Refused


def register(app: App, deps: Deps) -> None:
    app.block_action(ids.EDIT)(deps.listener(clicked))
    app.block_action(ids.EDIT_ITEM)(deps.listener(picked))


def clicked(deps: Deps, args: Args) -> None:
    """A loading modal at once (the trigger lasts 3 s), then the form filled in."""
    args.ack()
    body = args.body
    venue = deps.venue(args.context)
    opened = args.client.views_open(trigger_id=body["trigger_id"], view=loading_modal().to_dict())
    deps.after(body, args.client, lambda: fill(deps, args, venue, opened["view"]))


def fill(deps: Deps, args: Args, venue: Venue, view: dict[str, Any]) -> None:
    """The form as the hold stands, or why it cannot be edited (nothing to open)."""
    body, user = args.body, args.body["user"]["id"]
    locale = deps.locales.get(user)
    hold_id = strict.hold_id(body["actions"][0].get("value"))
    found = deps.engine.reads.hold(venue.id, hold_id) if hold_id is not None else None
    if found is None or isinstance(found, Refused):
        refused = Refused(Code.HOLD_NOT_FOUND, detail=str(body["actions"][0].get("value"))[:24])
        return _update(
            deps,
            args,
            view,
            info_modal(
                describe(refused, venue.tz, locale, style=dates.style_for(venue, deps.now())),
                locale,
            ),
        )
    item = found.items[0]  # the first room; every other room is a row (+ adds, × removes)
    form = form_of(found, item, venue.tz, rows=True)
    meta = Meta(
        locale=locale,
        channel=Source.of(body).channel,  # the result goes where the card was
        hold_id=found.id,
        version=found.version,
        rows=tuple(row.key for row in form.rows),
        last_row=len(form.rows),
        items=tuple((i.room_id, i.room_name) for i in found.items),
    )
    # Nothing changed yet: the dry run says only whether this user may edit this hold now.
    plan = deps.engine.writes.edit_plan(venue.id, change_of(Form(), meta, user), now=deps.now())
    if isinstance(plan, Refused) and plan.code is not Code.NO_CHANGE:
        return _update(
            deps,
            args,
            view,
            info_modal(
                describe(plan, venue.tz, locale, style=dates.style_for(venue, deps.now())), locale
            ),
        )
    modal = hold_modal(venue, form, meta, preview=edit_line(plan, venue, locale, deps.now()))
    return _update(deps, args, view, modal)


def picked(deps: Deps, args: Args) -> None:
    """A package's edit form: another of its rooms chosen; the form shows that room's times
    and its submission changes that room (the details stay as typed)."""
    args.ack()
    body, user = args.body, args.body["user"]["id"]
    venue, view = deps.venue(args.context), body["view"]
    meta = Meta.load(view.get("private_metadata"))
    chosen = str((body["actions"][0].get("selected_option") or {}).get("value") or "")
    found = deps.engine.reads.hold(venue.id, meta.hold_id) if meta.hold_id else None
    if found is None or isinstance(found, Refused):
        return
    item = next((i for i in found.items if i.room_id == chosen), None)
    if item is None or not meta.editing:
        return
    meta = replace(meta, item=item.room_id, lose_first=None)
    plan = deps.engine.writes.edit_plan(venue.id, change_of(Form(), meta, user), now=deps.now())
    form = form_of(found, item, venue.tz)
    modal = hold_modal(venue, form, meta, preview=edit_line(plan, venue, meta.locale, deps.now()))
    _update(deps, args, view, modal)


def _update(deps: Deps, args: Args, view: dict[str, Any], modal: Any) -> None:
    deps.views.update(
        args.client, view_id=view["id"], view=modal.to_dict(), hash=view["hash"], stamp=0.0
    )


def submit_edit(deps: Deps, args: Args, venue: Venue, form: Form, meta: Meta) -> None:
    """The form (already read and checked for blanks) as an edit of ``meta.hold_id``."""
    ack, user = args.ack, args.body["user"]["id"]
    change = change_of(form, meta, user)
    current = deps.engine.reads.hold(venue.id, change.hold_id)
    if not isinstance(current, Refused) and form.kind != current.kind_id:
        ack(response_action="errors", errors={ids.KIND: text(meta.locale, "edit.kind_fixed")})
        return
    # From App Home (no channel), a swap's new card is the jobs' to post in the sales channel.
    result = deps.engine.writes.edit(
        venue.id, change, now=deps.now(), announce=meta.channel is None
    )
    if isinstance(result, Refused) and result.code is Code.WOULD_LOSE_FIRST:
        _ask_to_lose_first(ack, venue, form, meta, result, deps.now())
        log_action("edit", venue.id, user, change.hold_id, result.code.value)
        return
    if isinstance(result, Refused):
        _refuse(ack, venue, form, meta, result, deps.now())
        log_action("edit", venue.id, user, change.hold_id, result.code.value)
        return
    ack()
    log_action("edit", venue.id, user, result.hold.id, "kept" if result.kept_place else "swap")
    deps.after(args.body, args.client, lambda: _announce(deps, args, venue, meta, change, result))


def _announce(
    deps: Deps, args: Args, venue: Venue, meta: Meta, change: HoldEdit, result: EditAnswer
) -> None:
    hold, locale = result.hold, meta.locale
    place = ordinal(hold.rank, locale) if hold.rank else text(locale, "status.confirmed")
    style = dates.style_for(venue, deps.now())
    lead = (  # the hold follows the lead once, in the post's text and on its card
        text(locale, "edit.kept_lead", rank_text=place)
        if result.kept_place
        else text(locale, "edit.swapped_lead", id=hold.id, rank_text=place)
    )
    message = outcome(hold, venue.tz, locale, lead, style=style)
    if meta.channel:  # where the card was; from App Home, to the user directly
        # A swap's new hold goes on in the old card's thread (the old card says → the new).
        old = None if result.kept_place else deps.engine.delivery.card(venue.id, change.hold_id)
        thread = old.ts if old is not None and old.channel == meta.channel else None
        spot = post_result(args.client, meta, change.actor, message, thread=thread)
        if not result.kept_place and spot is not None:
            deps.engine.delivery.card_posted(venue.id, hold.id, spot, now=deps.now())
        elif not result.kept_place:
            # Not posted where the card was (the bot is no member there): the new hold's
            # card goes to the sales channel, where the jobs can keep it true.
            deps.engine.writes.announce(venue.id, hold.id, actor=change.actor, now=deps.now())
    else:
        args.client.chat_postMessage(channel=change.actor, text=message.text, blocks=message.blocks)
    # The edited card's redraw, and the "promoted" DMs, wait in the outbox.
    deps.notices_written(venue.id)
    people = {change.actor, hold.salesperson, result.before.salesperson}
    publish_homes(deps, args.client, venue, people | {h.salesperson for h in result.promoted})


def _refuse(
    ack: Ack, venue: Venue, form: Form, meta: Meta, refused: Refused, now: datetime
) -> None:
    """On the field at fault, or in the form itself (a stale form says so at its top)."""
    reason = describe(refused, venue.tz, meta.locale, style=dates.style_for(venue, now))
    block = ids.FIELD_BLOCKS.get(refused.field or "")
    if block is not None:
        ack(response_action="errors", errors={block: reason})
        return
    line = edit_line(refused, venue, meta.locale, now)
    modal = hold_modal(venue, form, meta, preview=line, refusal=reason)
    ack(response_action="update", view=modal.to_dict())


def _ask_to_lose_first(
    ack: Ack, venue: Venue, form: Form, meta: Meta, refused: Refused, now: datetime
) -> None:
    """The confirm step of a swap that costs the 1st place: the form again, saying who the
    hold would wait behind; sent again unchanged, it is done (a different change asks
    again)."""
    style = dates.style_for(venue, now)
    reason = text(
        meta.locale,
        "edit.confirm_lose_first",
        rank_text=ordinal(refused.rank or 2, meta.locale),
        holders=holders(refused.holders, venue.tz, meta.locale, style=style),
    )
    asked = replace(meta, lose_first=change_key(form))
    line = edit_line(refused, venue, meta.locale, now)
    modal = hold_modal(venue, form, asked, preview=line, refusal=reason)
    ack(response_action="update", view=modal.to_dict())
