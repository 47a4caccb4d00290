"""Guests over a room's capacity (``core.rules.capacity``): a warning, never a refusal, in the
/hold preview, on the hold's card and in the terminal. ``JA`` and ``EN`` have the same keys."""

from __future__ import annotations

JA: dict[str, str] = {
    "warning.over_capacity": "{room}の定員は着席{capacity}名です（{guests}名で押さえます）。レイアウトや部屋を確かめてください。",
    "card.over_capacity": ":warning: {room}の定員は着席{capacity}名です（{guests}名）",
}
EN: dict[str, str] = {
    "warning.over_capacity": "{room} seats {capacity} (this hold is for {guests} guests). Check the layout or the room.",
    "card.over_capacity": ":warning: {room} seats {capacity} ({guests} guests)",
}
