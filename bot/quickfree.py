"""Reading ``/hold free 10月 土日 大安 80名`` into a search (docs/rules.md, Finding a slot).

Understood: a month (``10月``, ``2027年10月``), a range (``10/1-11/30``, ``10/1〜11/30``), a
date (``10/9``), kinds of day (``土日``, ``祝``, ``土日祝``, ``平日``, ``土``, ``日曜``,
weekends…), 六曜 (``大安/友引``), guests (``80名``, ``80人``), the venue's slot names (``昼/夜``)
and room names (by prefix, as the hold form's quick text), 婚礼 / 宴会. Dates without a year
are the next such date; without any date the next 30 days. What is not understood is handed
back word for word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta

from core.model import Kind, Room, Venue
from core.rules.rokuyo import Rokuyo
from core.rules.search import Search

DEFAULT_DAYS = 30
_MONTH = re.compile(r"^(?:(\d{4})年)?(\d{1,2})月$", re.ASCII)
_DAY = r"(?:(\d{4})[/-])?(\d{1,2})[/月](\d{1,2})日?"
_ONE_DAY = re.compile(rf"^{_DAY}$", re.ASCII)
_RANGE = re.compile(rf"^{_DAY}(?:~|〜|-|–|から){_DAY}(?:まで)?$", re.ASCII)
_GUESTS = re.compile(r"^(\d{1,6})(?:名|人|guests?|pax)(?:様)?(?:以上)?$", re.ASCII | re.IGNORECASE)
_SPLIT = re.compile(r"[/・、,]")
_JA_WEEKDAYS = tuple(
    zip("月火水木金土日", ("mon", "tue", "wed", "thu", "fri", "sat", "sun"), strict=True)
)
# Kinds of day, Japanese and English (what a salesperson types) -> core.rules.search.DAY_KINDS
_DAY_WORDS = {
    "土日": ("weekends",),
    "週末": ("weekends",),
    "weekend": ("weekends",),
    "weekends": ("weekends",),
    "祝": ("holidays",),
    "祝日": ("holidays",),
    "holiday": ("holidays",),
    "holidays": ("holidays",),
    "土日祝": ("weekends", "holidays"),
    "平日": ("weekdays",),
    "weekdays": ("weekdays",),
    "優先日": ("priority",),
    **{f"{d}曜": (e,) for d, e in _JA_WEEKDAYS},
    **{f"{d}曜日": (e,) for d, e in _JA_WEEKDAYS},
    **{d: (e,) for d, e in _JA_WEEKDAYS if d != "日"},  # 日 alone is too many things
    **{e: (e,) for _, e in _JA_WEEKDAYS},
}  # fmt: skip
_KINDS = {
    "婚礼": Kind.WEDDING,
    "結婚式": Kind.WEDDING,
    "wedding": Kind.WEDDING,
    "宴会": Kind.BANQUET,
    "一般宴会": Kind.BANQUET,
    "banquet": Kind.BANQUET,
}


@dataclass(frozen=True)
class QuickSearch:
    search: Search
    unparsed: tuple[str, ...] = ()  # words not understood, as typed (normalised)
    said: tuple[str, ...] = field(default=())  # the words understood, for the answer's title


def parse(typed: str, venue: Venue, today: date) -> QuickSearch:
    first: date | None = None
    last: date | None = None
    days: set[str] = set()
    six: set[Rokuyo] = set()
    slots: list[str] = []
    rooms: list[str] = []
    guests: int | None = None
    kind = Kind.WEDDING
    unparsed: list[str] = []
    said: list[str] = []
    for word in _normalise(typed).split():
        folded = word.casefold()
        if (span := _span(word, today)) is not None:
            first, last = span
        elif folded in _DAY_WORDS:
            days.update(_DAY_WORDS[folded])
        elif (found := _rokuyo(word)) is not None:
            six.update(found)
        elif (count := _GUESTS.match(word)) is not None:
            guests = int(count.group(1))
        elif (named := _slots(word, venue)) is not None:
            slots += named
        elif folded in _KINDS:
            kind = _KINDS[folded]
        elif (matched := _rooms(word, venue.rooms.values())) is not None:
            rooms += matched
        else:
            unparsed.append(word)
            continue
        said.append(word)
    if first is None or last is None:
        first, last = today, today + timedelta(days=DEFAULT_DAYS - 1)
    search = Search(
        first=first,
        last=last,
        rooms=tuple(dict.fromkeys(rooms)),
        guests=guests,
        slots=tuple(dict.fromkeys(slots)),
        days=frozenset(days),
        rokuyo=frozenset(six),
        kind=kind,
    )
    return QuickSearch(search, tuple(unparsed), tuple(said))


def _normalise(text: str) -> str:
    """NFKC (full-width digits and letters to ASCII), control characters dropped."""
    shown = "".join(c for c in text if unicodedata.category(c) != "Cc" or c.isspace())
    return " ".join(unicodedata.normalize("NFKC", shown).split())


def _span(word: str, today: date) -> tuple[date, date] | None:
    """A month, a range or a date as the first and last day searched."""
    if month := _MONTH.match(word):
        year, number = month.groups()
        return _month(int(year) if year else None, int(number), today)
    if one := _ONE_DAY.match(word):
        day = _date(*one.groups(), today=today)
        return (day, day) if day else None
    if both := _RANGE.match(word):
        start = _date(*both.groups()[:3], today=today)
        end = _date(*both.groups()[3:], today=start or today)
        return (start, end) if start and end else None
    return None


def _month(year: int | None, month: int, today: date) -> tuple[date, date] | None:
    """A month: from its first day (today, in the current month) to its last; without a year
    the next such month."""
    if not 1 <= month <= 12:
        return None
    if year is None:
        year = today.year if month >= today.month else today.year + 1
    first = date(year, month, 1)
    following = date(year + month // 12, month % 12 + 1, 1)
    return max(first, today), following - timedelta(days=1)


def _date(year: str | None, month: str, day: str, *, today: date) -> date | None:
    """A date as written; without a year the next such date from ``today`` (included)."""
    years = [int(year)] if year else range(today.year, today.year + 9)
    for y in years:
        try:
            found = date(y, int(month), int(day))
        except ValueError:
            continue
        if year or found >= today:
            return found
    return None


def _rokuyo(word: str) -> list[Rokuyo] | None:
    try:
        return [Rokuyo.parse(p) for p in _SPLIT.split(word) if p]
    except ValueError:
        return None


def _slots(word: str, venue: Venue) -> list[str] | None:
    names = {_fold(s.name): s.name for s in venue.slots}
    wanted = [_fold(p) for p in _SPLIT.split(word) if p]
    if not wanted or not all(w in names for w in wanted):
        return None
    return [names[w] for w in wanted]


def _rooms(word: str, rooms: Iterable[Room]) -> list[str] | None:
    """Rooms by id, name or prefix of either (several rooms: ``鳳凰`` is each 鳳凰 room)."""
    w = _fold(word)
    if w.isdigit():
        return None
    active = [r for r in rooms if r.active]
    exact = [r for r in active if w in (_fold(r.name), _fold(r.id))]
    found = exact or [r for r in active if _fold(r.name).startswith(w) or _fold(r.id).startswith(w)]
    return [r.id for r in found] or None


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()
