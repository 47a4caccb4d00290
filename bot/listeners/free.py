"""Finding a slot in Slack: ``/hold free …`` and the search form from App Home answer with the
places a request would get; each place's button (and each alternative of a refusal) opens
the hold form filled in; "next" pages through the rest."""

from __future__ import annotations

import json
import logging
from typing import Any

from slack_bolt import App, Args

from bot import ids
from bot.blocks import context
from bot.deps import Deps
from bot.form import Form, read_form
from bot.metadata import Meta
from bot.places import Chosen, chosen
from bot.preview import current_preview
from bot.quickfree import parse
from bot.texts import dates, esc, text
from bot.texts.refusals import describe
from bot.views.free import MAX_TYPED, find_modal, found_modal, results
from bot.views.hold_modal import hold_modal, loading_modal
from bot.views.messages import Message
from core.model import Venue
from core.results import Refused

log = logging.getLogger("osae.bot")
MAX_PAGE = 100


def register(app: App, deps: Deps) -> None:
    app.block_action(ids.FREE_HOLD_ACTION)(deps.listener(hold_clicked))
    app.block_action(ids.FREE_MORE)(deps.listener(more_clicked))
    app.block_action(ids.FIND_SLOT)(deps.listener(find_clicked))
    app.view_submission(ids.FIND_MODAL)(deps.listener(find_submitted))


def answer(deps: Deps, venue: Venue, user: str, typed: str, page: int = 0) -> Message:
    """The search ``typed`` asks for (``/hold free``'s text), page ``page``, in ``user``'s
    language."""
    locale = deps.locales.get(user)
    now = deps.now()
    style = dates.style_for(venue, now)  # a search in December for next October: its year
    quick = parse(typed[:MAX_TYPED], venue, now.astimezone(venue.tz).date())
    found = deps.engine.reads.search(venue.id, quick.search, now=now)
    if isinstance(found, Refused):
        reason = describe(found, venue.tz, locale, style=style)
        return Message(
            reason, [context(reason).to_dict(), context(text(locale, "free.usage")).to_dict()]
        )
    kind = quick.search.kind
    message = results(found, venue, kind, locale, style, typed=typed[:MAX_TYPED], page=page)
    if quick.unparsed:
        words = " / ".join(esc(w) for w in quick.unparsed)
        note = context(text(locale, "free.unparsed", words=words)).to_dict()
        message = Message(message.text, [*message.blocks[:1], note, *message.blocks[1:]])
    log.info("free.searched", extra={"venue": venue.id, "user": user, "action": "free"})
    return message


def search_command(deps: Deps, args: Args, typed: str) -> None:
    """``/hold free …`` (acknowledged already): the answer only to whoever asked."""
    venue = deps.venue(args.context)
    message = answer(deps, venue, args.body["user_id"], typed)
    args.respond(text=message.text, blocks=message.blocks, response_type="ephemeral")


def more_clicked(deps: Deps, args: Args) -> None:
    """The next page replaces the one clicked."""
    args.ack()
    asked = _page(args.body["actions"][0].get("value"))
    if asked is None:
        log.warning("free.bad_page", extra={"user": args.body["user"]["id"]})
        return
    typed, page = asked
    venue = deps.venue(args.context)
    message = answer(deps, venue, args.body["user"]["id"], typed, page)
    view = args.body.get("view")
    if view is None:
        args.respond(text=message.text, blocks=message.blocks, replace_original=True)
        return
    meta = Meta.load(view.get("private_metadata"))
    shown = found_modal(meta.locale, meta.dump(), message)
    args.client.views_update(view_id=view["id"], view=shown.to_dict())


def find_clicked(deps: Deps, args: Args) -> None:
    """App Home's "Find a slot": the search form."""
    args.ack()
    locale = deps.locales.get(args.body["user"]["id"])
    view = find_modal(locale, Meta(locale=locale).dump())
    args.client.views_open(trigger_id=args.body["trigger_id"], view=view.to_dict())


def find_submitted(deps: Deps, args: Args) -> None:
    """The search form: its answer takes the form's place (within the ack's 3 seconds: a
    search is one statement)."""
    values = args.body["view"]["state"]["values"]
    typed = ((values.get(ids.FIND_TEXT) or {}).get(ids.FIND_TEXT) or {}).get("value")
    user = args.body["user"]["id"]
    venue = deps.venue(args.context)
    typed = typed if isinstance(typed, str) else ""
    message = answer(deps, venue, user, typed)
    meta = Meta.load(args.body["view"].get("private_metadata"))
    view = found_modal(meta.locale, meta.dump(), message)
    args.ack(response_action="update", view=view.to_dict())


def hold_clicked(deps: Deps, args: Args) -> None:
    """A place's button: the hold form filled in with it. From inside the hold form (a
    refusal's alternatives) the new form is pushed on top, keeping what was typed."""
    args.ack()
    body = args.body
    place = chosen(body["actions"][0].get("value"))
    user = body["user"]["id"]
    if place is None:
        log.warning("free.bad_place", extra={"user": user})
        return
    venue = deps.venue(args.context)
    view = body.get("view") or {}
    if view.get("callback_id") == ids.HOLD_MODAL:  # a refusal's alternative: keep what was typed
        typed = read_form(view["state"]["values"])
        meta = Meta.load(view.get("private_metadata"))
        opened = args.client.views_push(
            trigger_id=body["trigger_id"], view=loading_modal().to_dict()
        )
    elif view:  # the search form's results
        typed = Form(salesperson=user)
        meta = Meta(locale=Meta.load(view.get("private_metadata")).locale)
        opened = args.client.views_push(
            trigger_id=body["trigger_id"], view=loading_modal().to_dict()
        )
    else:
        typed = Form(salesperson=user)
        channel = (body.get("container") or {}).get("channel_id") or (
            body.get("channel") or {}
        ).get("id")
        meta = Meta(
            locale=deps.locales.get(user), channel=channel, response_url=body.get("response_url")
        )
        opened = args.client.views_open(
            trigger_id=body["trigger_id"], view=loading_modal().to_dict()
        )
    loading = opened["view"]
    form = _filled(typed, place, user)
    deps.after(body, args.client, lambda: _fill(deps, args, venue, loading, form, meta))


def _filled(typed: Form, place: Chosen, user: str) -> Form:
    return Form(
        room_id=place.room_id,
        day=place.day,
        start_min=place.start_min,
        end_min=place.end_min % 1440,
        kind=place.kind,
        customer=typed.customer,
        salesperson=typed.salesperson or user,
        note=typed.note,
    )


def _fill(
    deps: Deps, args: Args, venue: Venue, loading: dict[str, Any], form: Form, meta: Meta
) -> None:
    user = args.body["user"]["id"]
    preview = current_preview(deps.engine, venue, form, user, meta.locale, deps.now())
    modal = hold_modal(venue, form, meta, preview=preview)
    deps.views.update(
        args.client, view_id=loading["id"], view=modal.to_dict(), hash=loading["hash"], stamp=0.0
    )


def _page(value: object) -> tuple[str, int] | None:
    """The search text and page a "next" button carries, read strictly."""
    if not isinstance(value, str) or len(value) > 2000:
        return None
    try:
        data = json.loads(value)
    except ValueError:
        return None
    typed, page = (data.get("q"), data.get("p")) if isinstance(data, dict) else (None, None)
    if not isinstance(typed, str) or type(page) is not int or not 0 < page <= MAX_PAGE:
        return None
    return typed, page
