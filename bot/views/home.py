"""App Home: my 1st holds with deadlines and buttons, my waiting holds with who is ahead and
until when, and recent outcomes; within the 100 blocks a Home tab may have.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block, DividerBlock
from slack_sdk.models.views import View

from bot import cards, ids
from bot.blocks import context, header, section
from bot.texts import dates, text
from bot.texts.kinds import status_text
from bot.texts.refusals import ordinal
from core.results import Overview, Waiting

MAX_FIRSTS = 20  # two blocks each
MAX_WAITING = 15  # two blocks each
MAX_RECENT = 10  # one line each, in one block


def home_view(overview: Overview, tz: ZoneInfo, locale: str, now: datetime) -> View:
    blocks: list[Block] = [
        header(text(locale, "home.title")),
        context(text(locale, "home.footer", when=dates.when(now, tz, locale))),
        *_firsts(overview, tz, locale),
        DividerBlock(),
        *_waiting(overview, tz, locale),
        DividerBlock(),
        *_recent(overview, tz, locale),
    ]
    return View(type="home", callback_id=ids.HOME, blocks=blocks)


def _firsts(overview: Overview, tz: ZoneInfo, locale: str) -> list[Block]:
    blocks: list[Block] = [section(f"*{text(locale, 'home.firsts')}*")]
    firsts = sorted(overview.firsts, key=lambda h: (h.expires_at or h.start_at, h.id))
    if not firsts:
        return [*blocks, context(text(locale, "home.firsts.empty"))]
    for hold in firsts[:MAX_FIRSTS]:
        blocks += cards.card(hold, tz, locale, contact=True)  # the user's own holds
    return blocks + _more(len(firsts) - MAX_FIRSTS, locale)


def _waiting(overview: Overview, tz: ZoneInfo, locale: str) -> list[Block]:
    blocks: list[Block] = [section(f"*{text(locale, 'home.waiting')}*")]
    if not overview.waiting:
        return [*blocks, context(text(locale, "home.waiting.empty"))]
    for item in overview.waiting[:MAX_WAITING]:
        blocks.append(section(_waiting_line(item, tz, locale)))
        buttons = cards.decision_buttons(item.hold, tz, locale)
        if buttons is not None:
            blocks.append(buttons)
    return blocks + _more(len(overview.waiting) - MAX_WAITING, locale)


def _waiting_line(item: Waiting, tz: ZoneInfo, locale: str) -> str:
    ahead = " / ".join(
        text(
            locale,
            "home.ahead",
            hold=cards.brief(a, locale),
            deadline=cards.deadline(a, tz, locale),
        )
        for a in item.ahead
    )
    said = text(
        locale,
        "home.waiting.item",
        hold=cards.line(item.hold, tz, locale),
        rank_text=ordinal(item.hold.rank or 0, locale),
        ahead=ahead or text(locale, "nobody"),
    )
    more = cards.details(item.hold, locale, contact=True)
    return f"{said}\n{more}" if more else said


def _recent(overview: Overview, tz: ZoneInfo, locale: str) -> list[Block]:
    title = section(f"*{text(locale, 'home.recent')}*")
    if not overview.recent:
        return [title, context(text(locale, "home.recent.empty"))]
    lines = [
        text(
            locale,
            "home.recent.item",
            hold=cards.line(h, tz, locale),
            status=status_text(h, locale),
            when=dates.when(h.updated_at, tz, locale),
        )
        for h in overview.recent[:MAX_RECENT]
    ]
    return [title, section("\n".join(lines)), *_more(len(overview.recent) - MAX_RECENT, locale)]


def _more(count: int, locale: str) -> list[Block]:
    return [context(text(locale, "home.more", count=count))] if count > 0 else []
