"""What a modal remembers between requests: Slack's ``private_metadata``, in one format.

Every modal osae opens (the /hold form, the Confirm and cancel dialogs) carries one ``Meta``,
written by ``dump`` and read back by ``load``. Slack returns it as it was set, but anyone
can craft a payload, so ``load`` reads it as strictly as any other field: a value that is
not what ``dump`` writes reads as nothing (None, the default locale, no notes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from bot import ids, strict
from bot.texts import DEFAULT_LOCALE

MAX_METADATA = 3000  # characters: Slack's limit for private_metadata
MAX_NOTES, MAX_NOTE = 3, 200  # what is kept of the notes when the whole would be too long
MAX_ROWS = 15  # further room rows kept: beyond any venue's max_items, within 100 blocks


@dataclass(frozen=True)
class Source:
    """Where a clicked button sits: a message (channel, ts), or a view (App Home, a modal)."""

    channel: str | None = None
    ts: str | None = None
    response_url: str | None = None
    ephemeral: bool = False
    hold_ids: tuple[int, ...] = ()  # the holds with buttons in that message, in order
    header: str | None = None  # the message's header text, if it has one (a digest)

    @classmethod
    def of(cls, body: dict[str, Any]) -> Source:
        """From a block_actions payload (its shape checked by ``bot.payloads``)."""
        container = body.get("container") or {}
        if container.get("type") != "message":
            return cls()
        blocks = (body.get("message") or {}).get("blocks") or []
        return cls(
            channel=container.get("channel_id") or (body.get("channel") or {}).get("id"),
            ts=container.get("message_ts"),
            response_url=body.get("response_url"),
            ephemeral=bool(container.get("is_ephemeral")),
            hold_ids=_hold_ids(m.group(1) for b in blocks if (m := _card_actions(b))),
            header=next((b["text"]["text"] for b in blocks if b.get("type") == "header"), None),
        )

    @property
    def is_message(self) -> bool:
        return bool(self.channel and self.ts) or bool(self.ephemeral and self.response_url)


@dataclass(frozen=True)
class Meta:
    """A modal's memory; each modal sets the fields it needs."""

    locale: str = DEFAULT_LOCALE  # the language the modal speaks
    channel: str | None = None  # where /hold was typed: the result is posted there
    response_url: str | None = None  # the command's, to answer if the bot cannot post
    notes: tuple[str, ...] = ()  # what the quick form did not understand, already worded
    hold_id: int | None = None  # the hold a dialog is about (Confirm, cancel)
    source: Source | None = None  # the message whose button opened the dialog
    rows: tuple[int, ...] = ()  # the /hold form's further room rows, by key (``ids.item_room``)
    last_row: int = 0  # the highest row key this form has used (a removed row's is not reused)
    enquiry_id: int | None = None  # the form adds a candidate date to this enquiry
    version: int | None = None  # an edit form: the hold's version when it was opened
    item: str | None = None  # an edit form: the room of the hold's item it shows
    # a hotel group's /hold form: the workspace's venues (id, name) its venue select offers
    venues: tuple[tuple[str, str], ...] = ()
    # an edit form: the change (``bot.edit_form.change_key``) its user confirmed although it
    # costs the hold its 1st place; a different change asks again
    lose_first: str | None = None
    # an edit form of a package: its rooms (id, name), any of which the form can change
    items: tuple[tuple[str, str], ...] = ()
    house: bool = False  # a manager's /hold form: it offers 社内押さえ (the engine checks)

    @property
    def editing(self) -> bool:
        """The /hold form opened by "Edit" on ``hold_id`` (its submission changes that hold)."""
        return self.hold_id is not None and self.version is not None

    def dump(self) -> str:
        data = {
            "l": self.locale,
            "c": self.channel,
            "r": self.response_url,
            "n": list(self.notes),
            "h": self.hold_id,
            "s": _dump_source(self.source) if self.source is not None else None,
            "k": list(self.rows),
            "m": self.last_row or None,
            "q": self.enquiry_id,
            "v": self.version,
            "i": self.item,
            "w": [list(pair) for pair in self.venues],
            "x": self.lose_first,
            "p": [list(pair) for pair in self.items],
            "o": True if self.house else None,
        }
        raw = json.dumps(
            {key: value for key, value in data.items() if value not in (None, [])},
            ensure_ascii=False,
            separators=(",", ":"),
        )
        shorter = tuple(note[:MAX_NOTE] for note in self.notes[:MAX_NOTES])
        if len(raw) > MAX_METADATA and shorter != self.notes:  # notes are the open-ended part
            return replace(self, notes=shorter).dump()
        return raw

    @classmethod
    def load(cls, raw: object) -> Meta:
        data = _object(raw)
        notes = data.get("n")
        source = data.get("s")
        rows = data.get("k")
        return cls(
            locale=_text(data.get("l")) or DEFAULT_LOCALE,
            channel=strict.slack_id(data.get("c")),
            response_url=strict.url(data.get("r")),
            notes=tuple(str(n) for n in notes) if isinstance(notes, list) else (),
            hold_id=strict.hold_id(data.get("h")),
            source=_load_source(source) if isinstance(source, dict) else None,
            rows=_row_keys(rows if isinstance(rows, list) else ()),
            last_row=_last_row(data.get("m")),
            enquiry_id=strict.hold_id(data.get("q")),  # an enquiry id has the same range
            version=strict.hold_id(data.get("v")),  # a positive integer, as an id is
            item=_text(data.get("i")),
            venues=_venues(data.get("w")),
            lose_first=_text(data.get("x")),
            items=_venues(data.get("p")),  # (id, name) pairs, read as a group's venues are
            house=data.get("o") is True,
        )


