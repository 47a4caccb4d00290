"""The managers' Monday digest (``manager_digest`` DMs): last week's numbers (enquiries,
confirmed, lost by reason; docs/rules.md, The pipeline report), the whole venue's deadlines
of the week, every 2nd queue and the deposits past due. Lines, no buttons (the manager acts
from App Home or the salesperson's DM)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block

from bot.blocks import chunk_lines, context, dump, header, section
from bot.deposit_notices import overdue_blocks
from bot.pipeline import reason_name
from bot.rendered import Payload, Rendered
from bot.texts import dates, lang, text
from bot.texts.dates import DateStyle
from bot.views import manager
from core.rules.pipeline import reason_order
from core.serialize import hold_from_json

MAX_DIGEST_LINES = 60  # of each list in a manager's digest: 60 lines fill a few sections


def render(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    """To a manager: the whole venue's deadlines of the week, then every 2nd queue; lines,
    no buttons (the manager acts from App Home or the salesperson's DM)."""
    holds = sorted(
        (hold_from_json(h) for h in payload["holds"]),
        key=lambda h: (h.expires_at or datetime.max.replace(tzinfo=tz), h.id),
    )
    waiting = [
        (hold_from_json(w["hold"]), tuple(hold_from_json(a) for a in w["ahead"]))
        for w in payload["waiting"]
    ]
    start, until = datetime.fromisoformat(payload["from"]), datetime.fromisoformat(payload["until"])
    title = text(
        locale,
        "notice.manager_digest.title",
        start=dates.day(start.astimezone(tz).date(), locale, style=style),
        end=dates.day(until.astimezone(tz).date(), locale, style=style),
    )
    shown = MAX_DIGEST_LINES
    deadlines = [manager.deadline_line(h, tz, locale, style=style) for h in holds[:shown]]
    queues = [manager.queue_line(h, ahead, tz, locale, style=style) for h, ahead in waiting[:shown]]
    key = "notice.manager_digest.deadlines"
    blocks: list[Block] = [header(title), *last_week_blocks(payload, tz, locale, style)]
    blocks.append(section(text(locale, key, count=len(holds))))
    blocks += [section(c) for c in chunk_lines(deadlines)] or [
        context(text(locale, f"{key}.empty"))
    ]
    if queues:
        blocks.append(section(text(locale, "notice.manager_digest.queues", count=len(waiting))))
        blocks += [section(c) for c in chunk_lines(queues)]
    blocks += overdue_blocks(payload, tz, locale, style, MAX_DIGEST_LINES)  # 予約金 past due
    left = max(0, len(holds) - shown) + max(0, len(waiting) - shown)
    if left:
        blocks.append(context(text(locale, "notice.manager_digest.more", count=left)))
    summary = text(locale, "notice.manager_digest.text", deadlines=len(holds), waiting=len(waiting))
    return Rendered(summary, dump(blocks))


def last_week_blocks(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle
) -> list[Block]:
    """Last week's numbers, when the row has them (rows written before have none)."""
    week = payload.get("last_week")
    if not week:
        return []
    start = datetime.fromisoformat(week["from"]).astimezone(tz).date()
    end = datetime.fromisoformat(week["until"]).astimezone(tz).date()
    joiner = "、" if lang(locale) == "ja" else ", "
    lost: dict[str, int] = week["lost_by_reason"]
    code = locale or "ja"
    reasons = joiner.join(f"{reason_name(r, code)} {lost[r]}" for r in reason_order(lost))
    said = text(
        locale,
        "pipeline.digest.numbers",
        enquiries=week["enquiries"],
        confirmed=week["confirmed"],
        lost=week["lost"],
        reasons=text(locale, "pipeline.digest.reasons", reasons=reasons) if reasons else "",
        expired=week["expired"],
    )
    title = text(
        locale,
        "pipeline.digest.title",
        start=dates.day(start, locale, style=style),
        end=dates.day(end - timedelta(days=1), locale, style=style),
    )
    return [section(f"*{title}*\n{said}")]
