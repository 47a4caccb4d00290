"""The window ping (開放日に知らせる) in Slack: the /hold form's 「開放日に知らせる」 beside a
banquet-window refusal keeps the request as the form has it; the DM's 押さえる, when the window
opens, opens the form filled in with it (as a search result's button does); App Home's
取り消す drops a waiting ping. Values are read strictly; who may act is the engine's say."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import App, Args

from bot import ids, strict
from bot.deps import Deps
from bot.form import Form, Row, read_form
from bot.homes import publish_homes
from bot.logs import log_action
from bot.metadata import Meta
from bot.preview import current_preview
from bot.replies import tell
from bot.texts import dates
from bot.texts.refusals import describe
from bot.views.hold_modal import hold_modal, loading_modal
from bot.views.pings import ping_kept
from core.model import Venue
from core.pings import PingAnswer, WindowPing
from core.results import Code, Refused

log = logging.getLogger("osae.bot")


def register(app: App, deps: Deps) -> None:
    app.block_action(ids.PING_ASK)(deps.listener(ask_clicked))
    app.block_action(ids.PING_HOLD)(deps.listener(hold_clicked))
    app.block_action(ids.PING_DROP)(deps.listener(drop_clicked))


def ask_clicked(deps: Deps, args: Args) -> None:
    """「開放日に知らせる」 in the form: the ping kept from what the form has now; the form
    says so in place of the offer (or why not, on top)."""
    args.ack()
    if not isinstance(args.body.get("view"), dict):  # only the form has it: a crafted click
        log.warning("ping.no_form", extra={"user": args.body["user"]["id"]})
        return
    deps.after(args.body, args.client, lambda: _ask(deps, args))


def _ask(deps: Deps, args: Args) -> None:
    view, user = args.body["view"], args.body["user"]["id"]
    venue = deps.venue(args.context)
    meta = Meta.load(view.get("private_metadata"))
    form = read_form(view["state"]["values"], meta.rows, meta.enquiry_id)
    now = deps.now()
    preview = current_preview(deps.engine, venue, form, user, meta.locale, now)
    if not form.slot_chosen():  # emptied since the refusal: the preview says what is missing
        modal = hold_modal(venue, form, meta, preview=preview)
        answer: PingAnswer | Refused | None = None
    else:  # the engine checks the rest (customer, salesperson...) as a request's
        answer = deps.engine.pings.add(venue.id, form.request(user), asker=user, now=now)
    if isinstance(answer, Refused):
        reason = describe(answer, venue.tz, meta.locale, style=dates.style_for(venue, now))
        modal = hold_modal(venue, form, meta, preview=preview, refusal=reason)
        log_action("ping", venue.id, user, None, answer.code.value)
    elif answer is not None:
        ping, replayed = answer.ping, answer.replayed
        kept = ping_kept(ping, replayed, venue, meta.locale, now)
        modal = hold_modal(venue, form, meta, preview=preview, alternatives=[kept])
        log_action("ping", venue.id, user, None, "replayed" if replayed else "ok")
        publish_homes(deps, args.client, venue, {user})
    deps.views.update(
        args.client, view_id=view["id"], view=modal.to_dict(), hash=view.get("hash"), stamp=0.0
    )


def hold_clicked(deps: Deps, args: Args) -> None:
    """The DM's 押さえる: the /hold form filled in with the ping's request (its asker's, or
    a manager's to open); anyone else is told why not."""
    args.ack()
    body, user = args.body, args.body["user"]["id"]
    venue = deps.venue(args.context)
    locale = deps.locales.get(user)
    found = _ping(deps, venue, body["actions"][0].get("value"))
    if not isinstance(found, Refused) and not found.may_drop(user, venue.managers):
        found = Refused(Code.NOT_AUTHORIZED, detail="ping")
    if isinstance(found, Refused):
        message = describe(found, venue.tz, locale, style=dates.style_for(venue, deps.now()))
        tell(client=args.client, user=user, message=message, locale=locale)
        return
    opened = args.client.views_open(trigger_id=body["trigger_id"], view=loading_modal().to_dict())
    loading = opened["view"]
    deps.after(body, args.client, lambda: _fill(deps, args, venue, loading, found, locale))


def _fill(
    deps: Deps, args: Args, venue: Venue, loading: dict[str, Any], ping: WindowPing, locale: str
) -> None:
    req = ping.request
    rows = tuple(
        Row(key, item.room_id, item.start_min, item.end_min % 1440)
        for key, item in enumerate(req.also, start=1)
    )
    form = Form(
        room_id=req.room_id,
        day=req.local_date,
        start_min=req.start_min,
        end_min=req.end_min % 1440,
        kind=req.kind,
        customer=req.customer,
        salesperson=req.salesperson,
        note=req.note,
        guests=req.guests,
        rows=rows,
    )
    keys = tuple(row.key for row in rows)
    meta = Meta(locale=locale, rows=keys, last_row=max(keys, default=0))
    user = args.body["user"]["id"]
    preview = current_preview(deps.engine, venue, form, user, locale, deps.now())
    modal = hold_modal(venue, form, meta, preview=preview)
    deps.views.update(
        args.client, view_id=loading["id"], view=modal.to_dict(), hash=loading["hash"], stamp=0.0
    )
    log_action("ping_hold", venue.id, user, None, "opened")


def drop_clicked(deps: Deps, args: Args) -> None:
    """App Home's 取り消す: its asker or a manager (the engine decides); App Home redrawn."""
    args.ack()
    deps.after(args.body, args.client, lambda: _drop(deps, args))


def _drop(deps: Deps, args: Args) -> None:
    body, user = args.body, args.body["user"]["id"]
    venue = deps.venue(args.context)
    locale = deps.locales.get(user)
    ping_id = strict.hold_id(body["actions"][0].get("value"))
    dropped: WindowPing | Refused = (
        deps.engine.pings.drop(venue.id, ping_id, actor=user, now=deps.now())
        if ping_id is not None
        else Refused(Code.PING_NOT_FOUND, detail=str(body["actions"][0].get("value"))[:24])
    )
    log_action("ping_drop", venue.id, user, None, getattr(dropped, "code", "ok"))
    if isinstance(dropped, Refused):
        message = describe(dropped, venue.tz, locale, style=dates.style_for(venue, deps.now()))
        tell(args.client, user, message, locale, trigger_id=body.get("trigger_id"))
    publish_homes(deps, args.client, venue, {user})


def _ping(deps: Deps, venue: Venue, value: object) -> WindowPing | Refused:
    ping_id = strict.hold_id(value)  # an id: a positive integer in the id column's range
    if ping_id is None:
        return Refused(Code.PING_NOT_FOUND, detail=str(value)[:24])
    return deps.engine.pings.one(venue.id, ping_id)