def _dump_source(source: Source) -> dict[str, Any]:
    return {
        "c": source.channel,
        "t": source.ts,
        "u": source.response_url,
        "e": source.ephemeral,
        "i": list(source.hold_ids),
        "h": source.header,
    }


def _load_source(data: dict[str, Any]) -> Source:
    hold_ids = data.get("i")
    return Source(
        channel=strict.slack_id(data.get("c")),
        ts=_text(data.get("t")),
        response_url=strict.url(data.get("u")),
        ephemeral=data.get("e") is True,
        hold_ids=_hold_ids(hold_ids if isinstance(hold_ids, list) else ()),
        header=_text(data.get("h")),
    )


def _object(raw: object) -> dict[str, Any]:
    """private_metadata as the object we wrote; {} for anything else."""
    try:
        data = json.loads(raw) if isinstance(raw, str) and raw else {}
    except (ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _card_actions(block: dict[str, Any]) -> re.Match[str] | None:
    block_id = block.get("block_id")
    return ids.CARD_ACTIONS.fullmatch(block_id) if isinstance(block_id, str) else None


def _hold_ids(raw: Iterable[object]) -> tuple[int, ...]:
    return tuple(i for i in map(strict.hold_id, raw) if i is not None)


def _row_keys(raw: Iterable[object]) -> tuple[int, ...]:
    """Distinct row keys in range, at most as many as a hold may have rooms of any venue."""
    keys: list[int] = []
    for value in raw:
        if type(value) is int and 0 < value <= ids.MAX_ROW_KEY and value not in keys:
            keys.append(value)
    return tuple(keys[:MAX_ROWS])


def _last_row(value: object) -> int:
    return value if type(value) is int and 0 < value <= ids.MAX_ROW_KEY else 0


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


MAX_VENUES = 20  # a hotel group's venues in one select (metadata stays within its limit)


def _venues(raw: object) -> tuple[tuple[str, str], ...]:
    """``[[id, name], ...]`` as ``dump`` writes it; anything else reads as none."""
    if not isinstance(raw, list):
        return ()
    pairs = [
        (str(pair[0])[:64], str(pair[1])[:75])
        for pair in raw[:MAX_VENUES]
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, str) and v for v in pair)
    ]
    return tuple(pairs)
