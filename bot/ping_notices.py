"""The window ping (開放日に知らせる) as people read it: one line of the request kept, and the
DM its asker gets when the date's banquet window opens, with the button that opens the /hold
form filled in (``bot.listeners.pings``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import ActionsBlock, Block, ButtonElement

from bot import ids
from bot.blocks import dump, plain, section
from bot.rendered import Payload, Rendered
from bot.texts import dates, esc, text
from bot.texts.dates import DateStyle
from bot.texts.kinds import kind_name
from core.model import HoldRequest
from core.pings import ping_from_json


def request_line(
    req: HoldRequest,
    names: Mapping[str, str],
    kind: str,
    tz: ZoneInfo,
    locale: str | None,
    style: DateStyle,
) -> str:
    """``12/19(土) 鳳凰の間 18:00〜21:00・忘年会・山田商事様・80名``; typed text escaped."""
    midnight = datetime.combine(req.local_date, time(0), tzinfo=tz)
    rooms = " + ".join(
        f"{esc(names.get(i.room_id, i.room_id))} "
        + dates.time_range(
            midnight + timedelta(minutes=i.start_min),
            midnight + timedelta(minutes=i.end_min),
            tz,
            locale,
        )
        for i in req.items
    )
    guests = text(locale, "ping.guests", guests=req.guests) if req.guests else ""
    return text(
        locale,
        "ping.line",
        day=dates.day(req.local_date, locale, style=style),
        rooms=rooms,
        kind=esc(kind_name(req.kind, kind, locale)),
        customer=esc(req.customer),
        guests=guests,
    )


def window_open(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    """To whoever asked: the date is open for banquets now, what they asked for, and 押さえる
    (the form filled in with it)."""
    ping = ping_from_json(payload["ping"])
    req = ping.request
    kind = str(payload.get("kind") or req.kind)
    names = {str(k): str(v) for k, v in dict(payload.get("room_names") or {}).items()}
    opened = ping.opens_at or ping.done_at or now
    facts = {
        "day": dates.day(req.local_date, locale, style=style),
        "kind": esc(kind_name(req.kind, kind, locale)),
        "opens": dates.when(opened, tz, locale, style=style),
        "line": request_line(req, names, kind, tz, locale, style),
        "customer": esc(req.customer),
    }
    body = "\n".join(
        [text(locale, "notice.window_open.title"), text(locale, "notice.window_open.body", **facts)]
    )
    button = ButtonElement(
        action_id=ids.PING_HOLD,
        text=plain(text(locale, "notice.window_open.button"), 75),
        value=str(ping.id),
        style="primary",
    )
    blocks: list[Block] = [section(body), ActionsBlock(elements=[button])]
    return Rendered(text(locale, "notice.window_open.text", **facts), dump(blocks))
