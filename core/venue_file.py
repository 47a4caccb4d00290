"""Reading a venue TOML file (README.md, "Venue file", shows one) into a checked ``Venue``."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from datetime import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from core import checks
from core.model import DEFAULT_KINDS, EventKind, Kind, Policy, Room, Slot, Venue
from core.rules.calendar import CalendarError, check_priority_days
from core.rules.spans import MAX_TURNOVER_MIN, MINUTES_PER_DAY, end_minute
from core.venue_errors import VenueFileError, _check, _keys, _named
from core.venue_lists import reasons, sources, staff

# Each whole number's range: the lowest that means anything, the highest no venue needs
# (ten years ahead; a larger number is a typo, and 100000000 days overflows a date).
_POLICY_INTS = {
    "max_rank": (1, 100),
    "banquet_open_days": (1, 3650),
    "max_extensions": (0, 100),
    "horizon_days": (1, 3650),
    "nudge_days": (0, 365),  # 0: no nudge
    "max_event_hours": (1, 24),  # past midnight only for an event of at most this long
}
MAX_HOLD_DAYS = 365
# Rooms in one hold and candidate dates of one enquiry: what one form and one ledger row
# group can sensibly carry; the form shows one row per room.
_POLICY_COUNTS = {"max_items": 10, "max_candidates": 10}
_POLICY_FLAGS = ("show_rokuyo", "notify_first_of_second")
# Seated guests: no banquet room seats more; a larger number is a typo.
MAX_CAPACITY = 100_000
_CLOCK = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")
_SLOT_KEYS = {"name", "start", "end"}
_TOP_KEYS = {"venue", "rooms", "slots", "policy", "kinds", "sources", "staff", "reasons"}
_VENUE_KEYS = {"id", "name", "timezone", "managers", "sales_channel", "language"}
_ROOM_KEYS = {"id", "name", "parts", "turnover_min", "capacity"}
_KIND_KEYS = {"id", "name", "class"}
MAX_ID = 64
_POLICY_KEYS = {
    *_POLICY_INTS,
    *_POLICY_COUNTS,
    "hold_days",
    "priority_days",
    *_POLICY_FLAGS,
    "deadline_time",
    "closed_weekdays",
    "deposit_days",
}
DEPOSIT_DAYS = (1, 365)  # 予約金: days after confirmation; unset, no deposits
_KIND_ID = re.compile(r"[a-z0-9_-]{1,32}")  # typed on the command line: --kind nijikai
MAX_KIND_NAME = 30
MAX_KINDS = 50  # one menu in the form holds them all
_CHANNEL = re.compile(r"[CG][A-Z0-9]{2,20}")  # a public or private channel's id
LANGUAGES = ("ja", "en")  # the languages osae writes in
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # as closed_weekdays names them


def read_venue_file(path: Path) -> Venue:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise VenueFileError(f"cannot read {path}: {err}") from err
    except tomllib.TOMLDecodeError as err:
        raise VenueFileError(f"{path} is not valid TOML: {err}") from err
    return parse_venue(data)


def parse_venue(data: Mapping[str, Any]) -> Venue:
    _keys(data, _TOP_KEYS, "the venue file")
    head = _table(data, "venue")
    _keys(head, _VENUE_KEYS, "[venue]")
    venue_id = _text(head, "id", "venue")
    _check(checks.venue_id(venue_id), "venue.id")
    timezone = head.get("timezone", "Asia/Tokyo")
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError, TypeError) as err:
        raise VenueFileError(f"venue.timezone {timezone!r} is not an IANA time zone") from err
    managers = head.get("managers", [])
    if not isinstance(managers, list) or not all(isinstance(m, str) and m for m in managers):
        raise VenueFileError("venue.managers must be a list of Slack user ids")
    for n, manager in enumerate(managers):
        _check(checks.user_id(manager), f"venue.managers[{n}]")
    rooms = _rooms(data.get("rooms", []))
    sales_channel, language = _channel(head)
    policy = replace(
        _policy(data.get("policy", {})),
        kinds=_kinds(data.get("kinds", [])),
        sources=sources(data.get("sources", [])),
        staff=staff(data.get("staff", [])),
        reasons=reasons(data.get("reasons", [])),
    )
    return Venue(
        id=venue_id,
        name=_named(_text(head, "name", "venue"), "venue.name"),
        timezone=timezone,
        managers=frozenset(managers),
        policy=policy,
        rooms=rooms,
        slots=_slots(data.get("slots", [])),
        sales_channel=sales_channel,
        language=language,
    )


def _channel(head: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """``sales_channel = "C0123"`` (a Slack channel id) and ``language = "ja"``: where the
    venue's cards and reports go, in which language; unset, the deployment's defaults."""
    channel = head.get("sales_channel")
    if channel is not None and (not isinstance(channel, str) or not _CHANNEL.fullmatch(channel)):
        raise VenueFileError(
            f'venue.sales_channel must be a Slack channel id like "C0123ABCD", not {channel!r}'
        )
    language = head.get("language")
    if language is not None and language not in LANGUAGES:
        names = ", ".join(f'"{name}"' for name in LANGUAGES)
        raise VenueFileError(f"venue.language must be one of {names}, not {language!r}")
    return channel, language


def _slots(raw: Any) -> tuple[Slot, ...]:
    """``[[slots]]``: a name, a start and an optional end (without one, the slot runs to
    midnight); an end at or before the start runs past midnight, as a hold's does."""
    if not isinstance(raw, list):
        raise VenueFileError('slots must be [[slots]] tables like name = "昼" start = "11:00"')
    slots: list[Slot] = []
    for position, entry in enumerate(raw):
        where = f"slots[{position}]"
        if not isinstance(entry, dict):
            raise VenueFileError(f"{where} must be a table")
        _keys(entry, _SLOT_KEYS, where)
        name = _named(_text(entry, "name", where), f"{where}.name")
        if any(slot.name == name for slot in slots):
            raise VenueFileError(f"slot name {name!r} appears twice")
        start = _clock(entry.get("start"), f"slot {name!r}: start")
        end_clock = entry.get("end")
        end = MINUTES_PER_DAY if end_clock is None else _clock(end_clock, f"slot {name!r}: end")
        slots.append(Slot(name, start, end_minute(start, end)))
    return tuple(slots)


