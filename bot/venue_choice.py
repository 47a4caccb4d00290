"""A hotel group's workspace has several venues: the /hold form and App Home ask which one a
person works in (``ids.VENUE_PICK``); the choice is kept (``HoldEngine.choose_venue``) and
every later request of theirs goes to that venue (``Deps.venue_id``)."""

from __future__ import annotations

from slack_bolt import App, Args

from bot import ids
from bot.deps import Deps
from bot.form import Form
from bot.homes import publish_homes
from bot.metadata import Meta
from bot.preview import current_preview
from bot.quickform import QuickForm
from bot.views.hold_modal import hold_modal


def register(app: App, deps: Deps) -> None:
    app.block_action(ids.VENUE_PICK)(deps.listener(venue_picked))


def venue_picked(deps: Deps, args: Args) -> None:
    """Keep the choice, then redraw where it was made: the /hold form, empty, with that
    venue's rooms; or App Home."""
    args.ack()
    body = args.body
    user = str(body["user"]["id"])
    option = (args.action or {}).get("selected_option") or {}
    venue_id = option.get("value") if isinstance(option, dict) else None
    if not isinstance(venue_id, str) or venue_id not in deps.venues_of(args.context):
        return  # not one of this workspace's venues: nothing to choose
    deps.engine.venues.choose_venue(venue_id, user, now=deps.now())
    venue = deps.venue(args.context)
    view = body.get("view") or {}
    if view.get("type") == "home":
        publish_homes(deps, args.client, venue, {user})
        return
    old = Meta.load(view.get("private_metadata"))
    form = Form.from_quick(QuickForm(), salesperson=user, max_items=venue.policy.max_items)
    meta = Meta(
        locale=old.locale,
        channel=old.channel,
        response_url=old.response_url,
        rows=tuple(row.key for row in form.rows),
        venues=old.venues,
    )
    preview = current_preview(deps.engine, venue, form, user, old.locale, deps.now())
    modal = hold_modal(venue, form, meta, preview=preview).to_dict()
    deps.views.update(args.client, view_id=view["id"], view=modal, hash=view.get("hash"), stamp=0.0)
