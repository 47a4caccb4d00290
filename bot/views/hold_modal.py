"""The /hold modal: a loading placeholder, then the form with its live preview line."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    DatePickerElement,
    ExternalDataSelectElement,
    InputBlock,
    NumberInputElement,
    Option,
    OptionGroup,
    PlainTextInputElement,
    RadioButtonsElement,
    SectionBlock,
    StaticSelectElement,
    TimePickerElement,
    UserSelectElement,
)
from slack_sdk.models.views import View

from bot import ids
from bot.blocks import SerializedInput, context, plain, section
from bot.form import Form, Row
from bot.metadata import Meta
from bot.quickform import QuickForm
from bot.rooms import RoomGroups, group_rooms
from bot.texts import esc, lang, text
from bot.texts.kinds import kind_choices, kind_name
from bot.views.detail_fields import detail_blocks, item_pick
from bot.views.house import house_choice
from core.model import EventKind, Room, Venue
from core.rules.requests import MAX_CONTACT, MAX_CUSTOMER, MAX_GUESTS, MAX_NOTE

LOADING_TITLE = "仮押さえ / Hold"  # before the user's language is known
# Slack allows 100 options in a static menu (and 100 in each of up to 100 groups: read either
# way, a menu of at most 100 rooms is within it). Past that, rooms are found as typed.
MAX_MENU_ROOMS = 100
MAX_RADIO = 10  # Slack's most radio buttons; a venue with more kinds gets a menu


def loading_modal() -> View:
    """Opened at once, within the trigger's 3 seconds; replaced by the form when it is built."""
    return View(
        type="modal",
        callback_id=ids.HOLD_MODAL,
        title=plain(LOADING_TITLE, 24),
        close=plain("×", 24),
        blocks=[section(":hourglass_flowing_sand: 読み込み中… / Loading…")],
    )


def hold_modal(
    venue: Venue,
    form: Form,
    meta: Meta,
    *,
    preview: str,
    refusal: str | None = None,
    alternatives: Sequence[Block] = (),
) -> View:
    """The form, prefilled from ``form``; ``preview`` is the one-line rank preview; a
    refusal's ``alternatives`` (their buttons open the form with one) follow it."""
    locale = meta.locale
    notes = [*meta.notes, *([text(locale, "modal.refused", reason=refusal)] if refusal else [])]
    blocks: list[Block] = [section("\n".join(notes), block_id=ids.NOTICE)] if notes else []
    if len(meta.venues) > 1 and not meta.editing:
        blocks.insert(0, _venue_pick(venue.id, meta.venues, locale))
    if meta.editing and meta.item is not None and len(meta.items) > 1:  # a form of before
        blocks.insert(0, item_pick(meta.items, meta.item, locale))  # every room was a row
    blocks += alternatives
    # An edit changes guests too (the booking's); its contact only from the terminal or a
    # further candidate date: whoever edits may not be one who may read it.
    guests = [_optional(ids.GUESTS, "field.guests", _guests(form), locale)]
    contact = (
        []
        if meta.editing
        else [_optional(ids.CONTACT, "field.contact", _contact(form, locale), locale, hint=True)]
    )
    blocks += [
        _input(ids.DATE, "field.date", _date_picker(form), locale),
        _input(ids.ROOM, "field.room", _room_select(venue, ids.ROOM, form.room_id, locale), locale),
        _input(ids.START, "field.start", _time_picker(ids.START, form.start_min), locale),
        _input(ids.END, "field.end", _time_picker(ids.END, form.end_min), locale, hint=True),
        *_rows(venue, form, locale),  # a package's further rooms (an edit's too): + / remove
        _input(ids.KIND, "field.kind", _kinds(venue.policy.kinds, form.kind, locale), locale),
        context(preview, block_id=ids.PREVIEW),
        *(house_choice(form.house, locale) if meta.house and not meta.editing else []),
        _input(ids.CUSTOMER, "field.customer", _customer(form, locale), locale),
        *guests,
        _input(ids.SALESPERSON, "field.salesperson", _salesperson(form), locale, dispatch=False),
        *contact,
        _note(form, locale),
        *detail_blocks(venue, form.details, locale),
    ]
    title, submit = (
        ("edit.title", "edit.submit") if meta.editing else ("modal.title", "modal.submit")
    )
    if meta.enquiry_id and not meta.editing:
        title = "modal.title.another"
    return View(
        type="modal",
        callback_id=ids.HOLD_MODAL,
        title=plain(text(locale, title), 24),
        submit=plain(text(locale, submit), 24),
        close=plain(text(locale, "modal.close"), 24),
        private_metadata=meta.dump(),
        blocks=blocks,
    )


