"""What the Slack stand-in refuses in a message or a view, as Slack does: the limits and
shapes that matter in practice (block counts and sizes, unique block ids, menus, modals)."""

from __future__ import annotations

from typing import Any

MAX_MESSAGE_BLOCKS = 50
MAX_VIEW_BLOCKS = 100
MAX_TEXT = 40_000


class Refusal(Exception):
    """Raised by a method handler: Slack's ``{"ok": false, "error": ...}``."""

    def __init__(self, error: str, *messages: str) -> None:
        super().__init__(error)
        self.error = error
        self.messages = list(messages)

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"ok": False, "error": self.error}
        if self.messages:
            body["response_metadata"] = {"messages": self.messages}
        return body


def check_message(body: dict[str, Any]) -> None:
    text = body.get("text")
    blocks = body.get("blocks")
    if not text and not blocks and not body.get("attachments"):
        raise Refusal("no_text")
    if text is not None and len(str(text)) > MAX_TEXT:
        raise Refusal("msg_too_long")
    if blocks is not None:
        _check_blocks(blocks, MAX_MESSAGE_BLOCKS, "/blocks", error="invalid_blocks")


def _check_blocks(blocks: Any, limit: int, pointer: str, *, error: str) -> None:
    """Slack's block checks that matter in practice: a list of typed blocks, sizes, unique ids."""
    if not isinstance(blocks, list):
        if error == "invalid_blocks":
            raise Refusal(
                "invalid_blocks_format", f"[ERROR] must be an array [json-pointer:{pointer}]"
            )
        raise Refusal(error, f"[ERROR] must be an array [json-pointer:{pointer}]")
    if len(blocks) > limit:
        raise Refusal(error, f"[ERROR] no more than {limit} items allowed [json-pointer:{pointer}]")
    seen: set[str] = set()
    for i, block in enumerate(blocks):
        here = f"{pointer}/{i}"
        if not isinstance(block, dict) or not block.get("type"):
            raise Refusal(error, f"[ERROR] missing required field: type [json-pointer:{here}]")
        block_id = block.get("block_id")
        if block_id is not None:
            if block_id in seen:
                raise Refusal(
                    error, f"[ERROR] duplicate block_id {block_id!r} [json-pointer:{here}]"
                )
            seen.add(block_id)
        _check_block(block, here, error)


def _check_block(block: dict[str, Any], here: str, error: str) -> None:
    kind = block["type"]
    text = block.get("text")
    if kind == "section" and isinstance(text, dict) and len(str(text.get("text", ""))) > 3000:
        raise Refusal(
            error, f"[ERROR] must be less than 3001 characters [json-pointer:{here}/text/text]"
        )
    if kind == "header" and isinstance(text, dict) and len(str(text.get("text", ""))) > 150:
        raise Refusal(
            error, f"[ERROR] must be less than 151 characters [json-pointer:{here}/text/text]"
        )
    if kind == "input":
        for required in ("label", "element"):
            if not block.get(required):
                raise Refusal(
                    error, f"[ERROR] missing required field: {required} [json-pointer:{here}]"
                )
    elements = [
        (f"{here}/accessory", block.get("accessory")),
        (f"{here}/element", block.get("element")),
    ]
    if kind == "actions" and isinstance(block.get("elements"), list):
        elements += [(f"{here}/elements/{i}", e) for i, e in enumerate(block["elements"])]
    for where, element in elements:
        if isinstance(element, dict):
            _check_element(element, where, error)


