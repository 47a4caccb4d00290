"""Setting a venue up in Slack: each change made to the venue's file and checked as `osae venue
load` checks one (``core.venue_file.parse_venue``), then saved by the engine, audited, with
the workspace linked. Who may: the venue's managers; before it exists, the installer."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

from bot.deps import Deps
from bot.texts import text
from bot.venue_templates import template
from core.errors import VenueConflict
from core.model import Venue, WorkspaceLink
from core.venue_document import document
from core.venue_errors import VenueFileError
from core.venue_file import parse_venue

SOURCE = "slack"  # what the audit line says the change came from
_ROOM_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
_PART = re.compile(r"[^\s,、]+")


@dataclass(frozen=True)
class Refusal:
    """Why a change was not saved, worded for the person (``field``: the block it is about)."""

    message: str
    field: str | None = None


def workspace(context: Any) -> WorkspaceLink | None:
    """Where a request came from, as the link a new venue gets (None: no team at all)."""
    team, org = getattr(context, "team_id", None), getattr(context, "enterprise_id", None)
    org_wide = bool(getattr(context, "is_enterprise_install", False))
    key = org if org_wide and org else team
    if not key:
        return None
    return WorkspaceLink("", key, org, org_wide)


def may_set_up(deps: Deps, context: Any, user: str, venue: Venue | None) -> bool:
    """Managers may change their venue; before a venue exists, the one who installed osae."""
    if venue is not None:
        return venue.is_manager(user)
    team, org = getattr(context, "team_id", None), getattr(context, "enterprise_id", None)
    return bool(user) and deps.installer(team, org) == user


def start(deps: Deps, context: Any, user: str, name: str, locale: str) -> Venue | Refusal:
    """A new venue from a template: its installer its first manager, linked to the workspace."""
    link = workspace(context)
    if link is None:
        return Refusal(text(locale, "setup.error.no_workspace"))
    doc = template(name)
    venue_id = _free_id(deps, link.workspace_id.lower())
    doc["venue"] = {**doc["venue"], "id": venue_id, "managers": [user]}
    doc["venue"]["language"] = "en" if locale.startswith("en") else "ja"
    return _save(deps, doc, user, locale, WorkspaceLink(venue_id, *_rest(link)))


def from_file(
    deps: Deps, context: Any, user: str, raw: str, venue: Venue | None, locale: str
) -> Venue | Refusal:
    """A pasted venue file: a new venue (its id made the workspace's own if taken by another
    workspace), or the venue's new file (its id kept)."""
    try:
        doc = tomllib.loads(raw)
    except tomllib.TOMLDecodeError as err:
        return Refusal(text(locale, "setup.error.file", detail=str(err)), "file")
    head = doc.get("venue")
    if not isinstance(head, dict):
        return Refusal(text(locale, "setup.error.file", detail="[venue] is missing"), "file")
    link = workspace(context)
    if link is None:
        return Refusal(text(locale, "setup.error.no_workspace"))
    if venue is not None:
        head["id"] = venue.id
    else:
        head["id"] = _free_id(deps, str(head.get("id") or link.workspace_id).lower())
        managers = head.get("managers")
        head["managers"] = [*managers, user] if isinstance(managers, list) else [user]
    return _save(deps, doc, user, locale, WorkspaceLink(head["id"], *_rest(link)), field="file")


def settings(
    deps: Deps,
    venue: Venue,
    user: str,
    locale: str,
    *,
    channel: str | None,
    managers: list[str],
    language: str | None,
) -> Venue | Refusal:
    doc = document(venue)
    head = {
        key: value
        for key, value in doc["venue"].items()
        if key not in ("sales_channel", "language")
    }
    head["managers"] = sorted(set(managers))
    if channel:
        head["sales_channel"] = channel
    if language:
        head["language"] = language
    doc["venue"] = head
    return _save(deps, doc, user, locale, None)


def room(
    deps: Deps, venue: Venue, user: str, locale: str, fields: dict[str, Any], room_id: str | None
) -> Venue | Refusal:
    """One room changed (``room_id``) or added (its id in ``fields``)."""
    new = room_id is None
    rid = str(fields.get("id") or "").strip() if room_id is None else room_id
    if new and not _ROOM_ID.fullmatch(rid):
        return Refusal(text(locale, "setup.error.room_id"), "id")
    if new and rid in venue.rooms and venue.rooms[rid].active:
        return Refusal(text(locale, "setup.error.room_taken", id=rid), "id")
    name = str(fields.get("name") or "").strip()
    if not name:
        return Refusal(text(locale, "setup.error.name"), "name")
    parts = _PART.findall(str(fields.get("parts") or ""))
    if not parts:
        return Refusal(text(locale, "setup.error.parts"), "parts")
    entry: dict[str, Any] = {"id": rid, "name": name, "parts": parts}
    entry["turnover_min"] = fields.get("turnover") if fields.get("turnover") is not None else 60
    if fields.get("capacity") is not None:
        entry["capacity"] = fields["capacity"]
    doc = document(venue)
    rooms = [r if r["id"] != rid else entry for r in doc["rooms"]]
    doc["rooms"] = rooms if not new else [*rooms, entry]
    return _save(deps, doc, user, locale, None, field="name")


def _save(
    deps: Deps,
    doc: dict[str, Any],
    user: str,
    locale: str,
    link: WorkspaceLink | None,
    *,
    field: str | None = None,
) -> Venue | Refusal:
    """Checked exactly as a file `osae venue load` reads, then saved in one transaction."""
    try:
        venue = parse_venue(doc)
    except VenueFileError as err:
        return Refusal(text(locale, "setup.error.file", detail=str(err)), field)
    try:
        return deps.engine.venues.setup_venue(
            venue, actor=user, source=SOURCE, now=deps.now(), link=link
        )
    except VenueConflict as err:
        return Refusal(text(locale, "setup.error.conflict", detail=str(err)), field)


def _free_id(deps: Deps, wanted: str) -> str:
    """``wanted``, or ``wanted-2``, ``-3``... if another venue has it."""
    base = re.sub(r"[^a-z0-9_-]+", "-", wanted).strip("-") or "venue"
    taken = set(deps.engine.venues.venue_ids())
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def _rest(link: WorkspaceLink) -> tuple[str, str | None, bool]:
    return link.workspace_id, link.enterprise_id, link.org_wide
