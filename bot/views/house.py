"""The /hold form's choice of 社内押さえ (a house hold), offered to managers only; whoever
submits it, the engine checks that they are a manager."""

from __future__ import annotations

from slack_sdk.models.blocks import Block, CheckboxesElement, InputBlock, Option

from bot import ids
from bot.blocks import plain
from bot.texts import text


def house_choice(ticked: bool, locale: str) -> list[Block]:
    """「社内押さえ（フェア・撮影など）」: optional, and its change redraws the preview."""
    option = Option(
        value=ids.HOUSE_VALUE,
        text=plain(text(locale, "house.choice"), 75),
        description=plain(text(locale, "house.choice.hint"), 75),
    )
    element = CheckboxesElement(
        action_id=ids.HOUSE, options=[option], initial_options=[option] if ticked else None
    )
    return [
        InputBlock(
            block_id=ids.HOUSE,
            label=plain(text(locale, "house.label"), 2000),
            element=element,
            optional=True,
            dispatch_action=True,
        )
    ]


def house_notes(asked: bool, manager: bool, locale: str) -> tuple[str, ...]:
    """「社内」 typed by someone who is not a manager: said above the form (which offers none)."""
    return (text(locale, "house.quick_not_manager"),) if asked and not manager else ()