def quick_notes(
    quick: QuickForm, locale: str, max_items: int = 0, kinds: tuple[EventKind, ...] = ()
) -> tuple[str, ...]:
    """What the quick form did not understand, worded for the top of the modal: words, rooms
    it could mean several of, pieces after a ``+`` that are not a room with its times, rooms
    beyond the venue's ``max_items`` (left out of the form), and an event word that is not
    one of the venue's kinds (with the kinds there are)."""
    quote = "「{}」" if lang(locale) == "ja" else "'{}'"
    parts = [esc(quote.format(word)) for word in quick.unparsed]
    parts += [
        text(locale, "modal.ambiguous", word=esc(word), rooms=", ".join(map(esc, rooms)))
        for word, rooms in quick.ambiguous
    ]
    notes = [text(locale, "modal.unparsed", parts=" / ".join(parts))] if parts else []
    notes += [
        text(locale, "modal.unknown_kind", word=esc(word), kinds=kind_choices(kinds, locale))
        for word in quick.unknown_kinds
    ]
    if quick.bad_items:
        pieces = " / ".join(esc(quote.format(piece)) for piece in quick.bad_items)
        notes.append(text(locale, "modal.bad_item", pieces=pieces))
    if max_items and len(quick.also) + 1 > max_items:
        notes.append(text(locale, "modal.too_many_rooms", limit=max_items))
    return tuple(notes)


def _rows(venue: Venue, form: Form, locale: str) -> list[Block]:
    """Each further room's row (room, start, end, its remove button), then "+ Add a room"
    while the hold has fewer rooms than the venue allows."""
    blocks: list[Block] = []
    for number, row in enumerate(form.rows, start=2):
        room_block, start_block, end_block = row.blocks()
        room = _room_select(venue, room_block, row.room_id, locale)
        blocks += [
            _input(room_block, "field.room", room, locale, number=number),
            _input(
                start_block,
                "field.start",
                _time_picker(start_block, row.start_min),
                locale,
                number=number,
            ),
            _input(
                end_block, "field.end", _time_picker(end_block, row.end_min), locale, number=number
            ),
            ActionsBlock(block_id=ids.remove_row(row.key), elements=[_remove(row, number, locale)]),
        ]
    if len(form.rows) + 1 < venue.policy.max_items:
        add = ButtonElement(
            text=plain(text(locale, "modal.add_room")), action_id=ids.ADD_ROOM, value="add"
        )
        blocks.append(ActionsBlock(block_id=ids.ROWS_ACTIONS, elements=[add]))
    return blocks


def _remove(row: Row, number: int, locale: str) -> ButtonElement:
    return ButtonElement(
        text=plain(text(locale, "modal.remove_room", number=number)),
        action_id=ids.REMOVE_ROOM,
        value=str(row.key),
    )


def _input(
    block_id: str,
    label: str,
    element: object,
    locale: str,
    *,
    dispatch: bool = True,
    hint: bool = False,
    number: int | None = None,
) -> InputBlock:
    """An input; ``number``: the room row it belongs to (``部屋 2``), from the second on."""
    said = text(locale, label)
    return InputBlock(
        block_id=block_id,
        label=plain(said if number is None else f"{said} {number}", 2000),
        element=element,  # type: ignore[arg-type]
        dispatch_action=dispatch,  # a change sends block_actions: the preview follows it
        hint=plain(text(locale, f"{label}.hint"), 2000) if hint else None,
    )


def _optional(
    block_id: str, label: str, element: object, locale: str, *, hint: bool = False
) -> InputBlock:
    block = _input(block_id, label, element, locale, dispatch=False, hint=hint)
    block.optional = True
    return block


def room_option(room: Room) -> Option:
    return Option(value=room.id, text=plain(room.name))


def room_groups(groups: RoomGroups, locale: str) -> list[OptionGroup]:
    return [
        OptionGroup(label=plain(text(locale, key)), options=[room_option(r) for r in rooms])
        for key, rooms in groups.labelled()
    ]


def _room_select(venue: Venue, action_id: str, chosen: str | None, locale: str) -> SerializedInput:
    return _room_menu(tuple(venue.rooms.values()), action_id, chosen, locale)


