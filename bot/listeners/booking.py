"""``/hold B-0012``: the booking and every hold it has had, only to the one who asked (the
command itself is ``listeners.commands``; the message is ``views.booking``)."""

from __future__ import annotations

import logging
import re

from slack_bolt import Args

from bot.deps import Deps
from bot.texts import dates, text
from bot.views.booking import booking_message
from core.booking import booking_id, booking_number
from core.results import Refused

log = logging.getLogger("osae.bot")

# ``B-0012``, ``b12``, ``Ｂ－００１２`` (casefolded): never a bare number, which the quick
# form reads (a day, guests, a time).
_WRITTEN = re.compile(r"[bｂ]\s*[-－]?\s*[0-9０-９]{1,12}")


def asked(word: str) -> int | None:
    """The enquiry id ``word`` (the command's first word, casefolded) names, if it is a
    booking number."""
    return booking_id(word) if _WRITTEN.fullmatch(word) else None


def show_booking(deps: Deps, args: Args, enquiry_id: int) -> None:
    user = args.body["user_id"]
    venue = deps.venue(args.context)
    locale = deps.locales.get(user)
    found = deps.engine.reads.enquiry(venue.id, enquiry_id)
    if isinstance(found, Refused):
        said = text(locale, "booking.not_found", booking=booking_number(enquiry_id))
        args.respond(text=said, response_type="ephemeral")
        outcome = found.code.value
    else:
        now = deps.now()
        style = dates.style_for(venue, now)
        message = booking_message(found, venue, locale, user, style=style, now=now)
        args.respond(text=message.text, blocks=message.blocks, response_type="ephemeral")
        outcome = "shown"
    log.info(
        "booking.shown",
        extra={"venue": venue.id, "user": user, "action": "booking", "outcome": outcome},
    )
