"""The /hold form as an edit of a hold: filled in from the hold, read back as the change, and
its preview line ("keeps its place" / "becomes 2nd behind …")."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.form import Form, Row
from bot.metadata import Meta
from bot.preview import preview_line
from bot.texts import dates, esc, lang, text
from bot.texts.kinds import hold_kind
from bot.texts.refusals import ordinal
from core.engine import HoldEngine
from core.model import Hold, HoldEdit, HoldItem, ItemRequest, Venue
from core.results import Code, EditPlan, Refused
from core.rules.spans import MINUTES_PER_DAY, end_minute


def form_of(hold: Hold, item: HoldItem, tz: ZoneInfo, *, rows: bool = False) -> Form:
    """The form as the hold stands: ``item``'s room and times, the enquiry's people; with
    ``rows``, ``item`` is the first room and every other room is a row (keys 1, 2, ...)."""
    others = [i for i in hold.items if i is not item] if rows else []
    return Form(
        rows=tuple(
            Row(n, i.room_id, _clock(i.start_at, tz), _clock(i.end_at, tz))
            for n, i in enumerate(others, start=1)
        ),
        room_id=item.room_id,
        day=hold.local_date,
        start_min=_clock(item.start_at, tz),
        end_min=_clock(item.end_at, tz),
        kind=hold.kind_id,
        customer=hold.customer,
        salesperson=hold.salesperson,
        note=hold.note,
        guests=hold.guests,
        details=hold.details,
    )


def change_of(form: Form, meta: Meta, user: str) -> HoldEdit:
    """The form as the engine's edit: what is filled in replaces the hold's, the rest stays
    (the engine finds what changed, and says so when nothing did)."""
    assert meta.hold_id is not None and meta.version is not None  # noqa: S101 - meta.editing
    return HoldEdit(
        hold_id=meta.hold_id,
        version=meta.version,
        actor=user,
        item_room=meta.item,
        room_id=form.room_id,
        local_date=form.day,
        start_min=form.start_min,
        end_min=form.end_min,
        customer=form.customer.strip() or None,
        note=form.note,
        salesperson=form.salesperson,
        # The booking's details as the form shows them (prefilled): an emptied text clears it
        guests=form.guests,
        estimate=form.details.estimate,
        plan=form.details.plan,
        source=form.details.source,
        next_action=form.details.next_action,
        next_action_note=form.details.next_action_note,
        may_lose_first=meta.lose_first is not None and meta.lose_first == change_key(form),
        items=_items(form) if meta.item is None else None,  # every room, as its rows say
    )


def _items(form: Form) -> tuple[ItemRequest, ...] | None:
    """Every room of the form, the first row first; None while one is not filled in (the
    preview then says what the rest would do)."""
    if form.room_id is None or form.start_min is None or form.end_min is None:
        return None
    if not all(row.complete for row in form.rows):
        return None
    end = end_minute(form.start_min, form.end_min)
    first = ItemRequest(form.room_id, form.start_min, end)
    return (first, *(row.item() for row in form.rows))


def change_key(form: Form) -> str:
    """The rooms, date and times the form asks for (every row): what a confirm to lose the
    1st place was given for."""
    rows = [(r.room_id, r.start_min, r.end_min) for r in form.rows]
    return "|".join(str(v) for v in (form.room_id, form.day, form.start_min, form.end_min, rows))


def edit_preview(
    engine: HoldEngine, venue: Venue, form: Form, meta: Meta, user: str, now: datetime
) -> str:
    """The engine's dry run of the edit as the form stands, as one line."""
    plan = engine.writes.edit_plan(venue.id, change_of(form, meta, user), now=now)
    return edit_line(plan, venue, meta.locale, now)


def edit_line(plan: EditPlan | Refused, venue: Venue, locale: str, now: datetime) -> str:
    """``順位はそのまま（1番手 · 期限 …）``, ``新しい押さえとして2番手（佐藤様（婚礼）の後ろ）``, or
    why it cannot be done; with nothing changed yet, what the line will say."""
    tz, style = venue.tz, dates.style_for(venue, now)
    if isinstance(plan, Refused):
        if plan.code is Code.NO_CHANGE:
            return text(locale, "preview.edit.unchanged")
        return preview_line(plan, tz, locale, style=style)
    if plan.rank is None:
        return text(locale, "preview.edit.confirmed")
    if plan.rank == 1 and plan.expires_at:
        key = "preview.edit.keeps_first" if plan.kept_place else "preview.edit.swap_first"
        return text(locale, key, deadline=dates.deadline(plan.expires_at, tz, locale, style=style))
    rank_text = ordinal(plan.rank, locale)
    if plan.kept_place:
        return text(locale, "preview.edit.keeps", rank_text=rank_text)
    ahead = " / ".join(_named(h, locale) for h in plan.ahead) or text(locale, "nobody")
    key = "preview.edit.swap_loses_first" if plan.loses_first else "preview.edit.swap_waiting"
    return text(locale, key, rank_text=rank_text, ahead=ahead)


def _named(hold: Hold, locale: str) -> str:
    kind = hold_kind(hold, locale)
    if lang(locale) == "en":
        return f"{esc(hold.customer)} ({kind})"
    return f"{esc(hold.customer)}（{kind}）"


def _clock(at: datetime, tz: ZoneInfo) -> int:
    local = at.astimezone(tz)
    return (local.hour * 60 + local.minute) % MINUTES_PER_DAY
