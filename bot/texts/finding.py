"""Words of a search's answer (docs/rules.md, Finding a slot): a place's outcome, a room with
its capacity, an alternative; shared by Slack and the terminal. Dates are ``dates``' in the
reader's style (year when not this year, 六曜 as the venue shows it)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.texts import dates, esc, text
from bot.texts.dates import DateStyle
from bot.texts.refusals import ordinal
from core.results import Chance, Found


def room_label(found: Found, locale: str | None, *, plain: bool = False) -> str:
    """``鳳凰 西 (100名)``; a room whose capacity the venue file does not give is marked."""
    room = found.place.room
    name = room.name if plain else esc(room.name)
    if room.capacity is None:
        return text(locale, "free.room.unknown", room=name)
    return text(locale, "free.room", room=name, capacity=room.capacity)


def outcome_label(found: Found, tz: ZoneInfo, locale: str | None, style: DateStyle) -> str:
    """``1番手（空き）`` / ``2番手（#12 が 10/3(日・大安) 10:00まで仮押さえ中）`` /
    ``受付不可（#7）`` / ``宴会受付 7/4(日・先勝) 0:00〜``."""
    if found.outcome is Chance.FIRST:
        return text(locale, "free.first")
    if found.outcome is Chance.SECOND:
        ahead = ", ".join(f"#{i}" for i in found.ahead)
        if found.until is not None:
            until = dates.deadline(found.until, tz, locale, style=style)
            return text(
                locale,
                "free.second.until",
                rank_text=ordinal(found.rank or 2, locale),
                ahead=ahead,
                until=until,
            )
        return text(locale, "free.second", rank_text=ordinal(found.rank or 2, locale), ahead=ahead)
    if found.outcome is Chance.NOT_OPEN and found.until is not None:
        return text(locale, "free.not_open", opens=dates.when(found.until, tz, locale, style=style))
    return text(locale, "free.taken", ahead=", ".join(f"#{i}" for i in found.ahead))


def slot_label(found: Found, tz: ZoneInfo, locale: str | None) -> str:
    """``昼 11:00–14:00``, or the times alone (times given, or the whole day)."""
    times = dates.time_range(found.start, found.end, tz, locale)
    if found.place.slot is None:
        return times
    return f"{esc(found.place.slot)} {times}"


def alternative_line(
    found: Found, tz: ZoneInfo, locale: str | None, style: DateStyle, *, plain: bool = True
) -> str:
    """``鳳凰 東 10/2(土・大安) 11:00〜14:00 · 1番手``: a request that would be accepted."""
    room = found.place.room.name if plain else esc(found.place.room.name)
    day = dates.day(found.place.day, locale, style=style)
    times = dates.time_range(found.start, found.end, tz, locale)
    return f"{room} {day} {times} · {ordinal(found.rank or 1, locale)}"
