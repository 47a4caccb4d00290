"""The diary picture's ``Words`` in one reader's language, and the message beside it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from bot.texts import dates, lang, text
from bot.texts.dates import DateStyle
from bot.texts.kinds import guests, kind_name
from core.diary.layout import DayHead, Layout
from core.diary.model import DiaryRange, Style, View
from core.diary.words import Words
from core.model import Venue
from core.rules.calendar import holiday_name

_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def title(days: DiaryRange, locale: str | None, style: DateStyle, venue: Venue) -> str:
    """``台帳 5/15(土・先勝)`` with the day's holiday, ``台帳 5/10(月)〜5/16(日) の週``,
    ``台帳 2027年5月`` / ``Diary Sat 15 May (Sensho)``, ``Diary May 2027``."""
    if days.view is View.DAY:
        day = dates.day(days.first, locale, style=style)
        language = "ja" if lang(locale) == "ja" else "en_US"
        holiday = holiday_name(days.first, venue.policy.priority_days, language)
        return text(locale, "diary.title.day", day=day + (f" {holiday}" if holiday else ""))
    if days.view is View.WEEK:
        plain = DateStyle(today=style.today)  # the axis says each day's 六曜
        first, last = (dates.day(d, locale, style=plain) for d in (days.first, days.last))
        return text(locale, "diary.title.week", first=first, last=last)
    month = days.first.month
    return text(
        locale,
        "diary.title.month",
        year=days.first.year,
        month=month,
        month_name=_MONTHS[month - 1],
    )


def diary_words(
    venue: Venue,
    days: DiaryRange,
    locale: str | None,
    now: datetime,
    person: Callable[[str], str],
) -> Words:
    """The picture's words in ``locale``; ``person``: a salesperson's name (never a contact)."""
    tz, code = venue.tz, lang(locale)
    style = DateStyle(today=now.astimezone(tz).date(), rokuyo=venue.policy.show_rokuyo)
    return Words(
        title=title(days, locale, style, venue),
        drawn=text(locale, "diary.drawn", when=dates.when(now, tz, locale, year=True)),
        legend={s: text(locale, f"diary.legend.{s.value}") for s in Style},
        tag={s: text(locale, f"diary.tag.{s.value}") for s in Style},
        turnover=text(locale, "diary.turnover"),
        shared=text(locale, "diary.shared"),
        empty=text(locale, "diary.empty"),
        head=lambda head: _head(head, venue, code),
        hour=lambda hour: _hour(hour, code),
        times=lambda item: dates.time_range(item.start_at, item.end_at, tz, locale),
        kind=lambda hold: kind_name(hold.kind_id, hold.kind_name, locale),
        guests=lambda count: guests(count, locale),
        person=person,
        deadline=lambda due: text(locale, "diary.deadline", deadline=_short(due, venue, locale)),
        partition=lambda name: f"└ {name}",
    )


def _head(head: DayHead, venue: Venue, code: str) -> tuple[str, ...]:
    """``10/2``, ``金``, ``大安``, the holiday's name (short) / ``2 Oct``, ``Fri``, ``Taian``."""
    day: date = head.day
    if code == "ja":
        lines = [f"{day.month}/{day.day}", "月火水木金土日"[day.weekday()]]
    else:
        lines = [f"{day.day} {_MONTHS[day.month - 1][:3]}", day.strftime("%a")]
    if head.rokuyo is not None:
        lines.append(head.rokuyo.japanese if code == "ja" else head.rokuyo.romaji.capitalize())
    if head.holiday:
        name = holiday_name(day, venue.policy.priority_days, "ja" if code == "ja" else "en_US")
        lines.append((name or "")[:6])
    return tuple(lines)


def _short(moment: datetime, venue: Venue, locale: str | None) -> str:
    """A deadline as short as a block needs: ``4/25 10:00`` / ``25 Apr 10:00``."""
    local = moment.astimezone(venue.tz)
    return f"{dates.bare_day(local.date(), locale)} {dates.clock(local, venue.tz)}"


def _hour(hour: int, code: str) -> str:
    if hour < 24:
        return str(hour)
    return f"翌{hour - 24}" if code == "ja" else f"{hour - 24}+"


def summary(layout: Layout, words: Words, locale: str | None) -> str:
    """The message beside the picture: what it shows, counted."""
    holds = {b.hold.id: b.style for b in layout.blocks}
    counted = {s: sum(1 for v in holds.values() if v is s) for s in Style}
    return text(
        locale,
        "diary.summary",
        title=words.title,
        count=len(holds),
        confirmed=counted[Style.CONFIRMED],
        first=counted[Style.FIRST],
        second=counted[Style.SECOND],
        rooms=len(layout.rows),
    )
