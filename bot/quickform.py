"""Reading ``/hold 鳳凰 5/15 11:00-15:00 婚礼 40名 山田様`` into what the modal is prefilled with.

Several rooms of one hold are joined by ``+``: ``/hold 5/15 チャペル 11:00-12:00 + 鳳凰
12:30-15:30 婚礼 山田様``. Each piece after a ``+`` is a room and its times; its other words
(kind, customer) count as if typed in the first piece. A piece without a room or without both
times is handed back as it was typed, so the modal can say what would work.

Generous on purpose: full-width digits and letters, 〜 ～ - から between times, 時 and 半,
``26:00`` for 2:00 the next morning, dates with or without a year (without: the next such
date), 今日 / 明日, the venue's kinds by name or id (and the words staff use for the two
default ones), guests as ``40名`` / ``40人``, room names by prefix. What is not understood is
handed back word for word, so the modal can say so; it never becomes part of the customer's
name when a word with an honorific (様, 御中) names the customer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from core import checks
from core.model import DEFAULT_KINDS, EventKind, Kind, Room

MINUTES_PER_DAY = 1440
_LATEST = 30 * 60  # an end written as 26:00 is 2:00 the next morning; 30:00 at most
_MARK = "\x00"  # stands in for a piece already understood, keeping word order
_HOUSE_WORDS = frozenset({"社内", "社内押さえ", "house"})  # a word of its own: 社内押さえ

_TIME = r"(\d{1,2})(?:\s*:\s*(\d{2})|\s*時(?:(半)|(\d{1,2})分?)?)?"
_SEP = r"\s*(?:~|〜|-|–|—|−|ー|から)\s*"
# re.ASCII: \d is 0-9 only (int() would also read ١٢ and other scripts' digits).
_RANGE = re.compile(rf"(?<![\d/.:-]){_TIME}{_SEP}{_TIME}(?:\s*まで)?(?![\d/])", re.ASCII)
_LONE_TIME = re.compile(
    r"(?<![\d/.:-])(\d{1,2})(?:\s*:\s*(\d{2})|\s*時(?:(半)|(\d{1,2})分?)?)(?!\d)", re.ASCII
)
# The weekday written beside a date, as people (and osae's own texts) write it: (土), (土曜日),
# (Sat), (土・大安). It is checked against the date, never used to move it.
_WEEKDAY = r"(?:\s*[(（]([^)）]{1,9})[)）])?"
_JA_WEEKDAYS = "月火水木金土日"
_EN_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DATES = (
    re.compile(
        rf"(?<!\d)(\d{{4}})\s*[-/年]\s*(\d{{1,2}})\s*[-/月]\s*(\d{{1,2}})\s*日?{_WEEKDAY}",
        re.ASCII,
    ),
    re.compile(
        rf"(?<![\d/])()(\d{{1,2}})\s*(?:/|月)\s*(\d{{1,2}})\s*日?{_WEEKDAY}(?![\d/])", re.ASCII
    ),
)
_RELATIVE = {"今日": 0, "本日": 0, "today": 0, "明日": 1, "tomorrow": 1, "明後日": 2}
# Words for the two default kinds (by their ids), beside every kind's own name and id.
_KIND_WORDS = {
    Kind.WEDDING.value: ("婚礼", "結婚式", "挙式", "披露宴", "wedding"),
    Kind.BANQUET.value: ("一般宴会", "宴会", "banquet", "パーティー", "party"),
}
_GUESTS = re.compile(r"(?<![\d/.:-])(\d{1,6})\s*(?:名|人)(?:様|さま)?(?![\d/])", re.ASCII)
_HONORIFICS = ("様", "さま", "殿", "御中", "さん")
# Words that name an event (忘年会, 歓迎会, 記念式典, パーティー): one that is not a kind of the
# venue's is told back as such, never taken into the customer's name nor dropped unsaid.
_EVENT_ENDINGS = ("会", "式", "式典", "宴", "パーティー", "パーティ", "party")
_PLUS = re.compile(r"\s*\+\s*")  # ＋ is + after NFKC


@dataclass(frozen=True)
class QuickItem:
    """One more room of the hold, as typed after a ``+``."""

    room_id: str
    start_min: int
    end_min: int


@dataclass(frozen=True)
class QuickForm:
    """What the text said; ``None`` for anything it did not say."""

    room_id: str | None = None
    day: date | None = None
    start_min: int | None = None  # minutes after local midnight, 0..1439
    end_min: int | None = None  # a clock time too: at or before the start means the next day
    kind: str | None = None  # one of the venue's kind ids
    customer: str | None = None
    guests: int | None = None
    unparsed: tuple[str, ...] = ()  # words not understood, as typed (normalised)
    unknown_kinds: tuple[str, ...] = ()  # event words that are not one of the venue's kinds
    ambiguous: tuple[tuple[str, tuple[str, ...]], ...] = field(default=())  # word, room names
    also: tuple[QuickItem, ...] = ()  # further rooms, each typed after a ``+``
    bad_items: tuple[str, ...] = ()  # pieces after a ``+`` without a room or both times
    weekday: int | None = None  # the weekday written beside the date (Monday 0), if any
    house: bool = False  # 「社内」: a house hold (社内押さえ), offered to managers only

    @property
    def weekday_mismatch(self) -> bool:
        """The written weekday is not the date's: ask which is meant, hold nothing."""
        return (
            self.day is not None and self.weekday is not None and self.day.weekday() != self.weekday
        )


