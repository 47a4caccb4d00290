"""App Home: my 1st holds with deadlines and buttons, my waiting holds with who is ahead and
until when, and recent outcomes; within the 100 blocks a Home tab may have. Candidate dates
of one enquiry sit side by side, each naming the others; a tentative hold has "Another date".
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block, ButtonElement, DividerBlock, SectionBlock
from slack_sdk.models.views import View

from bot import cards, ids
from bot.blocks import context, header, plain, section
from bot.enquiries import candidates_note, grouped
from bot.texts import dates, lang, text
from bot.texts.dates import DateStyle
from bot.texts.kinds import status_text
from bot.texts.refusals import ordinal
from bot.views.deposits import home_deposits
from core.model import Hold
from core.results import Overview, Waiting

MAX_FIRSTS = 20  # two blocks each
MAX_WAITING = 15  # two blocks each
MAX_RECENT = 10  # one line each, in one block


def home_view(
    overview: Overview,
    tz: ZoneInfo,
    locale: str,
    now: datetime,
    *,
    style: DateStyle | None = None,
) -> View:
    """``style``: the venue's (``dates.style_for``); without it, the year is shown against
    ``now`` and the 六曜 as a venue shows it by default. Deadlines say the time left."""
    seen = style or DateStyle(today=now.astimezone(tz).date(), rokuyo=True)
    find = section(text(locale, "find.lead"))
    find.accessory = ButtonElement(
        action_id=ids.FIND_SLOT, text=plain(text(locale, "find.button"), 75), value="find"
    )
    blocks: list[Block] = [
        header(text(locale, "home.title")),
        context(text(locale, "home.footer", when=dates.when(now, tz, locale, style=seen))),
        find,
        diary_section(locale),
        *_firsts(overview, tz, locale, seen, now),
        DividerBlock(),
        *_waiting(overview, tz, locale, seen, now),
        *home_deposits(overview.deposits, tz, locale, seen, now),  # 予約金, when any
        DividerBlock(),
        *_recent(overview, tz, locale, seen),
    ]
    return View(type="home", callback_id=ids.HOME, blocks=blocks)


def diary_section(locale: str) -> SectionBlock:
    """The diary picture of this week, uploaded to the person's DM (``listeners.diary``)."""
    lead = section(text(locale, "diary.home.lead"), block_id=ids.DIARY_BLOCK)
    lead.accessory = ButtonElement(
        action_id=ids.DIARY_WEEK, text=plain(text(locale, "diary.home.button"), 75), value="week"
    )
    return lead


def _firsts(
    overview: Overview, tz: ZoneInfo, locale: str, style: DateStyle, now: datetime
) -> list[Block]:
    blocks: list[Block] = [section(f"*{text(locale, 'home.firsts')}*")]
    firsts = grouped(sorted(overview.firsts, key=lambda h: (h.expires_at or h.start_at, h.id)))
    if not firsts:
        return [*blocks, context(text(locale, "home.firsts.empty"))]
    live = _live(overview)
    for hold in firsts[:MAX_FIRSTS]:
        note = candidates_note(hold, live, tz, locale, style=style) or None
        # the user's own holds: the customer's contact too
        blocks += cards.card(
            hold, tz, locale, lead=note, another=True, contact=True, style=style, now=now
        )
    return blocks + _more(len(firsts) - MAX_FIRSTS, locale)


def _waiting(
    overview: Overview, tz: ZoneInfo, locale: str, style: DateStyle, now: datetime
) -> list[Block]:
    blocks: list[Block] = [section(f"*{text(locale, 'home.waiting')}*")]
    if not overview.waiting:
        return [*blocks, context(text(locale, "home.waiting.empty"))]
    live = _live(overview)
    order = {h.id: i for i, h in enumerate(grouped([w.hold for w in overview.waiting]))}
    waiting = sorted(overview.waiting, key=lambda w: order[w.hold.id])
    for item in waiting[:MAX_WAITING]:
        note = candidates_note(item.hold, live, tz, locale, style=style)
        line = _waiting_line(item, tz, locale, style, now)
        blocks.append(section("\n".join(filter(None, [note, line]))))
        buttons = cards.card_buttons(item.hold, tz, locale, another=True, style=style)
        if buttons is not None:
            blocks.append(buttons)
    return blocks + _more(len(overview.waiting) - MAX_WAITING, locale)


def _live(overview: Overview) -> list[Hold]:
    return [*overview.firsts, *(w.hold for w in overview.waiting)]


def _waiting_line(item: Waiting, tz: ZoneInfo, locale: str, style: DateStyle, now: datetime) -> str:
    ahead = " / ".join(
        text(
            locale,
            "home.ahead",
            hold=cards.brief(a, locale),
            deadline=cards.deadline(a, tz, locale, style=style, now=now),
        )
        for a in item.ahead
    )
    rank_text = ordinal(item.hold.rank or 0, locale)
    if item.hold.is_package:  # which room it waits on
        rank_text += (
            f"（{cards.item_ranks(item.hold, locale)}）"
            if lang(locale) == "ja"
            else (f" ({cards.item_ranks(item.hold, locale)})")
        )
    said = text(
        locale,
        "home.waiting.item",
        hold=cards.line(item.hold, tz, locale, style=style),
        rank_text=rank_text,
        ahead=ahead or text(locale, "nobody"),
    )
    more = cards.details(item.hold, locale, contact=True)
    return f"{said}\n{more}" if more else said


def _recent(overview: Overview, tz: ZoneInfo, locale: str, style: DateStyle) -> list[Block]:
    title = section(f"*{text(locale, 'home.recent')}*")
    if not overview.recent:
        return [title, context(text(locale, "home.recent.empty"))]
    lines = [
        text(
            locale,
            "home.recent.item",
            hold=cards.line(h, tz, locale, style=style),
            status=status_text(h, locale),
            when=dates.when(h.updated_at, tz, locale, style=style),
        )
        for h in overview.recent[:MAX_RECENT]
    ]
    return [title, section("\n".join(lines)), *_more(len(overview.recent) - MAX_RECENT, locale)]


def _more(count: int, locale: str) -> list[Block]:
    return [context(text(locale, "home.more", count=count))] if count > 0 else []
