"""Rooms, kinds and reasons by what people type (docs/rules.md, Names typed): an id as
written, else a name or id with width, case and spaces folded (``瑞雲の間``, ``ＨＯＯ``,
``婚礼``); an unknown word gets what exists, closest first, so the reader sees what was
meant. Pure: the terminal, and any form that takes typed names, ask the same."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core.model import EventKind, Room, Venue


@dataclass(frozen=True)
class Choice:
    """One thing a word may name: its id (what is stored) and its name (what people say)."""

    id: str
    name: str


@dataclass(frozen=True)
class Unknown:
    """A word that names nothing of the venue's (or several things at once): what exists,
    closest first."""

    word: str
    choices: tuple[Choice, ...]


def fold(typed: str) -> str:
    """Full-width and half-width alike, case ignored, spaces of any width left out."""
    return "".join(unicodedata.normalize("NFKC", typed).casefold().split())


def resolve(word: str, choices: Sequence[Choice]) -> Choice | Unknown:
    """The choice ``word`` names: its id as written, else the one whose id or name folds
    the same (two of them: unknown, those two first)."""
    typed = word.strip()
    for choice in choices:
        if choice.id == typed:
            return choice
    key = fold(typed)
    found = [c for c in choices if key and key in (fold(c.id), fold(c.name))]
    if len(found) == 1:
        return found[0]
    return Unknown(
        typed, tuple(found) + tuple(c for c in closest(typed, choices) if c not in found)
    )


def closest(word: str, choices: Iterable[Choice]) -> tuple[Choice, ...]:
    """Every choice, the closest to ``word`` first (by its id or its name, whichever is
    closer; one containing the word, or contained in it, counts as close); ties in the
    venue's order."""
    key = fold(word)

    def score(choice: Choice) -> float:
        best = 0.0
        for said in (fold(choice.id), fold(choice.name)):
            ratio = difflib.SequenceMatcher(None, key, said).ratio()
            if key and said and (key in said or said in key):
                ratio += 1.0
            best = max(best, ratio)
        return best

    listed = list(choices)
    ranked = sorted((-score(c), n) for n, c in enumerate(listed))
    return tuple(listed[n] for _, n in ranked)


def rooms_of(venue: Venue) -> tuple[Choice, ...]:
    """The venue's rooms still sold, in the venue file's order."""
    active = sorted((r for r in venue.rooms.values() if r.active), key=lambda r: r.position)
    return tuple(Choice(r.id, r.name) for r in active)


def room(venue: Venue, word: str) -> Room | Unknown:
    """The active room ``word`` names (``hoo``, ``鳳凰の間``, ``瑞雲 の 間``)."""
    found = resolve(word, rooms_of(venue))
    return found if isinstance(found, Unknown) else venue.rooms[found.id]


def kinds_of(kinds: Sequence[EventKind]) -> tuple[Choice, ...]:
    return tuple(Choice(k.id, k.name) for k in kinds)


def kind(venue: Venue, word: str) -> EventKind | Unknown:
    """The venue's kind ``word`` names (``wedding``, ``婚礼``, ``nijikai``, ``二次会``)."""
    found = resolve(word, kinds_of(venue.policy.kinds))
    if isinstance(found, Unknown):
        return found
    kind_found = venue.policy.kind(found.id)
    assert kind_found is not None  # noqa: S101 - a choice of the venue's kinds
    return kind_found