@dataclass
class _Found:
    """What has been understood so far, filled in as the text is read."""

    room: str | None = None
    day: date | None = None
    start: int | None = None
    end: int | None = None
    kind: str | None = None
    guests: int | None = None
    kinds: dict[str, str] = field(default_factory=dict)  # folded word -> kind id
    weekday: int | None = None


def parse(
    text: str,
    rooms: Sequence[Room],
    today: date,
    kinds: Sequence[EventKind] = DEFAULT_KINDS,
) -> QuickForm:
    first, *pieces = _PLUS.split(_normalise(text))
    said = first.split()
    first = " ".join(w for w in said if w.casefold() not in _HOUSE_WORDS)
    also: list[QuickItem] = []
    bad: list[str] = []
    words = [first]
    for piece in filter(None, pieces):
        item, rest = _item(piece, rooms)
        if item is None:
            bad.append(piece)
        else:
            also.append(item)
            words.append(rest)
    quick = _parse_one(" ".join(words), rooms, today, kinds)
    house = len(first.split()) < len(said)
    return replace(quick, also=tuple(also), bad_items=tuple(bad), house=house)


def _item(piece: str, rooms: Sequence[Room]) -> tuple[QuickItem | None, str]:
    """A room and its two times out of ``piece``, and the words left over."""
    found = _Found()
    rest = _take_spaced_room_names(_take_times(piece, found), rooms, found)
    left: list[str] = []
    for word in rest.split():
        if word == _MARK:
            continue
        if found.room is None and len(matched := _rooms_for(word, rooms)) == 1:
            found.room = matched[0].id
            continue
        left.append(word)
    if found.room is None or found.start is None or found.end is None:
        return None, piece
    return QuickItem(found.room, found.start, found.end), " ".join(left)


def _parse_one(
    text: str, rooms: Sequence[Room], today: date, kinds: Sequence[EventKind]
) -> QuickForm:
    found = _Found(kinds=_kind_words(kinds))
    rest = _normalise(text)
    rest = _take_times(rest, found)
    rest = _take_guests(rest, found)
    rest = _take_date(rest, today, found)
    rest = _take_spaced_room_names(rest, rooms, found)
    return _read_words(rest.split(), rooms, today, found)


def _kind_words(kinds: Sequence[EventKind]) -> dict[str, str]:
    """Each kind's name and id, and the staff's words for the defaults; a venue's own name
    wins over a default word (a venue whose 宴会 is a kind of its own)."""
    words: dict[str, str] = {}
    for kind in kinds:
        for word in _KIND_WORDS.get(kind.id, ()):
            words[_fold(word)] = kind.id
    for kind in kinds:
        words[_fold(kind.id)] = kind.id
        words[_fold(kind.name)] = kind.id
    return words


def _take_guests(rest: str, found: _Found) -> str:
    """``40名``, ``40 名様``, ``120人``: the guests (人数)."""
    match = _GUESTS.search(rest)
    if match is None or int(match.group(1)) < 1:
        return rest
    found.guests = int(match.group(1))
    return _cut(rest, match)


def _normalise(text: str) -> str:
    """NFKC turns full-width digits, letters, colons and ～ into ASCII; 〜 stays as is.
    Control characters (a pasted NUL) and bidi overrides (U+202E) are dropped: nothing could
    store the one, and the other would make a name read backwards."""
    shown = checks.cleaned(text, spaces=True)  # core.checks: what no way in lets through
    return " ".join(unicodedata.normalize("NFKC", shown).split())


def _minutes(hour: str, minute: str | None, half: str | None, minute_jp: str | None) -> int | None:
    h = int(hour)
    m = 30 if half else int(minute or minute_jp or 0)
    return h * 60 + m if m < 60 else None


def _take_times(rest: str, found: _Found) -> str:
    """``11:00-15:00``, ``11時〜15時半``, ``18-26``; else one or two lone ``11:00`` / ``11時``."""
    match = _RANGE.search(rest)
    if match:
        start, end = _minutes(*match.groups()[:4]), _minutes(*match.groups()[4:])
        if start is not None and end is not None and start < MINUTES_PER_DAY and end <= _LATEST:
            found.start, found.end = start, end % MINUTES_PER_DAY
            return _cut(rest, match)
    taken: list[re.Match[str]] = []
    for name, lone in zip(("start", "end"), _LONE_TIME.finditer(rest), strict=False):
        value = _minutes(*lone.groups())
        if value is None or value > (_LATEST if name == "end" else MINUTES_PER_DAY - 1):
            break
        setattr(found, name, value % MINUTES_PER_DAY)
        taken.append(lone)
    for lone in reversed(taken):
        rest = _cut(rest, lone)
    return rest


