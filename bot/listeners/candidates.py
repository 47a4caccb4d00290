""" "別の候補日 / Another date" on a hold's card or in App Home: the /hold form again, filled
with the hold's customer, kind, salesperson, rooms and times, for a second candidate date of
its enquiry. Its submission is the form's own (``listeners.modal``), with the enquiry id.

The engine decides whether the enquiry may take another date; it is asked on the click, so
an enquiry already at its limit (or decided) is told at once rather than after a whole form.
"""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

from slack_bolt import App, Args

from bot import ids, strict
from bot.deps import Deps
from bot.form import Form, Row
from bot.logs import log_action
from bot.metadata import Meta, Source
from bot.replies import tell
from bot.texts import dates, esc, text
from bot.texts.refusals import describe
from bot.views.hold_modal import hold_modal
from core.booking import booking_number
from core.model import Hold, HoldRequest, ItemRequest, Venue
from core.results import Code, Refused

# What the engine's answer for the enquiry itself can be: said on the click. Any other answer
# is about the hold's own date, which the new candidate does not keep.
_ABOUT_THE_ENQUIRY = {
    Code.TOO_MANY_CANDIDATES,
    Code.ENQUIRY_CONFIRMED,
    Code.ENQUIRY_NOT_FOUND,
    Code.NOT_AUTHORIZED,
}


def register(app: App, deps: Deps) -> None:
    app.block_action(ids.ANOTHER_DATE)(deps.listener(another_date))


def another_date(deps: Deps, args: Args) -> None:
    args.ack()
    body, client = args.body, args.client
    venue = deps.venue(args.context)
    user = body["user"]["id"]
    locale = deps.locales.get(user)
    raw = body["actions"][0].get("value")
    hold_id = strict.hold_id(raw)
    found: Hold | Refused = (
        deps.engine.reads.hold(venue.id, hold_id)
        if hold_id is not None
        else Refused(Code.HOLD_NOT_FOUND, detail=str(raw)[:24])
    )
    if not isinstance(found, Refused):
        found = _may_take_another(deps, venue, found, user) or found
    source = Source.of(body)
    if isinstance(found, Refused):
        log_action("another_date", venue.id, user, hold_id, found.code.value)
        tell(
            client,
            user,
            describe(found, venue.tz, locale, style=dates.style_for(venue, deps.now())),
            locale,
            response_url=body.get("response_url"),
            trigger_id=None if source.is_message else body.get("trigger_id"),
        )
        return
    meta = Meta(
        locale=locale,
        channel=source.channel if source.is_message and not source.ephemeral else None,
        response_url=body.get("response_url"),
        notes=(
            text(
                locale,
                "modal.another_date",
                enquiry=booking_number(found.enquiry_id),
                customer=esc(found.customer),
                hold=found.id,
            ),
        ),
        rows=tuple(range(1, len(found.items))),
        enquiry_id=found.enquiry_id,
    )
    form = same_rooms(found, venue.tz)
    view = hold_modal(venue, form, meta, preview=text(locale, "preview.hint"))
    client.views_open(trigger_id=body["trigger_id"], view=view.to_dict())
    log_action("another_date", venue.id, user, found.id, "opened")


def same_rooms(hold: Hold, tz: ZoneInfo) -> Form:
    """The form for another date of ``hold``: its people, kind, rooms and clock times."""
    clocks = [(_clock(item.start_at, tz), _clock(item.end_at, tz)) for item in hold.items]
    first, *more = hold.items
    return Form(
        room_id=first.room_id,
        start_min=clocks[0][0],
        end_min=clocks[0][1],
        kind=hold.kind_id,  # the venue's kind (二次会), which the enquiry keeps
        customer=hold.customer,
        salesperson=hold.salesperson,
        rows=tuple(Row(key, item.room_id, *clocks[key]) for key, item in enumerate(more, start=1)),
        enquiry_id=hold.enquiry_id,
    )


def _may_take_another(deps: Deps, venue: Venue, hold: Hold, user: str) -> Refused | None:
    """The engine's read-only answer for the enquiry, asked with the hold's own rooms."""
    tz = venue.tz
    midnight = datetime.combine(hold.local_date, time(), tzinfo=tz)
    minutes = [
        (_since(item.start_at, midnight), _since(item.end_at, midnight)) for item in hold.items
    ]
    probe = HoldRequest(
        room_id=hold.items[0].room_id,
        local_date=hold.local_date,
        start_min=minutes[0][0],
        end_min=minutes[0][1],
        kind="",
        customer="",
        salesperson="",
        creator=user,
        also=tuple(
            ItemRequest(item.room_id, *minutes[i]) for i, item in enumerate(hold.items) if i
        ),
        enquiry_id=hold.enquiry_id,
    )
    answer = deps.engine.writes.preview(venue.id, probe, now=deps.now())
    if isinstance(answer, Refused) and answer.code in _ABOUT_THE_ENQUIRY:
        return answer
    return None


def _clock(moment: datetime, tz: ZoneInfo) -> int:
    local = moment.astimezone(tz)
    return local.hour * 60 + local.minute


def _since(moment: datetime, midnight: datetime) -> int:
    return int((moment - midnight).total_seconds() // 60)
