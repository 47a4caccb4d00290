"""What a Slack user reads, as plain text: messages, DMs and views the stand-in received,
rendered line by line (``pytest -s`` prints a test's transcript).

Inputs show their label and what they hold (an initial value, or the value the user chose);
buttons show as ``[ label ]``; mrkdwn is read as the terminal notices read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jobs.console import lines_of, plain

Json = dict[str, Any]


def _input_value(element: Json, state: Mapping[str, Any] | None) -> str:
    """What an input shows: the state sent (the user's choice) or its initial value."""
    chosen = state or {}
    option = chosen.get("selected_option") or element.get("initial_option")
    if isinstance(option, dict):  # the label the menu shows for the chosen value
        options = [
            *element.get("options", []),
            *(o for group in element.get("option_groups", []) for o in group["options"]),
        ]
        shown = next((o for o in options if o["value"] == option["value"]), option)
        return plain(str(shown["text"]["text"]))
    for key, initial in (
        ("selected_date", "initial_date"),
        ("selected_time", "initial_time"),
        ("selected_user", "initial_user"),
        ("value", "initial_value"),
    ):
        value = chosen.get(key) or element.get(initial)
        if value:
            return f"@{value}" if key == "selected_user" else str(value)
    return "—"


def view_lines(view: Json, values: Mapping[str, Mapping[str, Any]] | None = None) -> list[str]:
    """A modal or App Home as it reads; ``values``: state the user gave (block -> action)."""
    title = (view.get("title") or {}).get("text") or view.get("type", "view")
    lines = [f"[{title}]"]
    for block in view.get("blocks", []):
        if block.get("type") == "input":
            element = block["element"]
            state = (values or {}).get(block["block_id"], {}).get(element.get("action_id"))
            lines.append(f"  {block['label']['text']}: {_input_value(element, state)}")
        else:
            lines += [f"  {line}" for line in lines_of([block], "", None)]
    submit = view.get("submit")
    if submit:
        lines.append(f"  ( {submit['text']} )")
    return lines


def message_lines(blocks: list[Json], fallback: str = "") -> list[str]:
    return [f"  {line}" for line in lines_of(blocks, "", None)] or [f"  {plain(fallback)}"]


@dataclass
class Transcript:
    """A story told step by step: what the user did, then what they read."""

    lines: list[str] = field(default_factory=list)

    def does(self, what: str) -> None:
        self.lines += ["", f"> {what}"]

    def view(self, view: Json, values: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        self.lines += ["  (modal)", *view_lines(view, values)]

    def message(self, where: str, body: Json) -> None:
        self.lines += [
            f"  ({where})",
            *message_lines(body.get("blocks") or [], body.get("text", "")),
        ]

    def says(self, where: str, said: str) -> None:
        self.lines += [f"  ({where})", *(f"  {line}" for line in plain(said).splitlines())]

    def __str__(self) -> str:
        return "\n".join(self.lines)