def _take_date(rest: str, today: date, found: _Found) -> str:
    for pattern in _DATES:
        match = pattern.search(rest)
        if match is None:
            continue
        year, month, day, weekday = match.groups()
        chosen = _date(int(year) if year else None, int(month), int(day), today)
        if chosen is not None:
            found.day = chosen
            found.weekday = _weekday(weekday) if weekday else None
            return _cut(rest, match)
    return rest


def _date(year: int | None, month: int, day: int, today: date) -> date | None:
    """A date as written; without a year, the next such date from today (today included)."""
    years = [year] if year else range(today.year, today.year + 9)  # 2/29 may be years away
    for y in years:
        try:
            candidate = date(y, month, day)
        except ValueError:
            continue
        if year or candidate >= today:
            return candidate
    return None


def _weekday(written: str) -> int | None:
    """土, 土曜, 土曜日, 土・大安 / sat, Sat., saturday → 5; anything else (祝, 仮) → None."""
    word = re.split(r"[・･,、\s]", written.strip(), maxsplit=1)[0].casefold().rstrip(".")
    if len(word) >= 1 and word[0] in _JA_WEEKDAYS and word[1:] in ("", "曜", "曜日"):
        return _JA_WEEKDAYS.index(word[0])
    if len(word) >= 2:
        return next((i for i, name in enumerate(_EN_WEEKDAYS) if name.startswith(word)), None)
    return None


def _take_spaced_room_names(rest: str, rooms: Sequence[Room], found: _Found) -> str:
    """Room names with a space in them (鳳凰 東) would be split into words; take them first."""
    spaced = sorted((r for r in rooms if " " in _fold(r.name)), key=lambda r: -len(r.name))
    for room in spaced:
        name = _fold(room.name)
        at = rest.casefold().find(name)
        if at >= 0:
            found.room = room.id
            return f"{rest[:at]} {_MARK} {rest[at + len(name) :]}"
    return rest


def _read_words(words: list[str], rooms: Sequence[Room], today: date, found: _Found) -> QuickForm:
    """Kind, relative dates, rooms and customers by word; the rest is trailing or not read."""
    known: list[int] = []  # positions of words understood (customer words excepted)
    customer: list[tuple[int, str]] = []
    ambiguous: list[tuple[str, tuple[str, ...]]] = []
    unread: list[tuple[int, str]] = []
    events: list[str] = []
    for i, word in enumerate(words):
        if word == _MARK:
            known.append(i)
        elif (kind := found.kinds.get(_fold(word))) is not None and found.kind is None:
            found.kind = kind
            known.append(i)
        elif _fold(word).endswith(_EVENT_ENDINGS) and not word.endswith(_HONORIFICS):
            events.append(word)
            known.append(i)
        elif word.casefold() in _RELATIVE and found.day is None:
            found.day = today + timedelta(days=_RELATIVE[word.casefold()])
            known.append(i)
        elif word.endswith(_HONORIFICS) and len(word) > 1:
            customer.append((i, word))
        elif found.room is None and (matched := _rooms_for(word, rooms)):
            if len(matched) == 1:
                found.room = matched[0].id
                known.append(i)
            else:
                ambiguous.append((word, tuple(r.name for r in matched)))
                known.append(i)
        else:
            unread.append((i, word))
    last_known = max(known, default=-1)
    # Words after everything understood are the customer's name ("... banquet ABC Trading").
    customer += [(i, w) for i, w in unread if i > last_known]
    unparsed = tuple(w for i, w in unread if i <= last_known)
    names = " ".join(w for _, w in sorted(customer))
    return QuickForm(
        room_id=found.room,
        day=found.day,
        start_min=found.start,
        end_min=found.end,
        kind=found.kind,
        customer=names or None,
        guests=found.guests,
        unparsed=unparsed,
        unknown_kinds=tuple(events),
        ambiguous=tuple(ambiguous),
        weekday=found.weekday,
    )


def _rooms_for(word: str, rooms: Sequence[Room]) -> list[Room]:
    """Exact name or id first; else names or ids it begins; several: the room that contains
    all of them (鳳凰 -> 鳳凰の間 rather than 鳳凰A), if there is one.
    """
    w = _fold(word)
    if w.isdigit():
        return []
    active = [r for r in rooms if r.active]
    exact = [r for r in active if w in (_fold(r.name), _fold(r.id), _fold(_bare(r.name)))]
    if exact:
        return exact
    prefixed = [r for r in active if _fold(r.name).startswith(w) or _fold(r.id).startswith(w)]
    if len(prefixed) > 1:
        containing = [r for r in prefixed if all(o.parts <= r.parts for o in prefixed)]
        if len(containing) == 1:
            return containing
    return prefixed


def _bare(name: str) -> str:
    return name.removesuffix("の間")


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _cut(text: str, match: re.Match[str]) -> str:
    return f"{text[: match.start()]} {_MARK} {text[match.end() :]}"