def _check_element(element: dict[str, Any], here: str, error: str) -> None:
    """Menus: at most 100 options (100 groups of at most 100), labels of at most 75
    characters, values of at most 150, an initial option among the options; a confirmation
    dialog's text is plain_text."""
    confirm = element.get("confirm")
    if isinstance(confirm, dict):
        kind = (
            (confirm.get("text") or {}).get("type")
            if isinstance(confirm.get("text"), dict)
            else None
        )
        if kind != "plain_text":
            raise Refusal(
                error,
                f"[ERROR] must be a plain_text text object [json-pointer:{here}/confirm/text]",
            )
    options = element.get("options")
    groups = element.get("option_groups")
    found: list[dict[str, Any]] = []
    if isinstance(options, list):
        _check_options(options, f"{here}/options", error)
        found += options
    if isinstance(groups, list):
        if len(groups) > 100:
            raise Refusal(
                error, f"[ERROR] no more than 100 items allowed [json-pointer:{here}/option_groups]"
            )
        for i, group in enumerate(groups):
            group_options = group.get("options") if isinstance(group, dict) else None
            if not isinstance(group_options, list):
                raise Refusal(
                    error,
                    f"[ERROR] missing required field: options "
                    f"[json-pointer:{here}/option_groups/{i}]",
                )
            _check_options(group_options, f"{here}/option_groups/{i}/options", error)
            found += group_options
    initial = element.get("initial_option")
    static = element.get("type") in ("static_select", "radio_buttons")
    if (
        static
        and isinstance(initial, dict)
        and all(o.get("value") != initial.get("value") for o in found if isinstance(o, dict))
    ):
        raise Refusal(
            error,
            "[ERROR] initial_option must be one of the options "
            f"[json-pointer:{here}/initial_option]",
        )


def _check_options(options: list[Any], here: str, error: str) -> None:
    if len(options) > 100:
        raise Refusal(error, f"[ERROR] no more than 100 items allowed [json-pointer:{here}]")
    for i, option in enumerate(options):
        label = (option.get("text") or {}).get("text", "") if isinstance(option, dict) else ""
        if len(str(label)) > 75:
            raise Refusal(
                error,
                f"[ERROR] must be less than 76 characters [json-pointer:{here}/{i}/text/text]",
            )
        if isinstance(option, dict) and len(str(option.get("value", ""))) > 150:
            raise Refusal(
                error, f"[ERROR] must be less than 151 characters [json-pointer:{here}/{i}/value]"
            )


def check_view(view: Any, kind: str) -> dict[str, Any]:
    """A view payload as views.open/push/update/publish check it; returns it."""
    if not isinstance(view, dict):
        raise Refusal(
            "invalid_arguments", "[ERROR] failed to match all allowed schemas [json-pointer:/view]"
        )
    if view.get("type") != kind:
        raise Refusal("invalid_arguments", f"[ERROR] must be '{kind}' [json-pointer:/view/type]")
    _check_blocks(view.get("blocks"), MAX_VIEW_BLOCKS, "/view/blocks", error="invalid_arguments")
    if len(str(view.get("private_metadata") or "")) > 3000:
        raise Refusal(
            "invalid_arguments",
            "[ERROR] must be less than 3001 characters [json-pointer:/view/private_metadata]",
        )
    if len(str(view.get("callback_id") or "")) > 255:
        raise Refusal(
            "invalid_arguments",
            "[ERROR] must be less than 256 characters [json-pointer:/view/callback_id]",
        )
    if kind == "modal":
        _check_modal(view)
    return view


def _check_modal(view: dict[str, Any]) -> None:
    if not isinstance(view.get("title"), dict):
        raise Refusal(
            "invalid_arguments", "[ERROR] missing required field: title [json-pointer:/view]"
        )
    for key in ("title", "submit", "close"):
        part = view.get(key)
        if isinstance(part, dict) and len(str(part.get("text", ""))) > 24:
            raise Refusal(
                "invalid_arguments",
                f"[ERROR] must be less than 25 characters [json-pointer:/view/{key}/text]",
            )
    has_input = any(b.get("type") == "input" for b in view["blocks"])
    if has_input and not view.get("submit"):
        raise Refusal(
            "invalid_arguments",
            "[ERROR] must provide a submit property when using input blocks [json-pointer:/view]",
        )
