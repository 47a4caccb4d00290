"""A calendar feed (RFC 5545, by the ``icalendar`` library): each room of each live hold one
event, in the venue's time zone (its VTIMEZONE included), never the contact."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, timedelta

from icalendar import Alarm, Calendar, Event, Timezone

from core.booking import booking_number
from core.model import Hold, HoldItem, Status, Venue

PRODID = "-//osae//ranked tentative holds//JA"
# The VTIMEZONE covers the years a feed shows: what the venue booked, and its horizon.
_ZONE_YEARS = 3

Words = Callable[[Hold], str]  # a hold's state as the caller words it (1番手, 本予約 ...)


def render(holds: Iterable[Hold], venue: Venue, name: str, state: Words, *, today: date) -> bytes:
    """The feed's bytes; ``name`` is the calendar's name as a calendar app lists it."""
    return assemble(envelope(venue, name, today), [events(h, venue, state) for h in holds])


def envelope(venue: Venue, name: str, today: date) -> tuple[bytes, bytes]:
    """The calendar around its events: its properties and VTIMEZONE, and its end. The zone's
    rules cover a few years either side of ``today`` (what a feed shows)."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", venue.timezone)
    span = timedelta(days=365 * _ZONE_YEARS)
    zone = Timezone.from_tzid(venue.timezone, first_date=today - span, last_date=today + span)
    cal.add_component(zone)
    whole = bytes(cal.to_ical())
    end = b"END:VCALENDAR\r\n"
    return whole[: -len(end)], end


def events(hold: Hold, venue: Venue, state: Words) -> bytes:
    """Every room of a hold as a VEVENT, as the feed's bytes."""
    words = state(hold)
    return b"".join(
        bytes(_event(hold, n, item, venue, words).to_ical()) for n, item in enumerate(hold.items)
    )


def assemble(around: tuple[bytes, bytes], parts: Iterable[bytes]) -> bytes:
    head, end = around
    return b"".join((head, *parts, end))


def uid(hold: Hold, n: int, venue: Venue) -> str:
    """Stable for the life of the item: the hold and the item's place in it."""
    return f"hold-{hold.id}-{n + 1}@{venue.id}.osae"


def _event(hold: Hold, n: int, item: HoldItem, venue: Venue, words: str) -> Event:
    tz = venue.tz
    event = Event()
    event.add("uid", uid(hold, n, venue))
    event.add("dtstamp", hold.updated_at)
    event.add("last-modified", hold.updated_at)
    event.add("sequence", hold.version)
    event.add("dtstart", item.start_at.astimezone(tz))
    event.add("dtend", item.end_at.astimezone(tz))
    event.add("summary", f"{item.room_name} {hold.customer}（{words}）")
    event.add("status", "CONFIRMED" if hold.status is Status.CONFIRMED else "TENTATIVE")
    event.add("transp", "OPAQUE")
    event.add("location", item.room_name)
    event.add("description", _description(hold))
    if hold.is_first and hold.expires_at is not None:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"{hold.customer}（{words}）の返事の期限")
        alarm.add("trigger", hold.expires_at, parameters={"VALUE": "DATE-TIME"})
        event.add_component(alarm)
    return event


def _description(hold: Hold) -> str:
    """Kind, guests, salesperson, booking number, note: never the contact."""
    lines = [hold.kind_name or hold.kind_id, f"予約番号 {booking_number(hold.enquiry_id)}"]
    if hold.guests:
        lines.append(f"{hold.guests}名")
    lines.append(f"担当 {hold.salesperson}")
    if hold.note:
        lines.append(hold.note)
    return "\n".join(lines)
