"""The /hold form's fields for what else a booking carries (docs/rules.md, The booking
record): estimate, plan, source (the venue's list), next action and its note; all optional,
prefilled from the form (an edit's: the booking's)."""

from __future__ import annotations

from slack_sdk.models.blocks import (
    Block,
    DatePickerElement,
    InputBlock,
    InputInteractiveElement,
    NumberInputElement,
    Option,
    PlainTextInputElement,
    SectionBlock,
    StaticSelectElement,
)

from bot import ids
from bot.blocks import plain
from bot.texts import text
from core.model import Details, Venue
from core.rules.details import MAX_ACTION_NOTE, MAX_ESTIMATE, MAX_PLAN


def detail_blocks(venue: Venue, details: Details, locale: str) -> list[Block]:
    options = [Option(value=code, text=plain(name, 75)) for code, name in venue.policy.sources]
    chosen = next((o for o in options if o.value == details.source), None)
    action = details.next_action.isoformat() if details.next_action else None
    fields: list[tuple[str, str, InputInteractiveElement]] = [
        (
            ids.ESTIMATE,
            "field.estimate",
            NumberInputElement(
                action_id=ids.ESTIMATE,
                is_decimal_allowed=False,
                initial_value=details.estimate,
                min_value=0,
                max_value=MAX_ESTIMATE,
            ),
        ),
        (
            ids.PLAN,
            "field.plan",
            PlainTextInputElement(
                action_id=ids.PLAN, initial_value=details.plan or None, max_length=MAX_PLAN
            ),
        ),
        (
            ids.SOURCE,
            "field.source",
            StaticSelectElement(action_id=ids.SOURCE, options=options[:100], initial_option=chosen),
        ),
        (
            ids.NEXT_ACTION,
            "field.next_action",
            DatePickerElement(action_id=ids.NEXT_ACTION, initial_date=action),
        ),
        (
            ids.NEXT_ACTION_NOTE,
            "field.next_action_note",
            PlainTextInputElement(
                action_id=ids.NEXT_ACTION_NOTE,
                initial_value=details.next_action_note or None,
                max_length=MAX_ACTION_NOTE,
            ),
        ),
    ]
    return [
        InputBlock(
            block_id=block_id,
            label=plain(text(locale, label), 2000),
            element=element,
            optional=True,
        )
        for block_id, label, element in fields
    ]


def item_pick(items: tuple[tuple[str, str], ...], chosen: str | None, locale: str) -> Block:
    """An edit form of a package: which of its rooms the room and time fields change."""
    options = [Option(value=room, text=plain(name, 75)) for room, name in items]
    initial = next((o for o in options if o.value == chosen), options[0])
    element = StaticSelectElement(action_id=ids.EDIT_ITEM, options=options, initial_option=initial)
    return SectionBlock(
        block_id=ids.EDIT_ITEM, text=f"*{text(locale, 'edit.item_pick')}*", accessory=element
    )
