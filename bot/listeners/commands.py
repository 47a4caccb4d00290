"""``/hold``: open the modal (prefilled from a quick form), ``/hold list``, ``/hold help``,
and ``/hold cancel 12`` (a manager's dialog; its submission is ``listeners.cancel``)."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import App, Args

from bot import ids, strict
from bot.deps import Deps
from bot.form import Form
from bot.metadata import Meta
from bot.preview import current_preview
from bot.quickform import QuickForm, parse
from bot.texts import text
from bot.texts.refusals import describe
from bot.views.dialogs import cancel_modal
from bot.views.hold_modal import hold_modal, loading_modal, quick_notes
from bot.views.messages import help_message, listing
from core.model import LIVE, Hold, Venue
from core.results import Code, Refused

HELP_WORDS = {"help", "ヘルプ", "使い方", "?", "？"}
LIST_WORDS = {"list", "一覧", "リスト", "ls"}
CANCEL_WORDS = {"cancel", "取消", "取り消し", "取消し"}

log = logging.getLogger("osae.bot")


def register(app: App, deps: Deps) -> None:
    app.command(ids.COMMAND)(deps.listener(hold_command))


def hold_command(deps: Deps, args: Args) -> None:
    body = args.body
    typed = (body.get("text") or "").strip()
    word = typed.split(maxsplit=1)[0].casefold() if typed else ""
    if word in HELP_WORDS:
        message = help_message(deps.locales.get(body["user_id"]))
        args.ack(text=message.text, blocks=message.blocks)
    elif word in LIST_WORDS:
        args.ack()
        deps.after(body, args.client, lambda: my_holds(deps, args))
    elif word in CANCEL_WORDS:
        args.ack()
        rest = typed.split(maxsplit=1)[1:]  # what follows the word, if anything
        ask_to_cancel(deps, args, rest[0].strip() if rest else "")
    else:
        args.ack()
        open_form(deps, args, typed)


def open_form(deps: Deps, args: Args, typed: str) -> None:
    """A loading modal at once (the trigger lasts 3 s), then the form built from the engine."""
    venue = deps.venue(args.context)  # before opening: a workspace without a venue is told
    opened = args.client.views_open(
        trigger_id=args.body["trigger_id"], view=loading_modal().to_dict()
    )
    view = opened["view"]
    deps.after(args.body, args.client, lambda: fill_form(deps, args, venue, view, typed))


def fill_form(deps: Deps, args: Args, venue: Venue, view: dict[str, Any], typed: str) -> None:
    body = args.body
    user = body["user_id"]
    locale = deps.locales.get(user)
    today = deps.now().astimezone(venue.tz).date()
    rooms, kinds = list(venue.rooms.values()), venue.policy.kinds
    quick = parse(typed, rooms, today, kinds) if typed else QuickForm()
    form = Form.from_quick(quick, salesperson=user, max_items=venue.policy.max_items)
    meta = Meta(
        locale=locale,
        channel=body.get("channel_id"),
        response_url=body.get("response_url"),
        notes=quick_notes(quick, locale, venue.policy.max_items, kinds),
        rows=tuple(row.key for row in form.rows),
    )
    preview = current_preview(deps.engine, venue, form, user, locale, deps.now())
    modal = hold_modal(venue, form, meta, preview=preview)
    deps.views.update(
        args.client, view_id=view["id"], view=modal.to_dict(), hash=view["hash"], stamp=0.0
    )
    log.info(
        "hold.form_opened",
        extra={"venue": venue.id, "user": user, "action": "open", "quick": bool(typed)},
    )


def my_holds(deps: Deps, args: Args) -> None:
    """``/hold list``: my live holds from today on, soonest first, only to me."""
    user = args.body["user_id"]
    venue = deps.venue(args.context)
    locale = deps.locales.get(user)
    today = deps.now().astimezone(venue.tz).date()
    found = deps.engine.holds(venue.id, salesperson=user, statuses=sorted(LIVE))
    holds = [h for h in found if h.local_date >= today]
    holds.sort(key=lambda h: (h.start_at, h.id))
    message = listing(holds, venue.tz, locale)
    args.respond(text=message.text, blocks=message.blocks, response_type="ephemeral")


def ask_to_cancel(deps: Deps, args: Args, argument: str) -> None:
    """Open the dialog for a hold that exists, to a manager; others are told why not."""
    venue = deps.venue(args.context)
    user = args.body["user_id"]
    locale = deps.locales.get(user)
    number = strict.number(argument.removeprefix("#").removeprefix("＃"))
    if number is None:  # not a number (² and ¹² are not either)
        args.respond(text=text(locale, "cancel.usage"), response_type="ephemeral")
        return
    found: Hold | Refused = (
        deps.engine.hold(venue.id, number)
        if strict.is_hold_id(number)
        else Refused(Code.HOLD_NOT_FOUND, detail=str(number)[:24])  # beyond the id column
    )
    if not isinstance(found, Refused) and not venue.is_manager(user):
        found = Refused(Code.NOT_AUTHORIZED, hold=found, detail="manager")  # spare a dialog
    if isinstance(found, Refused):
        args.respond(text=describe(found, venue.tz, locale), response_type="ephemeral")
        return
    meta = Meta(locale=locale, hold_id=found.id, response_url=args.body.get("response_url"))
    view = cancel_modal(found, venue.tz, meta)
    args.client.views_open(trigger_id=args.body["trigger_id"], view=view.to_dict())
