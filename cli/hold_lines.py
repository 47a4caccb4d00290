"""The lines `osae hold ...` prints for a person (issue 30): each hold as its Slack card writes
it (dates with their year when not this one, 曜日 and 六曜, 翌 past midnight; its state; its
salesperson by name), what a decision did and to whom else, a hold's trail, and when the
notices of a write made with a future ``--now`` will go. Words from ``bot.texts``; the
``--json`` answers are the commands' own and do not change here."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from bot import cards
from bot.texts import CATALOGS, dates, lang, text
from bot.texts.dates import DateStyle
from bot.texts.kinds import status_text
from cli.context import locale, now_of
from core.events import SYSTEM, AuditEvent
from core.model import Hold, Status, Venue

# `hold list --status`: what each word keeps (``live``: what still holds a room)
STATUSES: dict[str, tuple[Status, ...] | None] = {
    "live": (Status.TENTATIVE, Status.CONFIRMED),
    "all": None,
    **{s.value: (s,) for s in Status},
}


def style_of(args: argparse.Namespace, venue: Venue) -> DateStyle:
    """How this command's reader sees dates: the venue's today (``--now``'s) and 六曜."""
    return dates.style_for(venue, now_of(args, venue.tz))


def line(hold: Hold, venue: Venue, style: DateStyle) -> str:
    """``B-0002 #2 鳳凰の間 2027/2/5(金・大安) 11:00〜15:00 佐藤様（婚礼）``, as on its card:
    the booking number first, as wherever staff see a hold."""
    return cards.line(hold, venue.tz, locale(), style=style)


def ledger_line(hold: Hold, venue: Venue, style: DateStyle | None = None) -> str:
    """A hold, its state as its card says it, and its salesperson (by name once printed)."""
    style = style or dates.style_for(venue, datetime.now(UTC))
    state = cards.state(hold, venue.tz, locale(), style=style)
    if hold.house:  # 社内押さえ: held with no deadline, or what became of it
        state = text(locale(), "house.tag") + (
            "" if hold.rank else f"・{status_text(hold, locale())}"
        )
    by = text(locale(), "term.by", who=f"<@{hold.salesperson}>")
    return f"{line(hold, venue, style)}  [{state}]  {by}"


def decided(action: str, hold: Hold, venue: Venue, style: DateStyle) -> list[str]:
    """What ``action`` did to ``hold``; an extension or a nudge adds the new deadline."""
    said = [text(locale(), f"term.did.{action}", hold=line(hold, venue, style))]
    if action in ("extend", "nudge") and hold.expires_at:
        deadline = dates.deadline(hold.expires_at, venue.tz, locale(), style=style)
        said.append(text(locale(), "term.new_deadline", deadline=deadline))
    return said


def moved(
    name: str, holds: Sequence[Hold], venue: Venue, style: DateStyle, *, but: Sequence[Hold] = ()
) -> list[str]:
    """The other holds a write moved: ``released`` (but the enquiry's other dates, told as
    ``candidates``), ``replaced`` (an edit's old hold), ``promoted``, ``notified``."""
    skipped = {h.id for h in but}
    return [
        text(locale(), f"term.moved.{name}", hold=line(h, venue, style))
        for h in holds
        if h.id not in skipped
    ]


def trail(events: Sequence[AuditEvent], venue: Venue, style: DateStyle) -> list[str]:
    """A hold's history: when, what (in words), who (by name)."""
    return [text(locale(), "term.trail")] + [
        text(
            locale(),
            "term.trail.line",
            at=dates.when(e.at, venue.tz, locale(), style=style),
            action=word(f"action.{e.action}", str(e.action)),
            actor=text(locale(), "actor.system") if e.actor == SYSTEM else f"<@{e.actor}>",
        )
        for e in events
    ]


def version(hold: Hold) -> str:
    """The version `hold edit --version` needs."""
    return text(locale(), "term.version", id=hold.id, version=hold.version)


def notices_later(args: argparse.Namespace, venue: Venue) -> list[str]:
    """A write made at a ``--now`` later than the real clock: its notices are due then, and
    the outbox sends nothing before its time; say when, rather than leave them silent."""
    given = now_of(args, venue.tz)
    if given - datetime.now(UTC) < timedelta(seconds=30):
        return []
    style = dates.style_for(venue, datetime.now(UTC))
    return [
        text(
            locale(), "term.notices_later", when=dates.when(given, venue.tz, locale(), style=style)
        )
    ]


def word(key: str, fallback: str) -> str:
    """A catalog word, or ``fallback`` for an action added after this catalog was written."""
    return CATALOGS[lang(locale())].get(key, fallback)


def listed(ids: Sequence[int]) -> str:
    return ", ".join(f"#{i}" for i in ids) or text(locale(), "term.none")


def carried(hold: Hold) -> list[str]:
    """Guests, contact and note under a shown hold (the terminal is its operator's)."""
    said = [
        ("field.guests", text(locale(), "guests", count=hold.guests) if hold.guests else ""),
        ("field.contact", hold.contact),
        ("field.note", hold.note),
    ]
    return [f"  {text(locale(), key)}: {value}" for key, value in said if value]
