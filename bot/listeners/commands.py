"""``/hold``: open the modal (prefilled from a quick form), a day's rooms (``/hold 5/15``),
``/hold list``, ``/hold help``, a booking (``/hold B-0012``: ``listeners.booking``), and
``/hold cancel 12`` (a manager's dialog; its submission
is ``listeners.cancel``). The day and the list are ``listeners.ledger``; ``/hold 台帳 10/2``
(the diary picture) is ``listeners.diary``."""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

from slack_bolt import App, Args

from bot import diary_asked, ids, strict, venue_names
from bot.deps import Deps
from bot.errors import UserError
from bot.form import Form
from bot.listeners import booking, diary, free, ledger
from bot.metadata import Meta
from bot.preview import current_preview
from bot.quickform import QuickForm, parse
from bot.texts import dates, text
from bot.texts.refusals import describe
from bot.views.dialogs import cancel_modal
from bot.views.hold_modal import hold_modal, loading_modal, quick_notes
from bot.views.house import house_notes
from bot.views.messages import help_message, weekday_question
from core.model import Hold, Venue
from core.results import Code, Refused

HELP_WORDS = {"help", "ヘルプ", "使い方", "?", "？"}
LIST_WORDS = {"list", "一覧", "リスト", "ls"}
CANCEL_WORDS = {"cancel", "取消", "取り消し", "取消し"}
FREE_WORDS = {"free", "空き", "空き検索", "あき", "search", "find"}

log = logging.getLogger("osae.bot")


def register(app: App, deps: Deps) -> None:
    app.command(ids.COMMAND)(deps.listener(hold_command))


def hold_command(deps: Deps, args: Args) -> None:
    body = args.body
    typed = strict.command_text(body.get("text") or "").strip()
    word = typed.split(maxsplit=1)[0].casefold() if typed else ""
    if word in HELP_WORDS:
        message = help_message(deps.locales.get(body["user_id"]), _venue_or_none(deps, args))
        args.ack(text=message.text, blocks=message.blocks)
    elif word in LIST_WORDS:
        args.ack()
        rest = typed.split(maxsplit=1)[1:]  # the filters, if any
        deps.after(body, args.client, lambda: ledger.list_holds(deps, args, "".join(rest)))
    elif word in FREE_WORDS:
        args.ack()
        rest = typed.split(maxsplit=1)[1:]
        deps.after(body, args.client, lambda: free.search_command(deps, args, "".join(rest)))
    elif word in diary_asked.WORDS:  # the diary picture: acks, then draws after the ack
        rest = typed.split(maxsplit=1)[1:]
        diary.diary_command(deps, args, "".join(rest))
    elif (enquiry_id := booking.asked(word)) is not None:  # /hold B-0012: the booking
        args.ack()
        deps.after(body, args.client, lambda: booking.show_booking(deps, args, enquiry_id))
    elif word in CANCEL_WORDS:
        args.ack()
        rest = typed.split(maxsplit=1)[1:]  # what follows the word, if anything
        ask_to_cancel(deps, args, rest[0].strip() if rest else "")
    else:
        args.ack()
        open_form(deps, args, typed)


def _venue_or_none(deps: Deps, args: Args) -> Venue | None:
    """The workspace's venue for help's examples; None where none is linked or loaded: help
    still answers (neutral words in its examples)."""
    try:
        return deps.venue(args.context)
    except UserError:
        return None


def open_form(deps: Deps, args: Args, typed: str) -> None:
    """A loading modal at once (the trigger lasts 3 s), then the form built from the engine;
    a date alone (with room words or not) shows that day's rooms instead."""
    venue = deps.venue(args.context)  # before opening: a workspace without a venue is told
    now = deps.now()
    today = now.astimezone(venue.tz).date()
    kinds = venue.policy.kinds
    quick = parse(typed, list(venue.rooms.values()), today, kinds) if typed else QuickForm()
    if quick.weekday_mismatch and quick.day and quick.weekday is not None:
        ask_which_day(deps, args, venue, quick.day, quick.weekday)
        return
    if typed and ledger.day_asked(quick):
        deps.after(args.body, args.client, lambda: ledger.show_day(deps, args, venue, quick))
        return
    opened = args.client.views_open(
        trigger_id=args.body["trigger_id"], view=loading_modal().to_dict()
    )
    view = opened["view"]
    deps.after(args.body, args.client, lambda: fill_form(deps, args, venue, view, typed, quick))


def ask_which_day(deps: Deps, args: Args, venue: Venue, day: date, written: int) -> None:
    """``/hold 5/16(土)`` when 5/16 is a Sunday: ask, open no form, hold nothing."""
    user = args.body["user_id"]
    locale = deps.locales.get(user)
    now = deps.now()
    today = now.astimezone(venue.tz).date()
    style = dates.style_for(venue, now)
    asked = weekday_question(day, written, today, locale, style=style)
    args.respond(text=asked, response_type="ephemeral")
    log.info(
        "hold.weekday_mismatch",
        extra={"venue": venue.id, "user": user, "action": "open", "outcome": "asked"},
    )


def fill_form(
    deps: Deps,
    args: Args,
    venue: Venue,
    view: dict[str, Any],
    typed: str,
    quick: QuickForm | None = None,
) -> None:
    """The form from what ``typed`` said (``quick``: read already, as it was when opened)."""
    body = args.body
    user = body["user_id"]
    locale = deps.locales.get(user)
    kinds = venue.policy.kinds
    if quick is None:
        today = deps.now().astimezone(venue.tz).date()
        quick = parse(typed, list(venue.rooms.values()), today, kinds) if typed else QuickForm()
    form = Form.from_quick(quick, salesperson=user, max_items=venue.policy.max_items)
    meta = Meta(
        locale=locale,
        channel=body.get("channel_id"),
        response_url=body.get("response_url"),
        notes=quick_notes(quick, locale, venue.policy.max_items, kinds)
        + house_notes(quick.house, venue.is_manager(user), locale),
        rows=tuple(row.key for row in form.rows),
        venues=venue_names.choices_of(deps, args.context),  # a hotel group's: which venue
        house=venue.is_manager(user),  # offers 社内押さえ; the engine checks who submits it
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
        deps.engine.reads.hold(venue.id, number)
        if strict.is_hold_id(number)
        else Refused(Code.HOLD_NOT_FOUND, detail=str(number)[:24])  # beyond the id column
    )
    if not isinstance(found, Refused) and not venue.is_manager(user):
        found = Refused(Code.NOT_AUTHORIZED, hold=found, detail="manager")  # spare a dialog
    if isinstance(found, Refused):
        args.respond(
            text=describe(found, venue.tz, locale, style=dates.style_for(venue, deps.now())),
            response_type="ephemeral",
        )
        return
    meta = Meta(locale=locale, hold_id=found.id, response_url=args.body.get("response_url"))
    view = cancel_modal(found, venue.tz, meta, style=dates.style_for(venue, deps.now()))
    args.client.views_open(trigger_id=args.body["trigger_id"], view=view.to_dict())
