"""The /hold modal's contents: what its inputs hold, and what it carries in private_metadata."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from bot import ids
from bot.quickform import QuickForm
from core.model import HoldRequest
from core.rules.spans import end_minute

REQUIRED = (ids.ROOM, ids.DATE, ids.START, ids.END, ids.KIND, ids.CUSTOMER, ids.SALESPERSON)
PREVIEW_CUSTOMER = "-"  # stands in for a customer not typed yet: the preview is about the slot


@dataclass(frozen=True)
class Form:
    """The modal's fields; times are clock minutes (an end at or before the start: next day)."""

    room_id: str | None = None
    day: date | None = None
    start_min: int | None = None
    end_min: int | None = None
    kind: str | None = None
    customer: str = ""
    salesperson: str | None = None
    note: str = ""

    @classmethod
    def from_quick(cls, quick: QuickForm, salesperson: str) -> Form:
        return cls(
            room_id=quick.room_id,
            day=quick.day,
            start_min=quick.start_min,
            end_min=quick.end_min,
            kind=quick.kind.value if quick.kind else None,
            customer=quick.customer or "",
            salesperson=salesperson,
        )

    def missing(self) -> list[str]:
        """Block ids of required inputs left empty (Slack checks too; this is the server's say)."""
        given = {
            ids.ROOM: self.room_id,
            ids.DATE: self.day,
            ids.START: self.start_min,
            ids.END: self.end_min,
            ids.KIND: self.kind,
            ids.CUSTOMER: self.customer.strip(),
            ids.SALESPERSON: self.salesperson,
        }
        return [block for block in REQUIRED if given[block] in (None, "")]

    def slot_chosen(self) -> bool:
        """Room, date, times and kind: enough for a preview."""
        return None not in (self.room_id, self.day, self.start_min, self.end_min, self.kind)

    def request(self, creator: str) -> HoldRequest:
        """The engine's request; call only once ``slot_chosen()`` (the engine checks the rest)."""
        assert self.room_id and self.day and self.kind  # noqa: S101 - see slot_chosen
        assert self.start_min is not None and self.end_min is not None  # noqa: S101
        return HoldRequest(
            room_id=self.room_id,
            local_date=self.day,
            start_min=self.start_min,
            end_min=end_minute(self.start_min, self.end_min),
            kind=self.kind,
            customer=self.customer,
            salesperson=self.salesperson or "",
            creator=creator,
            note=self.note,
        )

    def preview_request(self, creator: str) -> HoldRequest:
        """As ``request``, with stand-ins for the fields a preview does not depend on."""
        filled = replace(
            self,
            customer=self.customer.strip() or PREVIEW_CUSTOMER,
            salesperson=self.salesperson or creator,
            note="",
        )
        return filled.request(creator)


def read_form(values: Mapping[str, Mapping[str, Any]]) -> Form:
    """``view.state.values`` (block_id -> action_id -> state) as a Form; unset fields None."""

    def state(block: str) -> Mapping[str, Any]:
        return values.get(block, {}).get(block) or {}

    def selected(block: str) -> str | None:
        option = state(block).get("selected_option") or {}
        return option.get("value") or None

    return Form(
        room_id=selected(ids.ROOM),
        day=_date(state(ids.DATE).get("selected_date")),
        start_min=_clock(state(ids.START).get("selected_time")),
        end_min=_clock(state(ids.END).get("selected_time")),
        kind=selected(ids.KIND),
        customer=state(ids.CUSTOMER).get("value") or "",
        salesperson=state(ids.SALESPERSON).get("selected_user") or None,
        note=state(ids.NOTE).get("value") or "",
    )


@dataclass(frozen=True)
class ModalMeta:
    """What the modal remembers between requests (Slack's private_metadata, ≤ 3000 chars)."""

    channel: str | None  # where /hold was typed: the result is posted there
    locale: str
    notes: tuple[str, ...] = ()  # what the quick form did not understand, already worded
    response_url: str | None = None  # the command's, to post if the bot is not in the channel

    def dump(self) -> str:
        data = {"c": self.channel, "l": self.locale, "n": list(self.notes), "r": self.response_url}
        raw = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        if len(raw) > 3000:  # notes are the only open-ended part
            return replace(self, notes=tuple(n[:200] for n in self.notes[:3])).dump()
        return raw

    @classmethod
    def load(cls, raw: str | None) -> ModalMeta:
        try:
            data = json.loads(raw or "{}")
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        return cls(
            channel=data.get("c") or None,
            locale=data.get("l") or "ja",
            notes=tuple(str(n) for n in data.get("n") or ()),
            response_url=data.get("r") or None,
        )


def _date(raw: object) -> date | None:
    try:
        return date.fromisoformat(str(raw)) if raw else None
    except ValueError:
        return None


def _clock(raw: object) -> int | None:
    """ "HH:MM" from a timepicker as minutes after midnight."""
    try:
        hours, minutes = str(raw).split(":")
        value = int(hours) * 60 + int(minutes)
    except ValueError:
        return None
    return value if 0 <= value < 1440 else None