def _clock(value: Any, where: str) -> int:
    if isinstance(value, time) and not value.second and not value.microsecond:
        return value.hour * 60 + value.minute
    match = _CLOCK.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise VenueFileError(f'{where} must be a time written "HH:MM" like "11:00", not {value!r}')
    return int(match.group(1)) * 60 + int(match.group(2))


def _capacity(entry: Mapping[str, Any], room_id: str) -> int | None:
    value = entry.get("capacity")
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_CAPACITY:
        raise VenueFileError(
            f"room {room_id!r}: capacity must be a whole number of seated guests "
            f"from 1 to {MAX_CAPACITY}, not {value!r}"
        )
    return value


def _kinds(raw: Any) -> tuple[EventKind, ...]:
    """``[[kinds]] id = "nijikai" name = "二次会" class = "banquet"``: the two defaults (renamed
    if listed) first, then the others in file order."""
    if not isinstance(raw, list):
        raise VenueFileError('[[kinds]] must be tables like id = "nijikai", name, class')
    found: dict[str, EventKind] = {k.id: k for k in DEFAULT_KINDS}
    listed: set[str] = set()
    for position, entry in enumerate(raw):
        where = f"kinds[{position}]"
        if not isinstance(entry, dict):
            raise VenueFileError(f"{where} must be a table with id, name and class")
        _keys(entry, _KIND_KEYS, where)
        kind_id = _text(entry, "id", where)
        if not _KIND_ID.fullmatch(kind_id):
            raise VenueFileError(
                f"{where}.id {kind_id!r} must be 1 to 32 of a-z, 0-9, - and _ (it is typed "
                "as --kind)"
            )
        if kind_id in listed:
            raise VenueFileError(f"kind id {kind_id!r} appears twice")
        name = _named(_text(entry, "name", f"kind {kind_id!r}"), f"{where}.name")
        if len(name) > MAX_KIND_NAME:
            raise VenueFileError(f"kind {kind_id!r}: name is longer than {MAX_KIND_NAME}")
        cls = entry.get("class")
        if cls not in {k.value for k in Kind}:
            raise VenueFileError(
                f'kind {kind_id!r}: class must be "wedding" or "banquet" (which rules it '
                f"follows), not {cls!r}"
            )
        default = found.get(kind_id)
        if default is not None and kind_id not in listed and default.cls.value != cls:
            raise VenueFileError(
                f"kind {kind_id!r} is a default kind of class {default.cls.value!r}: "
                "it may be renamed, not change class; give another id"
            )
        listed.add(kind_id)
        found[kind_id] = EventKind(kind_id, name, Kind(cls))
    if len(found) > MAX_KINDS:
        raise VenueFileError(f"a venue has at most {MAX_KINDS} kinds, the two defaults included")
    names = [k.name for k in found.values()]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise VenueFileError(f"kind name {twice[0]!r} is given to two kinds: forms could not tell")
    return tuple(found.values())


