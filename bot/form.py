"""The /hold modal's contents: what its inputs hold (its private_metadata is ``bot.metadata``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, TypeVar

from bot import ids, strict
from bot.quickform import QuickForm
from core.model import HoldRequest
from core.rules.spans import end_minute

T = TypeVar("T")
REQUIRED = (ids.ROOM, ids.DATE, ids.START, ids.END, ids.KIND, ids.CUSTOMER, ids.SALESPERSON)
# What an input left empty is told (the catalog key): each names what it wants.
REQUIRED_TEXT = {
    ids.ROOM: "field.required.room",
    ids.DATE: "field.required.date",
    ids.START: "field.required.start",
    ids.END: "field.required.end",
    ids.KIND: "field.required.kind",
    ids.CUSTOMER: "field.required.customer",
    ids.SALESPERSON: "field.required.salesperson",
}
# What an input set to something unreadable is told (the catalog key), by block id.
INVALID = {
    ids.CUSTOMER: "field.invalid_text",
    ids.NOTE: "field.invalid_text",
    ids.CONTACT: "field.invalid_text",
    ids.GUESTS: "field.invalid_guests",
    ids.DATE: "field.invalid_date",
    ids.START: "field.invalid_time",
    ids.END: "field.invalid_time",
    ids.SALESPERSON: "field.invalid_user",
}
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
    guests: int | None = None
    contact: str = field(default="", repr=False)  # never logged
    invalid: tuple[str, ...] = ()  # block ids of inputs set to something unreadable

    @classmethod
    def from_quick(cls, quick: QuickForm, salesperson: str) -> Form:
        return cls(
            room_id=quick.room_id,
            day=quick.day,
            start_min=quick.start_min,
            end_min=quick.end_min,
            kind=quick.kind,
            customer=quick.customer or "",
            salesperson=salesperson,
            guests=quick.guests,
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
        return [
            block for block in REQUIRED if given[block] in (None, "") and block not in self.invalid
        ]

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
            guests=self.guests,
            contact=self.contact,
        )

    def preview_request(self, creator: str) -> HoldRequest:
        """As ``request``, with stand-ins for the fields a preview does not depend on."""
        filled = replace(
            self,
            customer=self.customer.strip() or PREVIEW_CUSTOMER,
            salesperson=self.salesperson or creator,
            note="",
            contact="",
        )
        return filled.request(creator)


def read_form(values: Mapping[str, Any]) -> Form:
    """``view.state.values`` (block_id -> action_id -> state) as a Form; unset fields None,
    and fields set to something no picker sends (``11:60``, ``2027-02-30``, a user id that
    is not one) None and named in ``invalid``."""

    def state(block: str) -> Mapping[str, Any]:
        states = values.get(block)
        element = states.get(block) if isinstance(states, Mapping) else None
        return element if isinstance(element, Mapping) else {}

    def selected(block: str) -> str | None:
        option = state(block).get("selected_option")
        value = option.get("value") if isinstance(option, Mapping) else None
        return value if isinstance(value, str) and value else None

    invalid: list[str] = []

    def strictly(block: str, key: str, read: Callable[[object], T | None]) -> T | None:
        raw = state(block).get(key)
        value = read(raw) if raw not in (None, "") else None
        if raw not in (None, "") and value is None:
            invalid.append(block)
        return value

    return Form(
        room_id=selected(ids.ROOM),
        day=strictly(ids.DATE, "selected_date", strict.iso_date),
        start_min=strictly(ids.START, "selected_time", strict.clock),
        end_min=strictly(ids.END, "selected_time", strict.clock),
        kind=selected(ids.KIND),
        customer=strictly(ids.CUSTOMER, "value", strict.typed_text) or "",
        salesperson=strictly(ids.SALESPERSON, "selected_user", strict.user_id),
        note=strictly(ids.NOTE, "value", lambda raw: strict.typed_text(raw, lines=True)) or "",
        guests=strictly(ids.GUESTS, "value", strict.count),
        contact=strictly(ids.CONTACT, "value", strict.typed_text) or "",
        invalid=tuple(invalid),
    )
