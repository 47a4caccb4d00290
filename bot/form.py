"""The /hold modal's contents: what its inputs hold (its private_metadata is ``bot.metadata``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, TypeVar

from bot import ids, strict
from bot.quickform import QuickForm
from core.model import Details, HoldRequest, ItemRequest
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
    ids.ESTIMATE: "field.invalid_estimate",
    ids.PLAN: "field.invalid_text",
    ids.NEXT_ACTION: "field.invalid_date",
    ids.NEXT_ACTION_NOTE: "field.invalid_text",
    ids.HOUSE: "house.invalid",
}


def invalid_text(block: str) -> str:
    """The catalog key of what an unreadable input is told (a further row's: its time)."""
    return INVALID.get(block, "field.invalid_time")


PREVIEW_CUSTOMER = "-"  # stands in for a customer not typed yet: the preview is about the slot


@dataclass(frozen=True)
class Row:
    """A further room of the hold: its row's key (block ids), room and clock minutes."""

    key: int
    room_id: str | None = None
    start_min: int | None = None
    end_min: int | None = None

    @property
    def complete(self) -> bool:
        return None not in (self.room_id, self.start_min, self.end_min)

    def item(self) -> ItemRequest:
        """The engine's item; call only once ``complete``."""
        assert self.room_id and self.start_min is not None and self.end_min is not None  # noqa: S101
        return ItemRequest(self.room_id, self.start_min, end_minute(self.start_min, self.end_min))

    def blocks(self) -> tuple[str, str, str]:
        return ids.item_room(self.key), ids.item_start(self.key), ids.item_end(self.key)


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
    rows: tuple[Row, ...] = ()  # further rooms on the same date (a package)
    enquiry_id: int | None = None  # another candidate date of this enquiry
    details: Details = field(default_factory=Details)  # estimate, plan, source, next action
    house: bool = False  # 社内押さえ (checked on the server: a manager's only)

    @classmethod
    def from_quick(cls, quick: QuickForm, salesperson: str, max_items: int = 1) -> Form:
        """The quick form's fields; of its rooms, the first ``max_items``."""
        rows = tuple(
            Row(key, item.room_id, item.start_min, item.end_min)
            for key, item in enumerate(quick.also[: max(max_items - 1, 0)], start=1)
        )
        return cls(
            rows=rows,
            room_id=quick.room_id,
            day=quick.day,
            start_min=quick.start_min,
            end_min=quick.end_min,
            kind=quick.kind,
            customer=quick.customer or "",
            salesperson=salesperson,
            guests=quick.guests,
            house=quick.house,
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
        for row in self.rows:
            given.update(zip(row.blocks(), (row.room_id, row.start_min, row.end_min), strict=True))
        return [
            block
            for block, value in given.items()
            if value in (None, "") and block not in self.invalid
        ]

    def slot_chosen(self) -> bool:
        """Room, date, times and kind, and every further row whole: enough for a preview."""
        first = None not in (self.room_id, self.day, self.start_min, self.end_min, self.kind)
        return first and all(row.complete for row in self.rows)

    def row_block(self, room_id: str | None, field: str | None) -> str | None:
        """The input block a refusal of ``field`` of the room ``room_id`` belongs on."""
        if field not in ("room", "start", "end"):
            return ids.FIELD_BLOCKS.get(field or "")
        if self.rows and room_id is not None:
            rows = [(self.room_id, (ids.ROOM, ids.START, ids.END))]
            rows += [(row.room_id, row.blocks()) for row in self.rows]
            matching = [blocks for room, blocks in rows if room == room_id]
            if not matching:
                return None  # said above the form
            # A room in several rows: the later one (an overlap names the later of the two).
            return matching[-1][("room", "start", "end").index(field)]
        return ids.FIELD_BLOCKS[field]

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
            also=tuple(row.item() for row in self.rows),
            enquiry_id=self.enquiry_id,
            guests=self.guests,
            contact=self.contact,
            details=self.details,
            house=self.house,
        )

    def preview_request(self, creator: str) -> HoldRequest:
        """As ``request``, with stand-ins for the fields a preview does not depend on."""
        joining = self.enquiry_id is not None  # left empty, the enquiry's own is taken
        filled = replace(
            self,
            customer=self.customer.strip() or ("" if joining else PREVIEW_CUSTOMER),
            salesperson=self.salesperson or ("" if joining else creator),
            note="",
            contact="",
        )
        return filled.request(creator)


def read_form(
    values: Mapping[str, Any], rows: tuple[int, ...] = (), enquiry_id: int | None = None
) -> Form:
    """``view.state.values`` (block_id -> action_id -> state) as a Form; unset fields None,
    and fields set to something no picker sends (``11:60``, ``2027-02-30``, a user id that
    is not one) None and named in ``invalid``. ``rows``: the keys of the further room rows
    the form shows (its metadata)."""

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

    further = tuple(
        Row(
            key,
            selected(ids.item_room(key)),
            strictly(ids.item_start(key), "selected_time", strict.clock),
            strictly(ids.item_end(key), "selected_time", strict.clock),
        )
        for key in rows
    )
    return Form(
        rows=further,
        enquiry_id=enquiry_id,
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
        details=Details(
            estimate=strictly(ids.ESTIMATE, "value", strict.whole_yen),
            plan=strictly(ids.PLAN, "value", strict.typed_text) or "",
            source=selected(ids.SOURCE) or "",
            next_action=strictly(ids.NEXT_ACTION, "selected_date", strict.iso_date),
            next_action_note=strictly(ids.NEXT_ACTION_NOTE, "value", strict.typed_text) or "",
        ),
        house=strictly(ids.HOUSE, "selected_options", _house) or False,
        invalid=tuple(invalid),
    )


def _house(raw: object) -> bool | None:
    """The house checkbox's selected options: ticked, not ticked, or None (not ours)."""
    if not isinstance(raw, list):
        return None
    values = [o.get("value") if isinstance(o, Mapping) else None for o in raw]
    if any(v != ids.HOUSE_VALUE for v in values):
        return None
    return bool(values)
