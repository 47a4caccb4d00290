"""会場の設定 in App Home: start from a template or a pasted venue file, then the settings
modal (sales channel, managers, language) and a modal per room. Each listener checks who
may (``bot.setup.may_set_up``) on the server; ``bot.setup`` checks and saves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slack_bolt import App, Args

from bot import ids, setup, strict
from bot.deps import Deps
from bot.errors import NoVenue
from bot.homes import publish_homes
from bot.metadata import Meta
from bot.setup_files import NotFetched
from bot.texts import text
from bot.venue_templates import TEMPLATES
from bot.views.dialogs import info_modal
from bot.views.setup import paste_modal, room_modal, settings_modal, start_home
from core.model import Venue

Values = Mapping[str, Any]


def register(app: App, deps: Deps) -> None:
    app.block_action(ids.SETUP_TEMPLATE)(deps.listener(template_clicked))
    app.block_action(ids.SETUP_PASTE)(deps.listener(paste_clicked))
    app.block_action(ids.SETUP_OPEN)(deps.listener(open_clicked))
    app.block_action(ids.SETUP_ROOM)(deps.listener(room_clicked))
    app.block_action(ids.SETUP_ROOM_ADD)(deps.listener(room_clicked))
    app.view_submission(ids.SETUP_MODAL)(deps.listener(settings_submitted))
    app.view_submission(ids.SETUP_ROOM_MODAL)(deps.listener(room_submitted))
    app.view_submission(ids.SETUP_PASTE_MODAL)(deps.listener(paste_submitted))


def venue_or_none(deps: Deps, context: Any) -> Venue | None:
    try:
        return deps.venue(context)
    except NoVenue:
        return None


def publish_start(deps: Deps, args: Args, user: str) -> bool:
    """The installer's first App Home when the workspace has no venue; False for anyone else."""
    if not setup.may_set_up(deps, args.context, user, None):
        return False
    view = start_home(deps.locales.get(user), deps.privacy_url)
    args.client.views_publish(user_id=user, view=view.to_dict())
    return True


def template_clicked(deps: Deps, args: Args) -> None:
    args.ack()
    user, locale = _who(deps, args)
    name = str((args.action or {}).get("value") or "")
    if venue_or_none(deps, args.context) is not None or name not in TEMPLATES:
        return  # a second click, or a value that is not ours: nothing to start
    if not setup.may_set_up(deps, args.context, user, None):
        _refuse(args, text(locale, "setup.error.not_allowed"), locale)
        return
    made = setup.start(deps, args.context, user, name, locale)
    if isinstance(made, setup.Refusal):
        _refuse(args, made.message, locale)
        return
    publish_homes(deps, args.client, made, {user})


def paste_clicked(deps: Deps, args: Args) -> None:
    args.ack()
    user, locale = _who(deps, args)
    if not setup.may_set_up(deps, args.context, user, venue_or_none(deps, args.context)):
        _refuse(args, text(locale, "setup.error.not_allowed"), locale)
        return
    args.client.views_open(trigger_id=args.body["trigger_id"], view=paste_modal(locale).to_dict())


def open_clicked(deps: Deps, args: Args) -> None:
    args.ack()
    user, locale = _who(deps, args)
    venue = deps.venue(args.context)
    if not setup.may_set_up(deps, args.context, user, venue):
        _refuse(args, text(locale, "setup.error.not_allowed"), locale)
        return
    modal = settings_modal(venue, locale)
    args.client.views_open(trigger_id=args.body["trigger_id"], view=modal.to_dict())


def room_clicked(deps: Deps, args: Args) -> None:
    """編集 (a room) or 部屋を追加, inside the settings modal: its modal is pushed on top."""
    args.ack()
    user, locale = _who(deps, args)
    venue = deps.venue(args.context)
    if not setup.may_set_up(deps, args.context, user, venue):
        return  # the modal was opened by a manager who is one no longer
    action = args.action or {}
    room_id = (
        strict.typed_text(action.get("value"))
        if action.get("action_id") == ids.SETUP_ROOM
        else None
    )
    room = venue.rooms.get(room_id or "")
    if room_id is not None and room is None:
        return
    meta = Meta(locale=locale, item=room.id if room else None)
    args.client.views_push(
        trigger_id=args.body["trigger_id"], view=room_modal(room, locale, meta).to_dict()
    )


def settings_submitted(deps: Deps, args: Args) -> None:
    view = args.body["view"]
    meta = Meta.load(view.get("private_metadata"))
    user, locale = args.body["user"]["id"], meta.locale
    venue = deps.venue(args.context)
    if not setup.may_set_up(deps, args.context, user, venue):
        args.ack(
            response_action="update",
            view=info_modal(text(locale, "setup.error.not_allowed"), locale).to_dict(),
        )
        return
    values = (view.get("state") or {}).get("values") or {}
    managers = _state(values, ids.SETUP_MANAGERS, "selected_users")
    chosen = (
        [m for m in managers if isinstance(m, str) and strict.user_id(m)]
        if isinstance(managers, list)
        else []
    )
    if not chosen:
        args.ack(
            response_action="errors",
            errors={ids.SETUP_MANAGERS: text(locale, "setup.error.managers")},
        )
        return
    saved = setup.settings(
        deps,
        venue,
        user,
        locale,
        channel=strict.slack_id(_state(values, ids.SETUP_CHANNEL, "selected_conversation")),
        managers=chosen,
        language=_selected(values, ids.SETUP_LANGUAGE),
    )
    if isinstance(saved, setup.Refusal):
        args.ack(response_action="errors", errors={ids.SETUP_CHANNEL: saved.message[:3000]})
        return
    args.ack()
    deps.after(
        args.body,
        args.client,
        lambda: publish_homes(deps, args.client, saved, {user} | saved.managers),
    )


