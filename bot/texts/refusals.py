"""Turning an engine refusal into one sentence: why, and what would work instead."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from bot.deposits import paid_text
from bot.texts import dates, esc, lang, text
from bot.texts.dates import PLAIN, DateStyle
from bot.texts.kinds import hold_kind, kind_and_guests, kind_choices, kind_name, status_text
from core.booking import booking_id, booking_number
from core.model import Hold, Status
from core.results import Code, InWay, Refused, RequestWarning, WarningCode

_BY_FIELD = {Code.BAD_TIMES}
_BY_BOOKING = {
    "refusal.enquiry_not_found",
    "refusal.enquiry_confirmed",
    "refusal.not_authorized.enquiry",
}


def describe(
    refused: Refused, tz: ZoneInfo, locale: str | None, *, style: DateStyle = PLAIN
) -> str:
    """The refusal as a sentence, safe as mrkdwn and as fallback text (typed text escaped);
    a refusal of one room of several names it first."""
    key = f"refusal.{refused.code.value}"
    detail = esc(refused.detail) if refused.detail is not None else None
    if refused.code in _BY_FIELD:
        key += ".gap" if refused.gap else ".end" if refused.field == "end" else ".start"
    if refused.code is Code.NOT_AUTHORIZED and refused.detail in ("manager", "deposit"):
        key += f".{refused.detail}"
    if refused.code is Code.NOT_AUTHORIZED and refused.field == "enquiry":
        key += ".enquiry"
    if key in _BY_BOOKING and (number := booking_id(refused.detail or "")) is not None:
        detail = booking_number(number)  # an enquiry is named by its booking number, B-0012
    if refused.code is Code.NOT_AUTHORIZED and refused.detail in ("edit_confirmed", "ping"):
        key += f".{refused.detail}"
    if refused.code is Code.NOT_A_MANAGER and refused.hold is not None:
        key += ".hold"  # acting on a house hold; without one: asking for a house hold
    if refused.code is Code.ITEM_NOT_FOUND:
        key += ".which" if refused.field == "which" else ".item"
    if refused.code is Code.ENQUIRY_MISMATCH:
        key += f".{refused.field}"
        if refused.field == "kind":
            detail = esc(kind_name(refused.detail, "", locale))
    hold = refused.hold
    facts = {
        "detail": detail,
        "limit": refused.limit,
        "rank": refused.rank,
        "rank_text": ordinal(refused.rank or 0, locale),
        "limit_text": ordinal(refused.limit or 0, locale),
        "holders": holders(refused.holders, tz, locale, style=style),
        "opens": dates.when(refused.opens_at, tz, locale, year=True, style=style)
        if refused.opens_at
        else "",
        "hold": hold_line(hold, tz, locale, style=style) if hold else "",
        "salesperson": esc(hold.salesperson) if hold else "",
        "paid": paid_text(hold, tz, locale, style=style) if hold else "",
        "status": status_text(hold, locale) if hold else "",
        "deadline": dates.when(hold.expires_at, tz, locale, style=style)
        if hold and hold.expires_at
        else "",
        "candidates": " / ".join(hold_line(h, tz, locale, style=style) for h in refused.holders),
        "room": esc(refused.room_name),
        "gap": esc(refused.gap),
        "zone": tz.key,
        "rooms": ", ".join(esc(i.room_name) for i in hold.items) if hold else "",
        "kinds": kind_choices(refused.kinds, locale),
        "choices": ", ".join(refused.choices),
        "kind": _asked_kind(refused, locale),
        "in_way": in_way_list(refused.in_way, tz, locale, style=style)
        or holders(refused.holders, tz, locale, style=style),
    }
    said = text(locale, key, **facts)
    if refused.room_name and refused.code is not Code.ITEMS_OVERLAP:
        return text(locale, "refusal.in_room", room=esc(refused.room_name), reason=said)
    return said


def describe_warning(
    warning: RequestWarning, tz: ZoneInfo, locale: str | None, *, style: DateStyle = PLAIN
) -> str:
    """The same customer under another enquiry, or guests over a room's capacity: what to
    check, never a refusal."""
    if warning.code is WarningCode.OVER_CAPACITY:
        return text(
            locale,
            "warning.over_capacity",
            room=esc(warning.room_name),
            capacity=warning.capacity,
            guests=warning.guests,
        )
    listed = " / ".join(
        f"{hold_line(h, tz, locale, style=style)} ({booking_number(h.enquiry_id)})"
        for h in warning.holds[:5]
    )
    return text(
        locale, f"warning.{warning.code.value}", customer=esc(warning.customer), holds=listed
    )


def hold_line(
    hold: Hold,
    tz: ZoneInfo,
    locale: str | None,
    *,
    plain: bool = False,
    style: DateStyle = PLAIN,
) -> str:
    """``#12 鳳凰の間 3/10(水・仏滅) 11:00〜15:00 山田様（婚礼）``, escaped for mrkdwn and fallback
    text; ``plain`` leaves it as typed, for plain_text (which Slack does not parse)."""
    quote = (lambda typed: typed) if plain else esc
    # a package: #12 5/15(土・大安) チャペル 11:00〜12:00 + 鳳凰の間 12:30〜15:30 山田様（婚礼）
    if hold.is_package:
        return text(
            locale,
            "hold.line.package",
            id=hold.id,
            day=dates.day(hold.local_date, locale, style=style),
            items=items_line(hold, tz, locale, plain=plain),
            customer=quote(hold.customer),
            kind=kind_and_guests(hold, locale, quote),
        )
    return text(
        locale,
        "hold.line",
        id=hold.id,
        room=quote(hold.room_name),
        day=dates.day(hold.local_date, locale, style=style),
        times=dates.time_range(hold.start_at, hold.end_at, tz, locale),
        customer=quote(hold.customer),
        kind=kind_and_guests(hold, locale, quote),
    )


def items_line(
    hold: Hold,
    tz: ZoneInfo,
    locale: str | None,
    *,
    plain: bool = False,
) -> str:
    """``チャペル 11:00〜12:00 + 鳳凰の間 12:30〜15:30``: every room of a hold with its times."""
    quote = (lambda typed: typed) if plain else esc
    return " + ".join(
        text(
            locale,
            "hold.item",
            room=quote(item.room_name),
            times=dates.time_range(item.start_at, item.end_at, tz, locale),
        )
        for item in hold.items
    )


def holders(
    found: tuple[Hold, ...], tz: ZoneInfo, locale: str | None, *, style: DateStyle = PLAIN
) -> str:
    if not found:
        return text(locale, "nobody")
    return " / ".join(_holder(h, tz, locale, style) for h in found)


def in_way_list(
    found: tuple[InWay, ...], tz: ZoneInfo, locale: str | None, *, style: DateStyle = PLAIN
) -> str:
    """Everyone in the way: ``1番手 #1 山田様（婚礼）担当 <@U1> 期限 3/8(月) 9:00まで / 2番手
    #2 ...（＋転換90分で重なり）``; "" when nobody is named."""
    return " / ".join(in_way_entry(one, tz, locale, style=style) for one in found)