@lru_cache(maxsize=1024)
def _room_menu(
    rooms: tuple[Room, ...], action_id: str, chosen: str | None, locale: str
) -> SerializedInput:
    """Every room in one menu while they fit (``MAX_MENU_ROOMS``); a venue with more gets a
    menu that finds rooms as their name is typed (``block_suggestion``), so every room can
    be chosen and the room already chosen is always a valid initial option. Built and
    validated once per set of rooms, row and choice (the rooms are the key: a venue saved
    with other rooms gets another menu)."""
    groups = group_rooms(rooms)
    room = next((r for r in rooms if r.id == chosen), None)
    initial = room_option(room) if room and room.active else None
    placeholder = plain(text(locale, "field.room.placeholder"), 150)
    if groups.count > MAX_MENU_ROOMS:
        return SerializedInput(
            ExternalDataSelectElement(
                action_id=action_id,
                placeholder=placeholder,
                initial_option=initial,
                min_query_length=0,  # the first rooms show before anything is typed
            )
        )
    return SerializedInput(
        StaticSelectElement(
            action_id=action_id,
            placeholder=placeholder,
            option_groups=room_groups(groups, locale),
            initial_option=initial,
        )
    )


def _date_picker(form: Form) -> DatePickerElement:
    initial = form.day.isoformat() if form.day else None
    return DatePickerElement(action_id=ids.DATE, initial_date=initial)


def _time_picker(action_id: str, minutes: int | None) -> TimePickerElement:
    initial = f"{minutes // 60:02d}:{minutes % 60:02d}" if minutes is not None else None
    return TimePickerElement(action_id=action_id, initial_time=initial)


@lru_cache(maxsize=256)
def _kinds(kinds: tuple[EventKind, ...], kind: str | None, locale: str) -> SerializedInput:
    """The venue's kinds: buttons while they fit, else a menu; validated once per choice."""
    options = [Option(value=k.id, text=plain(kind_name(k.id, k.name, locale))) for k in kinds]
    initial = next((o for o in options if o.value == kind), None)
    if len(options) > MAX_RADIO:
        return SerializedInput(
            StaticSelectElement(
                action_id=ids.KIND,
                placeholder=plain(text(locale, "field.kind"), 150),
                options=options[:MAX_MENU_ROOMS],
                initial_option=initial,
            )
        )
    return SerializedInput(
        RadioButtonsElement(action_id=ids.KIND, options=options, initial_option=initial)
    )


def _guests(form: Form) -> NumberInputElement:
    return NumberInputElement(
        action_id=ids.GUESTS,
        is_decimal_allowed=False,
        initial_value=form.guests,
        min_value=1,
        max_value=MAX_GUESTS,
    )


def _contact(form: Form, locale: str) -> PlainTextInputElement:
    return PlainTextInputElement(
        action_id=ids.CONTACT,
        initial_value=form.contact or None,
        max_length=MAX_CONTACT,
        placeholder=plain(text(locale, "field.contact.placeholder"), 150),
    )


def _customer(form: Form, locale: str) -> PlainTextInputElement:
    return PlainTextInputElement(
        action_id=ids.CUSTOMER,
        initial_value=form.customer or None,
        max_length=MAX_CUSTOMER,
        placeholder=plain(text(locale, "field.customer.placeholder"), 150),
    )


def _salesperson(form: Form) -> UserSelectElement:
    return UserSelectElement(action_id=ids.SALESPERSON, initial_user=form.salesperson)


def _note(form: Form, locale: str) -> InputBlock:
    element = PlainTextInputElement(
        action_id=ids.NOTE, multiline=True, initial_value=form.note or None, max_length=MAX_NOTE
    )
    block = _input(ids.NOTE, "field.note", element, locale, dispatch=False)
    block.optional = True
    return block


def _venue_pick(current: str, venues: Sequence[tuple[str, str]], locale: str) -> Block:
    """A hotel group's workspace: which venue this hold is for (``bot.venue_choice``)."""
    options = [Option(value=venue_id, label=name) for venue_id, name in venues]
    chosen = next((o for o in options if o.value == current), options[0])
    element = StaticSelectElement(action_id=ids.VENUE_PICK, options=options, initial_option=chosen)
    return SectionBlock(
        block_id=ids.VENUE_PICK, text=f"*{text(locale, 'venue.pick.label')}*", accessory=element
    )