def room_submitted(deps: Deps, args: Args) -> None:
    view = args.body["view"]
    meta = Meta.load(view.get("private_metadata"))
    user, locale = args.body["user"]["id"], meta.locale
    venue = deps.venue(args.context)
    if not setup.may_set_up(deps, args.context, user, venue):
        args.ack(
            response_action="update",
            view=info_modal(text(locale, "setup.error.not_allowed"), locale).to_dict(),
        )
        return
    values = (view.get("state") or {}).get("values") or {}
    fields = {
        "id": _state(values, ids.ROOM_ID, "value"),
        "name": _state(values, ids.ROOM_NAME, "value"),
        "parts": _state(values, ids.ROOM_PARTS, "value"),
        "capacity": _number(values, ids.ROOM_CAPACITY),
        "turnover": _number(values, ids.ROOM_TURNOVER),
    }
    saved = setup.room(deps, venue, user, locale, fields, meta.item)
    if isinstance(saved, setup.Refusal):
        block = {"id": ids.ROOM_ID, "parts": ids.ROOM_PARTS}.get(saved.field or "", ids.ROOM_NAME)
        args.ack(response_action="errors", errors={block: saved.message[:3000]})
        return
    args.ack()  # back to the settings modal, redrawn with the room as saved
    parent = view.get("previous_view_id")
    if isinstance(parent, str) and parent:
        modal = settings_modal(saved, locale)

        def redraw() -> None:
            args.client.views_update(view_id=parent, view=modal.to_dict())

        deps.after(args.body, args.client, redraw)


def paste_submitted(deps: Deps, args: Args) -> None:
    view = args.body["view"]
    meta = Meta.load(view.get("private_metadata"))
    user, locale = args.body["user"]["id"], meta.locale
    venue = venue_or_none(deps, args.context)
    if not setup.may_set_up(deps, args.context, user, venue):
        args.ack(
            response_action="update",
            view=info_modal(text(locale, "setup.error.not_allowed"), locale).to_dict(),
        )
        return
    values = (view.get("state") or {}).get("values") or {}
    raw = _uploaded(deps, args, values, locale)
    if isinstance(raw, setup.Refusal):
        args.ack(response_action="errors", errors={ids.SETUP_UPLOAD: raw.message})
        return
    saved = setup.from_file(deps, args.context, user, raw, venue, locale)
    if isinstance(saved, setup.Refusal):
        args.ack(response_action="errors", errors={ids.SETUP_FILE: saved.message[:3000]})
        return
    args.ack()
    deps.after(args.body, args.client, lambda: publish_homes(deps, args.client, saved, {user}))


def _uploaded(deps: Deps, args: Args, values: Values, locale: str) -> str | setup.Refusal:
    """The uploaded file's text (fetched with the workspace's token), else what was pasted."""
    files = _state(values, ids.SETUP_UPLOAD, "files")
    first = files[0] if isinstance(files, list) and files else None
    if isinstance(first, Mapping):
        url = first.get("url_private_download") or first.get("url_private")
        try:
            return deps.fetch_file(str(url or ""), args.client.token)
        except NotFetched as why:
            return setup.Refusal(text(locale, f"setup.error.upload.{why}"))
    pasted = _state(values, ids.SETUP_FILE, "value")
    if not pasted:
        return setup.Refusal(text(locale, "setup.error.no_file"))
    return str(pasted)


def _who(deps: Deps, args: Args) -> tuple[str, str]:
    user = str(args.body["user"]["id"])
    return user, deps.locales.get(user)


def _refuse(args: Args, message: str, locale: str) -> None:
    args.client.views_open(
        trigger_id=args.body["trigger_id"], view=info_modal(message, locale).to_dict()
    )


def _state(values: Values, block: str, key: str) -> Any:
    states = values.get(block)
    state = states.get(block) if isinstance(states, Mapping) else None
    return state.get(key) if isinstance(state, Mapping) else None


def _selected(values: Values, block: str) -> str | None:
    option = _state(values, block, "selected_option")
    value = option.get("value") if isinstance(option, Mapping) else None
    return value if value in ("ja", "en") else None


def _number(values: Values, block: str) -> int | None:
    raw = _state(values, block, "value")
    if raw is None or raw == "":
        return None
    try:
        return int(str(raw))
    except ValueError:
        return -1  # not a whole number: the venue file's check says what would do
