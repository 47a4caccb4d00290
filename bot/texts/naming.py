"""Rooms, kinds and release reasons typed by name (``core.rules.naming``): a word that names
none of the venue's, with what exists, closest first. ``JA`` and ``EN`` have the same keys."""

from __future__ import annotations

JA: dict[str, str] = {
    "naming.unknown_room": "部屋「{word}」はこの会場にありません（何も書き込んでいません）。この会場の部屋（近い順）: {choices}",
    "naming.unknown_kind": "種別「{word}」はこの会場にありません（何も書き込んでいません）。この会場の種別（近い順）: {choices}",
    "naming.unknown_reason": "理由「{word}」はこの会場の一覧にありません（何も書き込んでいません）。この会場の理由（近い順）: {choices}",
    "naming.choice": "{name} ({id})",
    "naming.joiner": "、",
}
EN: dict[str, str] = {
    "naming.unknown_room": "The venue has no room '{word}' (nothing was written). Its rooms, closest first: {choices}",
    "naming.unknown_kind": "'{word}' is not a kind of event at this venue (nothing was written). Its kinds, closest first: {choices}",
    "naming.unknown_reason": "'{word}' is not one of the venue's reasons (nothing was written). Its reasons, closest first: {choices}",
    "naming.choice": "{name} ({id})",
    "naming.joiner": ", ",
}
