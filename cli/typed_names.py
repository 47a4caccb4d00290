"""Rooms and kinds on the command line by id or by name (``--room 瑞雲の間``, ``--kind 婚礼``),
through ``core.rules.naming``; a word that names none of the venue's stops the command (exit
2, nothing written) listing what exists, closest first, in the reader's language."""

from __future__ import annotations

import argparse
from dataclasses import replace

from bot.texts import text
from bot.texts.kinds import kind_name
from cli.context import locale
from cli.errors import CommandError
from core.model import ItemRequest, Venue
from core.rules import naming
from core.rules.naming import Choice, Unknown
from core.rules.reasons import reasons_for


def room_id(venue: Venue, word: str) -> str:
    """The id of the room ``word`` names, or the command stops."""
    found = naming.room(venue, word)
    if isinstance(found, Unknown):
        raise unknown("unknown_room", found)
    return found.id


def kind_id(venue: Venue, word: str) -> str:
    """The id of the kind ``word`` names, or the command stops."""
    found = naming.kind(venue, word)
    if isinstance(found, Unknown):
        refused = unknown("unknown_kind", found)
        refused.facts["kinds"] = [k.id for k in venue.policy.kinds]  # as the engine's said
        raise refused
    return found.id


def reason_code(venue: Venue, word: str | None) -> str | None:
    """The code of the venue's reason ``word`` names (``budget``, ``予算``); any other word
    as given, for the engine to refuse listing the venue's codes (``unknown_reason``)."""
    if not word:
        return word
    found = naming.resolve(word, tuple(Choice(r.code, r.name) for r in reasons_for(venue)))
    return word if isinstance(found, Unknown) else found.id


def resolve_args(args: argparse.Namespace, venue: Venue) -> None:
    """Each of ``--room``, ``--also``, ``--item``, ``--kind`` and ``free --room`` a command
    has, as the ids the engine takes (in place)."""
    if getattr(args, "room", None):
        args.room = room_id(venue, args.room)
    if getattr(args, "item", None):
        args.item = room_id(venue, args.item)
    if getattr(args, "kind", None):
        args.kind = kind_id(venue, args.kind)
    also: list[ItemRequest] = getattr(args, "also", None) or []
    args.also = [replace(item, room_id=room_id(venue, item.room_id)) for item in also]
    if getattr(args, "rooms", None):
        args.rooms = [room_id(venue, word) for word in args.rooms]


def unknown(code: str, found: Unknown) -> CommandError:
    """The refusal of a word that names nothing: exit 2, what exists closest first (its
    JSON as the engine's refusal was: ``field``, the room asked or the venue's ``kinds``;
    and ``choices``, the ids closest first)."""
    said = text(locale(), "naming.joiner").join(_choice(code, c) for c in found.choices)
    message = text(locale(), f"naming.{code}", word=found.word, choices=said)
    field = code.removeprefix("unknown_")
    facts: dict[str, object] = {"field": field, "choices": [c.id for c in found.choices]}
    if field == "room":
        facts["room"] = found.word
    return CommandError(code, message, exit_code=2, facts=facts)


def _choice(code: str, choice: Choice) -> str:
    name = kind_name(choice.id, choice.name, locale()) if code == "unknown_kind" else choice.name
    if name == choice.id:
        return name
    return text(locale(), "naming.choice", name=name, id=choice.id)
