"""The views of a venue's setup in Slack: the installer's first App Home, the settings modal
(sales channel, managers, language, rooms), a room's modal, the venue-file modal, and the
setup button and about line every App Home ends with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slack_sdk.models.views import View

from bot import ids
from bot.metadata import Meta
from bot.texts import esc, text
from bot.venue_templates import TEMPLATES
from core.model import Room, Venue

Json = dict[str, Any]
MAX_FILE = 3000  # characters: a plain_text_input holds at most this much
MAX_ROOMS_SHOWN = 40  # two blocks a room: the modal stays within 100 blocks


def start_home(locale: str, privacy_url: str | None) -> View:
    """What the installer sees before the workspace has a venue: start from a template, or
    paste a venue file."""
    buttons = [
        _button(text(locale, f"setup.template.{name}"), ids.SETUP_TEMPLATE, name)
        for name in TEMPLATES
    ]
    buttons.append(_button(text(locale, "setup.paste"), ids.SETUP_PASTE, "paste"))
    blocks: list[Json] = [
        {"type": "header", "text": _plain(text(locale, "setup.start.title"))},
        _section(text(locale, "setup.start.lead")),
        {"type": "actions", "elements": buttons},
        *about(locale, None, privacy_url),
    ]
    return View(type="home", callback_id=ids.HOME, blocks=blocks)


def home_extras(
    locale: str,
    venue: Venue,
    *,
    may_set_up: bool,
    privacy_url: str | None,
    choices: Sequence[tuple[str, str]] = (),
) -> list[Json]:
    """The end of every App Home: which venue (a hotel group's workspace), 会場の設定 for
    those who may change it, and the about."""
    extras: list[Json] = [{"type": "divider"}]
    if len(choices) > 1:
        options = [_option(name, venue_id) for venue_id, name in choices]
        chosen = next((o for o in options if o["value"] == venue.id), options[0])
        pick = {
            "type": "static_select",
            "action_id": ids.VENUE_PICK,
            "options": options,
            "initial_option": chosen,
        }
        block = _section(f"*{text(locale, 'venue.pick.label')}*")
        extras.append({**block, "block_id": ids.VENUE_PICK, "accessory": pick})
    if may_set_up:
        button = _button(text(locale, "setup.open"), ids.SETUP_OPEN, venue.id)
        extras.append({"type": "actions", "elements": [button]})
    return extras + about(locale, venue, privacy_url)


def about(locale: str, venue: Venue | None, privacy_url: str | None) -> list[Json]:
    where = text(locale, "setup.about.venue", name=esc(venue.name)) if venue else ""
    policy = (
        text(locale, "setup.about.privacy", url=privacy_url)
        if privacy_url
        else text(locale, "setup.about.no_privacy")
    )
    return [{"type": "context", "elements": [_mrkdwn(f"osae{where} · {policy}")]}]


def settings_modal(venue: Venue, locale: str) -> View:
    channel: Json = {
        "type": "conversations_select",
        "action_id": ids.SETUP_CHANNEL,
        "placeholder": _plain(text(locale, "setup.channel.placeholder")),
        "filter": {"include": ["public", "private"], "exclude_bot_users": True},
    }
    if venue.sales_channel:
        channel["initial_conversation"] = venue.sales_channel
    managers: Json = {"type": "multi_users_select", "action_id": ids.SETUP_MANAGERS}
    if venue.managers:
        managers["initial_users"] = sorted(venue.managers)
    languages = [_option(text(locale, f"setup.language.{code}"), code) for code in ("ja", "en")]
    language: Json = {
        "type": "static_select",
        "action_id": ids.SETUP_LANGUAGE,
        "options": languages,
    }
    chosen = next((o for o in languages if o["value"] == (venue.language or "ja")), None)
    language["initial_option"] = chosen
    blocks: list[Json] = [
        _section(text(locale, "setup.modal.lead", name=esc(venue.name))),
        _input(
            ids.SETUP_CHANNEL,
            text(locale, "setup.channel.label"),
            channel,
            hint=text(locale, "setup.channel.hint"),
        ),
        _input(ids.SETUP_MANAGERS, text(locale, "setup.managers.label"), managers),
        _input(ids.SETUP_LANGUAGE, text(locale, "setup.language.label"), language),
        {"type": "divider"},
        *_rooms(venue, locale),
    ]
    return View(
        type="modal",
        callback_id=ids.SETUP_MODAL,
        title=_plain(text(locale, "setup.modal.title"), 24),
        submit=_plain(text(locale, "setup.save"), 24),
        close=_plain(text(locale, "setup.close"), 24),
        private_metadata=Meta(locale=locale).dump(),
        blocks=blocks,
    )


def room_modal(room: Room | None, locale: str, meta: Meta) -> View:
    """A room's name, parts, capacity and turnover; a new room asks for its id too."""
    blocks: list[Json] = []
    if room is None:
        blocks.append(
            _text_input(
                ids.ROOM_ID,
                text(locale, "setup.room.id"),
                None,
                hint=text(locale, "setup.room.id.hint"),
            )
        )
    else:
        blocks.append(_section(text(locale, "setup.room.editing", id=esc(room.id))))
    blocks += [
        _text_input(ids.ROOM_NAME, text(locale, "setup.room.name"), room.name if room else None),
        _text_input(
            ids.ROOM_PARTS,
            text(locale, "setup.room.parts"),
            ", ".join(sorted(room.parts)) if room else None,
            hint=text(locale, "setup.room.parts.hint"),
        ),
        _number(
            ids.ROOM_CAPACITY,
            text(locale, "setup.room.capacity"),
            room.capacity if room else None,
            optional=True,
        ),
        _number(
            ids.ROOM_TURNOVER,
            text(locale, "setup.room.turnover"),
            room.turnover_min if room else 60,
        ),
    ]
    return View(
        type="modal",
        callback_id=ids.SETUP_ROOM_MODAL,
        title=_plain(text(locale, "setup.room.title"), 24),
        submit=_plain(text(locale, "setup.save"), 24),
        close=_plain(text(locale, "setup.back"), 24),
        private_metadata=meta.dump(),
        blocks=blocks,
    )


def paste_modal(locale: str) -> View:
    """Upload the venue file (a ``.toml``), or paste it."""
    field: Json = {
        "type": "plain_text_input",
        "action_id": ids.SETUP_FILE,
        "multiline": True,
        "max_length": MAX_FILE,
    }
    upload: Json = {
        "type": "file_input",
        "action_id": ids.SETUP_UPLOAD,
        "filetypes": ["toml", "txt"],
        "max_files": 1,
    }
    return View(
        type="modal",
        callback_id=ids.SETUP_PASTE_MODAL,
        title=_plain(text(locale, "setup.paste.title"), 24),
        submit=_plain(text(locale, "setup.save"), 24),
        close=_plain(text(locale, "setup.close"), 24),
        private_metadata=Meta(locale=locale).dump(),
        blocks=[
            _input(
                ids.SETUP_UPLOAD,
                text(locale, "setup.upload.label"),
                upload,
                hint=text(locale, "setup.upload.hint"),
                optional=True,
            ),
            _input(
                ids.SETUP_FILE,
                text(locale, "setup.paste.label"),
                field,
                hint=text(locale, "setup.paste.hint"),
                optional=True,
            ),
        ],
    )


def _rooms(venue: Venue, locale: str) -> list[Json]:
    active = [r for r in venue.rooms.values() if r.active]
    blocks: list[Json] = [_section(f"*{text(locale, 'setup.rooms.title', count=len(active))}*")]
    for room in active[:MAX_ROOMS_SHOWN]:
        seats = (
            text(locale, "setup.room.seats", count=room.capacity)
            if room.capacity
            else text(locale, "setup.room.no_seats")
        )
        line = text(
            locale,
            "setup.room.line",
            name=esc(room.name),
            id=esc(room.id),
            parts=esc(", ".join(sorted(room.parts))),
            seats=seats,
            turnover=room.turnover_min,
        )
        block = _section(line)
        block["accessory"] = _button(text(locale, "setup.room.edit"), ids.SETUP_ROOM, room.id)
        blocks.append(block)
    blocks.append(
        {
            "type": "actions",
            "elements": [_button(text(locale, "setup.room.add"), ids.SETUP_ROOM_ADD, "add")],
        }
    )
    return blocks


def _input(
    block_id: str, label: str, element: Json, *, hint: str | None = None, optional: bool = False
) -> Json:
    block: Json = {
        "type": "input",
        "block_id": block_id,
        "label": _plain(label, 2000),
        "element": element,
    }
    if hint:
        block["hint"] = _plain(hint, 2000)
    if optional:
        block["optional"] = True
    return block


def _text_input(block_id: str, label: str, value: str | None, *, hint: str | None = None) -> Json:
    element: Json = {"type": "plain_text_input", "action_id": block_id, "max_length": 100}
    if value is not None:
        element["initial_value"] = value
    return _input(block_id, label, element, hint=hint)


def _number(block_id: str, label: str, value: int | None, *, optional: bool = False) -> Json:
    element: Json = {"type": "number_input", "action_id": block_id, "is_decimal_allowed": False}
    if value is not None:
        element["initial_value"] = str(value)
    return _input(block_id, label, element, optional=optional)


def _button(label: str, action_id: str, value: str) -> Json:
    return {"type": "button", "action_id": action_id, "value": value, "text": _plain(label)}


def _option(label: str, value: str) -> Json:
    return {"text": _plain(label), "value": value}


def _section(body: str) -> Json:
    return {"type": "section", "text": _mrkdwn(body[:3000])}


def _plain(body: str, limit: int = 75) -> Json:
    return {"type": "plain_text", "text": body[:limit], "emoji": True}


def _mrkdwn(body: str) -> Json:
    return {"type": "mrkdwn", "text": body}
