"""The team's ledger in Slack: ``/hold 5/15`` (``/hold 5/15 鳳凰``) shows that day's rooms to
whoever asks, each with a button that opens the form on it; ``/hold list`` lists a manager's
team (``mine``, ``<@U…>``, ``5/15``) or a salesperson's own holds. Both answer only to the
one who asked."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date
from typing import Any

from slack_bolt import App, Args

from bot import ids, strict
from bot.deps import Deps
from bot.form import Form
from bot.metadata import Meta
from bot.preview import current_preview
from bot.quickform import QuickForm, parse
from bot.rooms import fold
from bot.texts import dates, esc, text
from bot.views.hold_modal import hold_modal, loading_modal
from bot.views.ledger import day_message, team_listing
from bot.views.messages import listing
from core.model import LIVE, Venue

MINE_WORDS = {"mine", "me", "my", "自分", "じぶん", "私", "わたし"}

log = logging.getLogger("osae.bot")


def register(app: App, deps: Deps) -> None:
    app.block_action(ids.HOLD_FROM_DAY)(deps.listener(hold_from_day))


def hold_from_day(deps: Deps, args: Args) -> None:
    """A day's room button: the form opens on that room and date (the trigger lasts 3 s, so
    a loading modal first). A value that is not a room of this venue and a date opens none."""
    args.ack()
    body = args.body
    venue = deps.venue(args.context)
    room_id, _, typed_day = str(body["actions"][0].get("value") or "").partition(" ")
    room, day = venue.rooms.get(room_id), strict.iso_date(typed_day)
    if room is None or not room.active or day is None:
        log.warning("ledger.bad_room_button", extra={"venue": venue.id, "action": "hold_room"})
        return
    opened = args.client.views_open(trigger_id=body["trigger_id"], view=loading_modal().to_dict())
    view = opened["view"]
    deps.after(body, args.client, lambda: _fill(deps, args, venue, view, room.id, day))


def _fill(
    deps: Deps, args: Args, venue: Venue, view: dict[str, Any], room_id: str, day: date
) -> None:
    body = args.body
    user = body["user"]["id"]
    locale = deps.locales.get(user)
    form = Form(room_id=room_id, day=day, salesperson=user)
    channel = (body.get("channel") or {}).get("id")
    meta = Meta(locale=locale, channel=channel, response_url=body.get("response_url"))
    preview = current_preview(deps.engine, venue, form, user, locale, deps.now())
    modal = hold_modal(venue, form, meta, preview=preview)
    deps.views.update(
        args.client, view_id=view["id"], view=modal.to_dict(), hash=view["hash"], stamp=0.0
    )
    log.info("hold.form_opened", extra={"venue": venue.id, "user": user, "action": "open_day"})


def day_asked(quick: QuickForm) -> bool:
    """A date and at most room words: the person asks what that day looks like, not to hold."""
    asked_more = (quick.start_min, quick.end_min, quick.kind, quick.customer, quick.guests)
    more_rooms = quick.also or quick.bad_items  # "+ チャペル": a package is being typed
    return (
        quick.day is not None
        and all(v is None for v in asked_more)
        and not quick.unparsed
        and not quick.unknown_kinds  # "忘年会": a hold is being typed, its kind to be chosen
        and not more_rooms
    )


def rooms_asked(quick: QuickForm, venue: Venue) -> set[str] | None:
    """The room typed with the rooms it divides into (鳳凰: 鳳凰の間, 鳳凰A, 鳳凰B), or every
    room a typed word matched; None (every room) when no room was named."""
    room = venue.rooms.get(quick.room_id or "")
    if room is not None:
        return {room.id} | {r.id for r in venue.rooms.values() if r.parts < room.parts}
    names = {name for _, found in quick.ambiguous for name in found}
    if not names:
        return None
    return {r.id for r in venue.rooms.values() if r.name in names}


def show_day(deps: Deps, args: Args, venue: Venue, quick: QuickForm) -> None:
    assert quick.day is not None  # noqa: S101 - day_asked said so
    user = args.body["user_id"]
    locale = deps.locales.get(user)
    ledger = deps.engine.reads.day(venue.id, quick.day, rooms=rooms_asked(quick, venue))
    now = deps.now()
    message = day_message(ledger, venue.tz, locale, now, style=dates.style_for(venue, now))
    args.respond(text=message.text, blocks=message.blocks, response_type="ephemeral")
    log.info("ledger.day_shown", extra={"venue": venue.id, "user": user, "action": "day"})


@dataclass(frozen=True)
class ListFilters:
    person: str | None = None
    on: date | None = None
    unread: str | None = None  # the first word not understood, as typed


def read_filters(words: list[str], user: str, venue: Venue, today: date) -> ListFilters:
    person: str | None = None
    on: date | None = None
    for word in words:
        mentioned = strict.mentioned_user(word)
        if fold(word) in MINE_WORDS:
            person = user
        elif mentioned is not None:
            person = mentioned
        elif (day := _day(word, venue, today)) is not None:
            on = day
        else:
            return ListFilters(unread=word)
    return ListFilters(person, on)


def _day(word: str, venue: Venue, today: date) -> date | None:
    quick = parse(word, list(venue.rooms.values()), today)
    return quick.day if day_asked(quick) and quick.room_id is None else None


def list_holds(deps: Deps, args: Args, rest: str) -> None:
    """Live holds from today on (or of one date), soonest first: the team's to a manager,
    one's own to anyone else; a filter that cannot be read is said back with what works."""
    user = args.body["user_id"]
    venue = deps.venue(args.context)
    locale = deps.locales.get(user)
    today = deps.now().astimezone(venue.tz).date()
    filters = read_filters(rest.split(), user, venue, today)
    if filters.unread is not None:
        answer = text(locale, "list.usage", word=esc(filters.unread[:80]))
        args.respond(text=answer, response_type="ephemeral")
        return
    manager = venue.is_manager(user)
    if not manager and filters.person not in (None, user):
        args.respond(text=text(locale, "list.managers_only"), response_type="ephemeral")
        return
    person = filters.person if manager else user
    since = None if filters.on is not None else today  # past live holds stay out of the cap
    found = deps.engine.reads.holds(
        venue.id, on=filters.on, salesperson=person, statuses=sorted(LIVE), since=since
    )
    holds = sorted(found, key=lambda h: (h.start_at, h.id))
    now = deps.now()
    style = dates.style_for(venue, now)
    if manager:
        message = team_listing(holds, venue.tz, locale, person=person, on=filters.on, style=style)
    else:
        message = listing(holds, venue.tz, locale, style=style, now=now)
    args.respond(text=message.text, blocks=message.blocks, response_type="ephemeral")
