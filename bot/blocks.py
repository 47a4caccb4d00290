"""Small Block Kit pieces every surface shares, built with ``slack_sdk.models`` so they validate."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import (
    Block,
    ContextBlock,
    HeaderBlock,
    InputInteractiveElement,
    MarkdownTextObject,
    PlainTextObject,
    SectionBlock,
)

MAX_MESSAGE_BLOCKS = 50
MAX_VIEW_BLOCKS = 100
MAX_SECTION_TEXT = 3000
MAX_HEADER_TEXT = 150
MAX_CONTEXT_TEXT = 2000  # per element (Slack's documented limit for mrkdwn in context)


class Serialized(Block):
    """A block that slack_sdk has validated and serialized once, used as that JSON: a view's
    ``to_dict`` validates every element again each time, and the same buttons recur (each
    App Home repeats a salesperson's cards). Its JSON is shared: never changed in place."""

    def __init__(self, block: Block) -> None:
        self._json = block.to_dict()
        super().__init__(type=self._json["type"], block_id=self._json.get("block_id"))

    def to_dict(self) -> dict[str, Any]:
        return self._json


class SerializedInput(InputInteractiveElement):
    """An input element validated and serialized once, as ``Serialized`` is for a block: a
    venue's room menu and its kinds are the same in every /hold modal, which is drawn again
    on each slot change and each refusal. Its JSON is shared: never changed in place."""

    def __init__(self, element: InputInteractiveElement) -> None:
        self._json = element.to_dict()
        super().__init__(type=self._json["type"], action_id=self._json.get("action_id"))

    def to_dict(self) -> dict[str, Any]:
        return self._json


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def section(text: str, *, block_id: str | None = None) -> SectionBlock:
    return SectionBlock(
        text=MarkdownTextObject(text=clip(text, MAX_SECTION_TEXT)), block_id=block_id
    )


def context(text: str, *, block_id: str | None = None) -> ContextBlock:
    return ContextBlock(
        elements=[MarkdownTextObject(text=clip(text, MAX_CONTEXT_TEXT))], block_id=block_id
    )


def header(text: str) -> HeaderBlock:
    return HeaderBlock(text=PlainTextObject(text=clip(text, MAX_HEADER_TEXT)))


def plain(text: str, limit: int = 75) -> PlainTextObject:
    return PlainTextObject(text=clip(text, limit))


def chunk_lines(lines: Sequence[str], limit: int = MAX_SECTION_TEXT) -> list[str]:
    """Lines joined into texts of at most ``limit`` characters, one section each."""
    chunks: list[str] = []
    current: list[str] = []
    for item in lines:
        if current and len("\n".join([*current, item])) > limit:
            chunks.append("\n".join(current))
            current = []
        current.append(item)
    return [*chunks, "\n".join(current)] if current else chunks


def dump(blocks: Sequence[Block]) -> list[dict[str, Any]]:
    """Validated JSON for the Web API (``to_dict`` runs slack_sdk's checks)."""
    return [b.to_dict() for b in blocks]
