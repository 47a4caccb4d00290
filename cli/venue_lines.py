"""What `osae venue show` prints for a person: everything the venue file set (rooms with their
parts, capacity and turnover; the policy; slots; kinds; sources; staff; managers and where its
cards go), in the terminal's language; the people by name."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from bot.texts import dates, text
from bot.texts.refusals import ordinal
from cli.context import locale
from core.model import Kind, Room, Venue


def shown(venue: Venue, rooms: list[Room]) -> list[str]:
    """The venue's head line, its rooms, its policy, slots, kinds, sources and staff."""
    loc = locale()
    lines = [text(loc, "term.venue.head", id=venue.id, name=venue.name, timezone=venue.timezone)]
    lines.append(text(loc, "term.venue.rooms"))
    lines += [_room(room) for room in rooms]
    lines += policy(venue)
    slots = [
        f"{s.name} {dates.time_range(*_span(s.start_min, s.end_min, venue), venue.tz, loc)}"
        for s in venue.slots
    ]
    lines.append(text(loc, "term.venue.slots", slots=_listed(slots)))
    kinds = [f"{k.id}={k.name}" for k in venue.policy.kinds]
    lines.append(text(loc, "term.venue.kinds", kinds=_listed(kinds)))
    sources = [f"{code}={name}" for code, name in venue.policy.sources]
    lines.append(text(loc, "term.venue.sources", sources=_listed(sources)))
    staff = [f"{name} ({user})" for user, name in sorted(venue.policy.staff.items())]
    lines.append(text(loc, "term.venue.staff", staff=_listed(staff)))
    return lines


def _room(room: Room) -> str:
    capacity = room.capacity or text(locale(), "term.venue.capacity_unset")
    return text(
        locale(),
        "term.venue.room",
        id=room.id,
        name=room.name,
        parts=",".join(sorted(room.parts)),
        capacity=capacity,
        turnover=room.turnover_min,
    )


def policy(venue: Venue) -> list[str]:
    """The venue's ``[policy]``, in words."""
    loc, p = locale(), venue.policy
    days = text(loc, "term.venue.joiner").join(
        text(loc, "term.venue.kind_days", name=text(loc, f"kind.{kind.value}"), n=n)
        for kind, n in sorted(p.hold_days.items(), key=lambda item: item[0] is not Kind.WEDDING)
    )
    nudge = text(loc, "term.venue.days_n", n=p.nudge_days) if p.nudge_days else _off()
    deadline_time = (
        f"{p.deadline_time // 60}:{p.deadline_time % 60:02d}"
        if p.deadline_time is not None
        else text(loc, "term.venue.counted")
    )
    closed = ", ".join(dates.weekday_name(d, loc) for d in sorted(p.closed_weekdays))
    return [
        text(
            loc,
            "term.venue.holds",
            days=days,
            max_rank_text=ordinal(p.max_rank, loc),
            extensions=p.max_extensions,
            nudge=nudge,
        ),
        text(
            loc,
            "term.venue.dates",
            horizon=p.horizon_days,
            priority=_listed([priority_day(e) for e in p.priority_days]),
            window=p.banquet_open_days,
        ),
        text(loc, "term.venue.deadline", time=deadline_time, closed=closed or _none()),
        text(
            loc,
            "term.venue.limits",
            items=p.max_items,
            candidates=p.max_candidates,
            notify=text(loc, "term.venue.yes" if p.notify_first_of_second else "term.venue.no"),
            rokuyo=text(loc, "term.venue.shown" if p.show_rokuyo else "term.venue.hidden"),
        ),
    ]


def priority_day(entry: str) -> str:
    """A ``priority_days`` entry in words: ``土日``, ``祝日（JP）``, a date as staff read it."""
    if entry in ("weekends", "saturdays", "sundays"):
        return text(locale(), f"day.{entry}")
    if entry.endswith("_holidays"):
        return text(locale(), "day.holidays", country=entry.split("_", maxsplit=1)[0].upper())
    try:
        return dates.day(date.fromisoformat(entry), locale(), year=True)
    except ValueError:
        return entry


def where(facts: dict[str, Any]) -> str:
    """The sales channel, language, managers (by name once printed) and workspace."""
    managers = [f"<@{m}>" for m in facts["managers"]]
    return text(
        locale(),
        "term.venue.where",
        channel=facts["sales_channel"] or "-",
        language=facts["language"] or "-",
        managers=_listed(managers),
        workspace=facts["workspace"] or "-",
    )


def _span(start: int, end: int, venue: Venue) -> tuple[datetime, datetime]:
    """A slot's minutes as two moments of one day, so 翌 shows past midnight."""
    base = datetime(2000, 1, 3, tzinfo=venue.tz)
    return base + timedelta(minutes=start), base + timedelta(minutes=end)


def _off() -> str:
    return text(locale(), "term.venue.off")


def _none() -> str:
    return text(locale(), "term.venue.none")


def _listed(items: list[str]) -> str:
    return ", ".join(items) or _none()