def _policy(raw: Any) -> Policy:
    if not isinstance(raw, dict):
        raise VenueFileError("[policy] must be a table")
    _keys(raw, _POLICY_KEYS, "[policy]")
    defaults = Policy()
    values: dict[str, Any] = {}
    for key, (low, high) in _POLICY_INTS.items():
        value = raw.get(key, getattr(defaults, key))
        _check(checks.whole(value, low, high), f"policy.{key}")
        values[key] = value
    for key, most in _POLICY_COUNTS.items():
        value = raw.get(key, getattr(defaults, key))
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= most:
            raise VenueFileError(
                f"policy.{key} must be a whole number from 1 to {most}, not {value!r}"
            )
        values[key] = value
    if "deposit_days" in raw:
        _check(checks.whole(raw["deposit_days"], *DEPOSIT_DAYS), "policy.deposit_days")
        values["deposit_days"] = raw["deposit_days"]
    values["hold_days"] = _hold_days(raw.get("hold_days", {}), defaults)
    priority = raw.get("priority_days", list(defaults.priority_days))
    if not isinstance(priority, list) or not all(isinstance(p, str) for p in priority):
        raise VenueFileError("policy.priority_days must be a list of strings")
    try:
        check_priority_days(tuple(priority))
    except CalendarError as err:
        raise VenueFileError(f"policy.{err}") from err
    values["priority_days"] = tuple(priority)
    for key in _POLICY_FLAGS:
        flag = raw.get(key, getattr(defaults, key))
        if not isinstance(flag, bool):
            raise VenueFileError(
                f"policy.{key} must be true or false (without quotes), not {flag!r}"
            )
        values[key] = flag
    values["deadline_time"] = _deadline_time(raw.get("deadline_time"))
    values["closed_weekdays"] = _closed_weekdays(raw.get("closed_weekdays", []))
    return Policy(**values)


def _deadline_time(raw: Any) -> int | None:
    """``"19:00"``: the local minute a deadline lands at on its last day."""
    if raw is None:
        return None
    wrong = VenueFileError(
        f'policy.deadline_time must be a time like "19:00" (00:00 to 23:59), not {raw!r}'
    )
    if not isinstance(raw, str) or len(raw) != 5 or raw[2] != ":":
        raise wrong
    hours, minutes = raw[:2], raw[3:]
    if not (hours.isascii() and hours.isdigit() and minutes.isascii() and minutes.isdigit()):
        raise wrong
    if int(hours) > 23 or int(minutes) > 59:
        raise wrong
    return int(hours) * 60 + int(minutes)


def _closed_weekdays(raw: Any) -> frozenset[int]:
    """``["wed"]``: days a deadline never falls on (定休日); one day at least stays open."""
    names = ", ".join(f'"{d}"' for d in WEEKDAYS)
    if not isinstance(raw, list) or not all(isinstance(d, str) for d in raw):
        raise VenueFileError(f"policy.closed_weekdays must be a list of weekdays from {names}")
    unknown = [d for d in raw if d.lower() not in WEEKDAYS]
    if unknown:
        raise VenueFileError(
            f"policy.closed_weekdays: {', '.join(map(repr, unknown))} is not one of {names}"
        )
    closed = frozenset(WEEKDAYS.index(d.lower()) for d in raw)
    if len(closed) == len(WEEKDAYS):
        raise VenueFileError("policy.closed_weekdays closes every day: leave one day open")
    return closed


def _hold_days(raw: Any, defaults: Policy) -> dict[Kind, int]:
    if not isinstance(raw, dict):
        raise VenueFileError("policy.hold_days must be a table like { wedding = 7, banquet = 3 }")
    days = dict(defaults.hold_days)
    for key, value in raw.items():
        try:
            kind = Kind(key)
        except ValueError:
            raise VenueFileError(
                f"policy.hold_days.{key}: the kinds are 'wedding' and 'banquet'"
            ) from None
        _check(checks.whole(value, 1, MAX_HOLD_DAYS), f"policy.hold_days.{key}")
        days[kind] = value
    return days


def _rooms(raw: Any) -> dict[str, Room]:
    if not isinstance(raw, list) or not raw:
        raise VenueFileError("a venue needs at least one [[rooms]] entry")
    rooms: dict[str, Room] = {}
    for position, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise VenueFileError(f"rooms[{position}] must be a table")
        where = f"rooms[{position}]"
        _keys(entry, _ROOM_KEYS, where)
        room_id = _named(_text(entry, "id", where), f"{where}.id", MAX_ID)
        if room_id in rooms:
            raise VenueFileError(f"room id {room_id!r} appears twice")
        parts = entry.get("parts")
        if (
            not isinstance(parts, list)
            or not parts
            or not all(isinstance(p, str) and p for p in parts)
        ):
            raise VenueFileError(f"room {room_id!r}: parts must be a non-empty list of part ids")
        for n, part in enumerate(parts):
            _named(part, f"{where}.parts[{n}]", MAX_ID)
        turnover = entry.get("turnover_min", 60)
        if (
            not isinstance(turnover, int)
            or isinstance(turnover, bool)
            or not (0 <= turnover <= MAX_TURNOVER_MIN)
        ):
            raise VenueFileError(
                f"room {room_id!r}: turnover_min must be minutes from 0 to {MAX_TURNOVER_MIN}"
            )
        rooms[room_id] = Room(
            id=room_id,
            name=_named(_text(entry, "name", f"room {room_id!r}"), f"{where}.name"),
            parts=frozenset(parts),
            turnover_min=turnover,
            position=position,
            capacity=_capacity(entry, room_id),
        )
    return rooms


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise VenueFileError(f"a venue file needs a [{key}] table")
    return value


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise VenueFileError(f"{where}.{key} must be a non-empty string")
    return value.strip()
