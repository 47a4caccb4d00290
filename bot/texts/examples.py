"""The examples `/hold help` shows, made from the venue's own rooms, kinds and slots: a venue
without 鳳凰 or 昼 is not shown 鳳凰 and 昼 (a Slack Marketplace reviewer reads them too)."""

from __future__ import annotations

from bot.texts import text
from bot.texts.kinds import kind_name
from core.model import Kind, Room, Venue


def help_text(locale: str, venue: Venue | None) -> str:
    """``help.text``, ``help.ledger`` and ``help.diary`` (the picture), their examples filled
    from ``venue`` (None: a workspace with no venue yet reads neutral words: 部屋名 / room)."""
    facts = help_facts(locale, venue)
    ledger = text(locale, "help.ledger", **facts)
    return text(locale, "help.text", **facts) + "\n" + ledger + "\n" + text(locale, "help.diary")


def help_facts(locale: str, venue: Venue | None) -> dict[str, str]:
    """``room`` (the largest room), ``other`` (another, apart from it), ``kind`` (the wedding
    kind as the venue names it) and ``slot`` (" 昼": the venue's first slot, or "")."""
    wedding = kind_name(Kind.WEDDING.value, "", locale)
    if venue is None:
        return {
            "room": text(locale, "help.any_room"),
            "other": text(locale, "help.any_other_room"),
            "kind": wedding,
            "slot": "",
        }
    rooms = sorted((r for r in venue.rooms.values() if r.active), key=lambda r: r.position)
    main = max(rooms, key=lambda r: len(r.parts), default=None)
    apart = [r for r in rooms if main is None or not (r.parts & main.parts)]
    others = apart or [r for r in rooms if r is not main] or rooms
    other = others[-1] if others else None
    weddings = [k for k in venue.policy.kinds if k.cls is Kind.WEDDING]
    kind = kind_name(weddings[0].id, weddings[0].name, locale) if weddings else wedding
    return {
        "room": _word(main) if main else text(locale, "help.any_room"),
        "other": _word(other) if other else text(locale, "help.any_other_room"),
        "kind": _word_of(kind),
        "slot": f" {_word_of(venue.slots[0].name)}" if venue.slots else "",
    }


def _word(room: Room) -> str:
    return _word_of(room.name) or room.id


def _word_of(name: str) -> str:
    """One word a quick form reads (room names match by prefix): the name up to a space."""
    return name.split(maxsplit=1)[0] if name.strip() else name
