"""The venue file's lists of a booking's words: ``[[sources]]`` (where couples come from,
媒体), ``[[reasons]]`` (why a release may be) and ``[[staff]]`` (people's names for the
terminal and for people without Slack)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import MappingProxyType
from typing import Any

from core import checks
from core.model import DEFAULT_SOURCES
from core.rules.naming import fold
from core.rules.reasons import DEFAULT_REASONS, UNSPECIFIED, Reason
from core.venue_errors import VenueFileError, _check, _keys, _named

_SOURCE_KEYS = {"code", "name"}
_STAFF_KEYS = {"id", "name"}
_REASON_KEYS = {"code", "name", "loss"}
MAX_REASON_NAME = 30
MAX_REASONS = 30  # one menu in the release dialog holds them all
_CODE = re.compile(r"[a-z0-9_-]{1,32}")  # typed on the command line: --source zexy
MAX_SOURCE_NAME = 30
MAX_SOURCES = 50
MAX_PERSON = 80


def _tables(
    raw: Any, table: str, shape: str, each: str, keys: set[str]
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each table of a ``[[table]]`` array with where it stands (``sources[2]``), its keys
    checked; refused unless the array is tables like ``shape`` each with ``each``."""
    if not isinstance(raw, list):
        raise VenueFileError(f"[[{table}]] must be tables like {shape}")
    for position, entry in enumerate(raw):
        where = f"{table}[{position}]"
        if not isinstance(entry, dict):
            raise VenueFileError(f"{where} must be a table with {each}")
        _keys(entry, keys, where)
        yield where, entry


def sources(raw: Any) -> tuple[tuple[str, str], ...]:
    """``[[sources]] code = "instagram" name = "Instagram"``: the defaults (renamed when
    listed) first, then the others in file order."""
    found = dict(DEFAULT_SOURCES)
    listed: set[str] = set()
    shape = 'code = "instagram", name'
    for where, entry in _tables(raw, "sources", shape, "code and name", _SOURCE_KEYS):
        code = entry.get("code")
        if not isinstance(code, str) or not _CODE.fullmatch(code):
            raise VenueFileError(
                f"{where}.code {code!r} must be 1 to 32 of a-z, 0-9, - and _ (typed as --source)"
            )
        if code in listed:
            raise VenueFileError(f"source code {code!r} appears twice")
        name = entry.get("name")
        if not isinstance(name, str):
            raise VenueFileError(f'{where}.name must be text, like "ゼクシィ"')
        listed.add(code)
        found[code] = _named(name, f"{where}.name", MAX_SOURCE_NAME)
    if len(found) > MAX_SOURCES:
        raise VenueFileError(f"a venue has at most {MAX_SOURCES} sources, the defaults included")
    return tuple(found.items())


def reasons(raw: Any) -> tuple[Reason, ...]:
    """``[[reasons]] code = "venue_closed" name = "休館" loss = false``: why a release may
    be; the defaults (renamed, or their ``loss`` changed, when listed) first, then the others
    in file order. ``loss`` omitted: a default's own, else true."""
    found = {r.code: r for r in DEFAULT_REASONS}
    listed: set[str] = set()
    shape, each = 'code = "venue_closed", name', "code, name and maybe loss"
    for where, entry in _tables(raw, "reasons", shape, each, _REASON_KEYS):
        code = entry.get("code")
        if not isinstance(code, str) or not _CODE.fullmatch(code) or code == UNSPECIFIED:
            raise VenueFileError(
                f"{where}.code {code!r} must be 1 to 32 of a-z, 0-9, - and _ (typed as "
                f"--reason), and not {UNSPECIFIED!r} (a release that gave none)"
            )
        if code in listed:
            raise VenueFileError(f"reason code {code!r} appears twice")
        name = entry.get("name")
        if not isinstance(name, str):
            raise VenueFileError(f'{where}.name must be text, like "休館"')
        default = found.get(code)
        loss = entry.get("loss", default.loss if default else True)
        if not isinstance(loss, bool):
            raise VenueFileError(
                f"{where}.loss must be true or false (without quotes): whether a release "
                f"for it counts as a lost booking, not {loss!r}"
            )
        listed.add(code)
        found[code] = Reason(code, _named(name, f"{where}.name", MAX_REASON_NAME), loss)
    names = [fold(r.name) for r in found.values()]
    twice = [r.name for r in found.values() if names.count(fold(r.name)) > 1]
    if twice:
        raise VenueFileError(
            f"reason name {twice[0]!r} is given to two reasons: forms could not tell"
        )
    if len(found) > MAX_REASONS:
        raise VenueFileError(f"a venue has at most {MAX_REASONS} reasons, the defaults included")
    return tuple(found.values())


def staff(raw: Any) -> MappingProxyType[str, str]:
    """``[[staff]] id = "U0TANAKA" name = "田中"``: a person's name by their user id."""
    names: dict[str, str] = {}
    shape = 'id = "U0TANAKA", name = "田中"'
    for where, entry in _tables(raw, "staff", shape, "id and name", _STAFF_KEYS):
        user = entry.get("id")
        if not isinstance(user, str):
            raise VenueFileError(f'{where}.id must be a Slack user id, like "U0TANAKA"')
        _check(checks.user_id(user), f"{where}.id")
        if user in names:
            raise VenueFileError(f"staff id {user!r} appears twice")
        name = entry.get("name")
        if not isinstance(name, str):
            raise VenueFileError(f'{where}.name must be text, like "田中"')
        names[user] = _named(name, f"{where}.name", MAX_PERSON)
    return MappingProxyType(names)
