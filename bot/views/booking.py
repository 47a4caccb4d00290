"""``/hold B-0012``: a booking (its enquiry) and every hold it has had, candidate dates and
the holds an edit replaced, oldest first, each with its state (a release's reason) and, while
tentative, its buttons; as ``osae enquiry show B-0012`` prints it."""

from __future__ import annotations

from datetime import datetime

from slack_sdk.models.blocks import Block

from bot import cards
from bot.blocks import MAX_MESSAGE_BLOCKS, context, dump, section
from bot.reasons import reason_name
from bot.texts import esc, text
from bot.texts.dates import PLAIN, DateStyle
from bot.texts.kinds import hold_kind
from bot.views.messages import Message
from core.booking import booking_number
from core.model import Hold, Outcome, Venue
from core.results import EnquiryView

MOST_SHOWN = 12  # holds drawn as cards (at most 3 blocks each, within a message's 50)


def booking_message(
    found: EnquiryView,
    venue: Venue,
    locale: str,
    viewer: str,
    *,
    style: DateStyle = PLAIN,
    now: datetime | None = None,
) -> Message:
    """Only to the one who asked (ephemeral): the contact to its salesperson and managers."""
    case, holds = found.enquiry, found.holds
    booking = booking_number(case.id)
    kind = hold_kind(holds[0], locale) if holds else esc(case.kind_id)
    head = text(
        locale,
        "booking.head",
        booking=booking,
        customer=esc(case.customer),
        kind=kind,
        salesperson=esc(case.salesperson),
    )
    blocks: list[Block] = [section(head), context(text(locale, "booking.count", count=len(holds)))]
    sees_contact = viewer == case.salesperson or venue.is_manager(viewer)
    for hold in holds[:MOST_SHOWN]:
        blocks += cards.card(
            hold,
            venue.tz,
            locale,
            notes=_why(hold, venue, locale),
            contact=sees_contact,
            style=style,
            now=now,
        )
    if len(holds) > MOST_SHOWN:
        more = text(locale, "booking.more", count=len(holds) - MOST_SHOWN, booking=booking)
        blocks.append(context(more))
    customer = esc(case.customer)
    said = text(locale, "booking.text", booking=booking, customer=customer, count=len(holds))
    return Message(said, dump(blocks[:MAX_MESSAGE_BLOCKS]))


def _why(hold: Hold, venue: Venue, locale: str) -> tuple[str, ...]:
    """A withdrawn hold's reason and note (the one asking sees them; nobody else does)."""
    if hold.outcome is not Outcome.WITHDRAWN or not hold.reason:
        return ()
    note = f" — {esc(hold.reason_note)}" if hold.reason_note else ""
    name = reason_name(venue, hold.reason, locale)
    return (text(locale, "release.done.reason", reason=esc(name), note=note),)
