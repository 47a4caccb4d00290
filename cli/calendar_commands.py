"""`osae calendar`: each day's 六曜, holiday and wedding-priority rule for a venue."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from bot import strict
from bot.texts import dates
from cli.context import emit, locale, open_venue, say
from cli.errors import CommandError
from core.model import Venue
from core.rules.calendar import holiday_name, is_priority_day
from core.rules.deadlines import banquet_opens_at
from core.rules.lunisolar import FIRST_YEAR, LAST_YEAR
from core.rules.rokuyo import Rokuyo, rokuyo

MAX_DAYS = 366
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_WEEKDAYS_JA = "月火水木金土日"
_HOLIDAY_LANGUAGE = {"ja": "ja", "en": "en_US"}
_TEXTS = {
    "en": {
        "order": "--from {start} is after --to {end}; give the earlier date first",
        "too_long": "{start} to {end} is {days} days; ask for at most {limit} days at a time",
        "years": "the 六曜 is computed for {first}–{last}; {day} is outside it",
        "not_date": "{value!r} is not a date like 2027-10-01",
        "priority": "wedding priority",
        "opens": "banquets from {when}",
    },
    "ja": {
        "order": "--from {start} が --to {end} より後です。早い日付を先に指定してください",
        "too_long": "{start}〜{end} は{days}日間です。一度に指定できるのは{limit}日までです",
        "years": "六曜は{first}〜{last}年について計算しています。{day} は範囲外です",
        "not_date": "{value!r} は日付ではありません。2027-10-01 のように指定してください",
        "priority": "婚礼優先日",
        "opens": "宴会受付 {when}〜",
    },
}


@dataclass(frozen=True)
class Day:
    """One row of the calendar, as the JSON answer carries it."""

    day: date
    rokuyo: Rokuyo
    holiday: str | None
    priority: bool
    banquet_opens_at: datetime | None

    def to_json(self) -> dict[str, Any]:
        opens = self.banquet_opens_at
        return {
            "date": self.day.isoformat(),
            "weekday": WEEKDAYS[self.day.weekday()],
            "rokuyo": self.rokuyo.japanese,
            "holiday": self.holiday,
            "priority": self.priority,
            "banquet_opens_at": opens.isoformat() if opens else None,
        }


def register(commands: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:  # type: ignore[type-arg]
    cal = commands.add_parser(
        "calendar", parents=[common], help=say("help.calendar"), description=say("help.calendar")
    )
    cal.add_argument("--from", dest="start", required=True, type=_day, help=say("help.from"))
    cal.add_argument("--to", dest="end", required=True, type=_day, help=say("help.to"))
    cal.set_defaults(handler=show_calendar)


def show_calendar(args: argparse.Namespace) -> int:
    start, end = _checked_range(args.start, args.end)
    _, venue = open_venue(args)
    # JSON names holidays in each country's own language (元日), the table in the reader's.
    language = None if args.json else _HOLIDAY_LANGUAGE[locale()]
    rows = days(venue, start, end, language)
    return emit(
        args.json,
        {"venue": venue.id, "days": [row.to_json() for row in rows]},
        [_line(row, venue) for row in rows],
    )


def days(venue: Venue, start: date, end: date, language: str | None) -> list[Day]:
    policy = venue.policy
    rows = []
    for offset in range((end - start).days + 1):
        day = start + timedelta(days=offset)
        rows.append(
            Day(
                day=day,
                rokuyo=rokuyo(day),
                holiday=holiday_name(day, policy.priority_days, language),
                priority=is_priority_day(day, policy.priority_days),
                banquet_opens_at=banquet_opens_at(day, policy, venue.tz),
            )
        )
    return rows


def _checked_range(start: date, end: date) -> tuple[date, date]:
    """Refuse reversed or over-long ranges and years without a computed 旧暦, before any I/O."""
    if start > end:
        raise _refusal("bad_range", "order", start=start, end=end)
    length = (end - start).days + 1
    if length > MAX_DAYS:
        raise _refusal("range_too_long", "too_long", start=start, end=end, days=length)
    for day in (start, end):
        if not FIRST_YEAR <= day.year <= LAST_YEAR:
            raise _refusal("bad_range", "years", day=day)
    return start, end


def _refusal(code: str, key: str, **facts: Any) -> CommandError:
    message = _TEXTS[locale()][key].format(
        limit=MAX_DAYS, first=FIRST_YEAR, last=LAST_YEAR, **facts
    )
    return CommandError(code, message, exit_code=2)


def _line(row: Day, venue: Venue) -> str:
    code = locale()
    texts = _TEXTS[code]
    weekday = _WEEKDAYS_JA[row.day.weekday()] if code == "ja" else row.day.strftime("%a")
    cells = [row.day.isoformat(), weekday]
    if venue.policy.show_rokuyo:
        cells.append(row.rokuyo.japanese)
    if row.holiday:
        cells.append(row.holiday)
    if row.priority:
        cells.append(texts["priority"])
    if row.banquet_opens_at:
        when = dates.when(row.banquet_opens_at, venue.tz, code, year=True)
        cells.append(texts["opens"].format(when=when))
    return "  ".join(cells)


def _day(value: str) -> date:
    parsed = strict.iso_date(value)
    if parsed is None:
        raise argparse.ArgumentTypeError(_TEXTS[locale()]["not_date"].format(value=value))
    return parsed