def in_way_entry(
    found: InWay, tz: ZoneInfo, locale: str | None, *, style: DateStyle = PLAIN
) -> str:
    hold = found.hold
    if hold.status is Status.CONFIRMED:
        place = text(locale, "status.confirmed")
    else:
        place = ordinal(hold.rank or 0, locale)
    deadline = (
        text(
            locale,
            "in_way.deadline",
            deadline=dates.deadline(hold.expires_at, tz, locale, style=style),
        )
        if hold.expires_at
        else ""
    )
    turnover = (
        text(locale, "in_way.turnover", minutes=found.turnover_min)
        if found.turnover_min is not None
        else ""
    )
    return text(
        locale,
        "in_way.item",
        place=place,
        id=hold.id,
        customer=esc(hold.customer),
        kind=hold_kind(hold, locale),
        salesperson=esc(hold.salesperson),
        deadline=deadline,
        turnover=turnover,
    )


def turnover_only(found: tuple[InWay, ...]) -> int | None:
    """The turnover minutes when only turnover puts every one of them in the way."""
    minutes = [f.turnover_min for f in found]
    if not minutes or None in minutes:
        return None
    return max(m for m in minutes if m is not None)


def _asked_kind(refused: Refused, locale: str | None) -> str:
    """The kind a banquet-window refusal was asked for (一般宴会, 二次会)."""
    if refused.code not in (Code.BANQUET_NOT_OPEN, Code.WINDOW_OPEN):
        return ""
    if refused.kinds:
        return esc(kind_name(refused.kinds[0].id, refused.kinds[0].name, locale))
    return text(locale, "kind.banquet")


def ordinal(n: int, locale: str | None) -> str:
    """``2番手`` / ``2nd``."""
    if lang(locale) == "ja":
        return text(locale, "rank", rank=n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return text(locale, "rank", rank=n, suffix=suffix)


def _holder(hold: Hold, tz: ZoneInfo, locale: str | None, style: DateStyle) -> str:
    line = f"{esc(hold.customer)}（{hold_kind(hold, locale)}）"
    if lang(locale) != "ja":
        line = f"{esc(hold.customer)} ({hold_kind(hold, locale)})"
    if hold.expires_at:
        line += " " + text(
            locale,
            "hold.first_until",
            deadline=dates.deadline(hold.expires_at, tz, locale, style=style),
        )
    return line
