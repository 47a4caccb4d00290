"""Strict readers for what a payload or a typed command carries: numbers, ids, dates, times.

Only ASCII digits count (``str.isdigit`` and ``int`` also take ``²`` and ``١٢``); the full-width
digits a Japanese keyboard types are read as the ASCII ones. A hold id is range-checked
against its column (PostgreSQL ``bigint``) before it goes anywhere near the engine. A date is
a real calendar date written ``YYYY-MM-DD``; a time is ``HH:MM`` with ``HH < 24`` and
``MM < 60``. Anything else reads as None, and the caller says why to the person.
"""

from __future__ import annotations

import re
from datetime import date

from core import checks

MAX_BIGINT = 2**63 - 1  # holds.id
MAX_DIGITS = 200  # far longer than any id, and far from int()'s 4300-digit limit

_DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_CLOCK = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")
_SLACK_ID = re.compile(r"[A-Z0-9]{2,64}")
_ACTION_TS = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,9})?")
_URL = re.compile(r"https?://\S{1,2000}")
_WIDE = str.maketrans("０１２３４５６７８９＃", "0123456789#")


def number(raw: object) -> int | None:
    """A non-negative whole number written in ASCII (or full-width) digits, else None."""
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        return None
    if isinstance(raw, int):
        return raw if raw >= 0 else None
    text = raw.strip().translate(_WIDE)
    return int(text) if _DIGITS.fullmatch(text) else None


MAX_GUESTS = 100_000  # as the engine checks it (core.rules.requests.MAX_GUESTS)


def count(raw: object) -> int | None:
    """A guest count: ``40``, ``４０``, ``40名`` or ``40人``, 1 to ``MAX_GUESTS``, else None."""
    if isinstance(raw, str):
        raw = raw.strip().removesuffix("名").removesuffix("人").strip()
    value = number(raw)
    return value if value is not None and 1 <= value <= MAX_GUESTS else None


def whole_yen(raw: object) -> int | None:
    """An estimate: ``3500000``, ``3,500,000`` or ``¥3,500,000``, 0 to 1,000,000,000, else None."""
    if isinstance(raw, str):
        raw = raw.strip().lstrip("¥￥").replace(",", "").removesuffix("円").strip()
    value = number(raw)
    return value if value is not None and 0 <= value <= 1_000_000_000 else None


def is_hold_id(value: int) -> bool:
    """Within the ids the holds table can hold (1 … bigint's largest)."""
    return 1 <= value <= MAX_BIGINT


def hold_id(raw: object) -> int | None:
    """A hold id as a button, a block id or private_metadata carries it (``#`` allowed)."""
    text = raw.strip().translate(_WIDE).removeprefix("#") if isinstance(raw, str) else raw
    value = number(text)
    return value if value is not None and is_hold_id(value) else None


def iso_date(raw: object) -> date | None:
    """``YYYY-MM-DD`` (a datepicker's ``selected_date``), a date that exists, else None."""
    match = _DATE.fullmatch(raw) if isinstance(raw, str) else None
    if match is None:
        return None
    try:
        return date(*(int(part) for part in match.groups()))
    except ValueError:  # 2027-02-30, year 0
        return None


def clock(raw: object) -> int | None:
    """``HH:MM`` (a timepicker's ``selected_time``) as minutes after midnight, else None."""
    match = _CLOCK.fullmatch(raw) if isinstance(raw, str) else None
    if match is None:
        return None
    return int(match.group(1)) * 60 + int(match.group(2))


def user_id(raw: object) -> str | None:
    """A Slack user id (``U…`` / ``W…``) as a users_select sends it, else None: it ends up in
    ``<@…>`` mentions, where anything else could be a ``<!channel>``."""
    return raw if isinstance(raw, str) and checks.user_id(raw) is None else None


def slack_id(raw: object) -> str | None:
    """A Slack id of any kind (``C…`` channel, ``D…`` DM, ``T…`` team…), else None."""
    return raw if isinstance(raw, str) and _SLACK_ID.fullmatch(raw) else None


def url(raw: object) -> str | None:
    """An http(s) URL (a response_url we kept), else None."""
    return raw if isinstance(raw, str) and _URL.fullmatch(raw) else None


def action_ts(raw: object) -> float | None:
    """An ``action_ts`` (``1712345678.123456``) as seconds, else None."""
    return float(raw) if isinstance(raw, str) and _ACTION_TS.fullmatch(raw) else None


def typed_text(raw: object, *, lines: bool = False) -> str | None:
    """What a person typed in a text input, if it passes the shared check (``core.checks``):
    no control characters (a NUL cannot even be stored), no bidi overrides; line breaks and
    tabs only where ``lines`` are allowed."""
    if not isinstance(raw, str):
        return None
    return raw if checks.text(raw, lines=lines) is None else None


_MENTION = re.compile(r"<@([UW][A-Z0-9]{2,40})(?:\|[^<>]{0,200})?>")
_ESCAPED_LINK = re.compile(
    r"<([#!][^<>|]{1,200})\|([^<>]{0,200})>|<(https?://[^<>|]{1,2000})\|?([^<>]{0,200})>"
)


def command_text(raw: str) -> str:
    """A slash command's text as typed. With escaping on (manifest ``should_escape``), Slack
    sends ``&``, ``<`` and ``>`` as entities and picked mentions as ``<@U…|name>``: a user
    mention stays ``<@U…>`` (what ``mentioned_user`` reads), a channel or link reads as its
    label, and the entities as the characters people typed."""
    text = _MENTION.sub(lambda m: f"<@{m.group(1)}>", raw)
    text = _ESCAPED_LINK.sub(lambda m: m.group(2) or m.group(4) or m.group(3) or "", text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def mentioned_user(word: str) -> str | None:
    """The user id of ``<@U…>`` / ``<@U…|name>``, or of a bare user id, else None."""
    match = _MENTION.fullmatch(word.strip())
    return match.group(1) if match else user_id(word.strip())
