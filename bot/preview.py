"""The modal's one-line preview: what submitting would do now, from the engine's dry run."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.form import Form
from bot.texts import dates, esc, text
from bot.texts.dates import PLAIN, DateStyle
from bot.texts.kinds import hold_kind, kind_name
from bot.texts.refusals import describe, describe_warning, in_way_list, ordinal, turnover_only
from core.engine import HoldEngine
from core.model import Hold, Venue
from core.results import Code, Preview, Refused


def preview_line(
    result: Preview | Refused | None,
    tz: ZoneInfo,
    locale: str | None,
    rooms: tuple[str, ...] = (),
    *,
    style: DateStyle = PLAIN,
) -> str:
    """``1番手として受付 · 期限 12/8(火) 19:20まで``, ``2番手 · 1番手は 佐藤様（婚礼）期限
    12/8(火) 19:20まで`` (the same deadline, to the minute, as the card will show),
    ``本予約あり — 受付できません``, ``3番手になるため受付できません``, ... ``None``: a hint.
    With several ``rooms`` (their names, in the order asked) each room's place comes first:
    ``チャペル 1番手 · 鳳凰の間 2番手 → 2番手: 全部が1番手になった時点で期限がつきます``.
    A warning (the same customer under another enquiry) follows on its own line.
    """
    if result is None:
        return text(locale, "preview.hint")
    if isinstance(result, Refused):
        return _refused(result, tz, locale, style)
    warnings = [
        text(locale, "warning.line", warning=describe_warning(w, tz, locale, style=style))
        for w in result.warnings
    ]
    if result.rank == 1 and result.expires_at is None:  # 社内押さえ: 1st, no deadline
        return "\n".join([text(locale, "preview.house"), *warnings])
    if len(rooms) > 1 and len(result.item_ranks) == len(rooms):
        return "\n".join([_package(result, rooms, tz, locale, style), *warnings])
    return "\n".join([_single(result, tz, locale, style), *warnings])


def _single(result: Preview, tz: ZoneInfo, locale: str | None, style: DateStyle) -> str:
    rank_text = ordinal(result.rank, locale)
    if result.rank == 1 and result.expires_at:
        deadline = dates.deadline(result.expires_at, tz, locale, style=style)
        return text(locale, "preview.first", deadline=deadline)
    if result.in_way:
        line = text(
            locale,
            "preview.behind",
            rank_text=rank_text,
            ahead=in_way_list(result.in_way, tz, locale, style=style),
        )
        minutes = turnover_only(result.in_way)
        if minutes is not None:
            line += text(locale, "preview.turnover_only", minutes=minutes)
        return line
    ahead = " / ".join(_ahead(h, tz, locale, style) for h in result.ahead)
    ahead = ahead or text(locale, "nobody")
    return text(locale, "preview.waiting", rank_text=rank_text, ahead=ahead)


def _package(
    result: Preview, rooms: tuple[str, ...], tz: ZoneInfo, locale: str | None, style: DateStyle
) -> str:
    items = " · ".join(
        text(locale, "preview.item", room=esc(room), rank_text=ordinal(rank, locale))
        for room, rank in zip(rooms, result.item_ranks, strict=True)
    )
    if result.rank == 1 and result.expires_at:
        deadline = dates.deadline(result.expires_at, tz, locale, style=style)
        return text(locale, "preview.package.first", items=items, deadline=deadline)
    line = text(
        locale, "preview.package.waiting", items=items, rank_text=ordinal(result.rank, locale)
    )
    if not result.ahead:
        return line
    ahead = " / ".join(_ahead(h, tz, locale, style) for h in result.ahead)
    return line + "\n" + text(locale, "preview.package.ahead", ahead=ahead)


def _refused(refused: Refused, tz: ZoneInfo, locale: str | None, style: DateStyle) -> str:
    if refused.code is Code.CONFIRMED_CONFLICT:
        return text(locale, "preview.confirmed_conflict")
    if refused.code is Code.RANK_TOO_LOW:
        line = text(locale, "preview.rank_too_low", rank_text=ordinal(refused.rank or 0, locale))
        if refused.in_way:
            in_way = in_way_list(refused.in_way, tz, locale, style=style)
            line += text(locale, "preview.in_way", in_way=in_way)
        return line
    if refused.code is Code.BANQUET_NOT_OPEN and refused.opens_at:
        opens = dates.when(refused.opens_at, tz, locale, year=True, style=style)
        kind = (
            esc(kind_name(refused.kinds[0].id, refused.kinds[0].name, locale))
            if refused.kinds
            else text(locale, "kind.banquet")
        )
        return text(locale, "preview.banquet_not_open", opens=opens, kind=kind)
    return describe(refused, tz, locale, style=style)


def _ahead(hold: Hold, tz: ZoneInfo, locale: str | None, style: DateStyle) -> str:
    expires = hold.expires_at
    deadline = dates.deadline(expires, tz, locale, style=style) if expires else "—"
    kind = hold_kind(hold, locale)
    return text(locale, "preview.ahead", customer=esc(hold.customer), kind=kind, deadline=deadline)


def current_preview(
    engine: HoldEngine, venue: Venue, form: Form, user: str, locale: str, now: datetime
) -> str:
    """The engine's read-only answer for the slot chosen so far, as one line."""
    if not form.slot_chosen():
        return preview_line(None, venue.tz, locale)
    result = engine.writes.preview(venue.id, form.preview_request(user), now=now)
    style = dates.style_for(venue, now)
    return preview_line(result, venue.tz, locale, room_names(venue, form), style=style)


def room_names(venue: Venue, form: Form) -> tuple[str, ...]:
    """The names of the form's rooms, in its rows' order (an unknown id as it is)."""
    chosen = [form.room_id, *(row.room_id for row in form.rows)]
    return tuple(
        room.name if (room := venue.rooms.get(rid or "")) else (rid or "") for rid in chosen
    )
