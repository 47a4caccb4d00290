"""A manager's App Home: the whole team's deadlines today and within the week, the 2nd
queues, this month's outcomes, then the manager's own holds when they fit (100 blocks)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block, DividerBlock
from slack_sdk.models.views import View

from bot import cards, ids
from bot.blocks import MAX_VIEW_BLOCKS, chunk_lines, context, header, section
from bot.texts import dates, esc, text
from bot.texts.dates import PLAIN, DateStyle
from bot.texts.refusals import ordinal
from bot.views.deposits import team_overdue
from bot.views.home import diary_section, home_view
from bot.views.month_reasons import month_lines
from core.ledger_views import MonthCounts, TeamHome
from core.model import Hold, Venue
from core.results import Overview, Waiting

MAX_TODAY = 10  # with buttons: two blocks each
MAX_LINES = 30  # deadlines this week, queues: one line each


def manager_home_view(
    team: TeamHome,
    overview: Overview,
    tz: ZoneInfo,
    locale: str,
    now: datetime,
    *,
    style: DateStyle = PLAIN,
    pipeline: Sequence[Block] = (),
    venue: Venue | None = None,  # names the month's release reasons (its list, when it has one)
) -> View:
    """``pipeline``: the pipeline's blocks (``bot.pipeline_home``), under the month's counts."""
    blocks: list[Block] = [
        header(text(locale, "team.home.title")),
        context(text(locale, "team.home.footer", when=dates.when(now, tz, locale))),
        diary_section(locale),
        *_today(team.today, tz, locale, style),
        *_week(team.week, tz, locale, style),
        DividerBlock(),
        *_queues(team.queues, tz, locale, style),
        DividerBlock(),
        *team_overdue(team.overdue, tz, locale, style),  # 予約金 past due, when any
        *_month(team.month, locale, venue),
        *pipeline,
        DividerBlock(),
    ]
    if not (overview.firsts or overview.waiting or overview.recent or overview.deposits):
        return View(type="home", callback_id=ids.HOME, blocks=blocks[:-1])  # none of their own
    own = [  # no title or footer, and the diary's button once, above
        b
        for b in home_view(overview, tz, locale, now, style=style).blocks[2:]
        if b.block_id != ids.DIARY_BLOCK
    ]
    room = MAX_VIEW_BLOCKS - len(blocks) - 1
    if len(own) <= room:
        blocks += [section(f"*{text(locale, 'team.home.mine')}*"), *own]
    else:
        blocks.append(context(text(locale, "team.home.mine.elsewhere")))
    return View(type="home", callback_id=ids.HOME, blocks=blocks)


def _today(due: tuple[Hold, ...], tz: ZoneInfo, locale: str, style: DateStyle) -> list[Block]:
    title = section(f"*{text(locale, 'team.home.today', count=len(due))}*")
    if not due:
        return [title, context(text(locale, "team.home.today.empty"))]
    blocks: list[Block] = [title]
    for hold in due[:MAX_TODAY]:
        # a manager may confirm, extend or release it
        blocks += cards.card(hold, tz, locale, style=style)
    return blocks + _more(len(due) - MAX_TODAY, locale)


def _week(due: tuple[Hold, ...], tz: ZoneInfo, locale: str, style: DateStyle) -> list[Block]:
    title = section(f"*{text(locale, 'team.home.week', count=len(due))}*")
    if not due:
        return [title, context(text(locale, "team.home.week.empty"))]
    lines = [deadline_line(h, tz, locale, style=style) for h in due[:MAX_LINES]]
    return [title, *(section(c) for c in chunk_lines(lines)), *_more(len(due) - MAX_LINES, locale)]


def deadline_line(hold: Hold, tz: ZoneInfo, locale: str | None, *, style: DateStyle = PLAIN) -> str:
    return text(
        locale,
        "team.home.deadline",
        hold=cards.line(hold, tz, locale, style=style),
        deadline=cards.deadline(hold, tz, locale, style=style),
        salesperson=esc(hold.salesperson),
    )


def _queues(
    queues: tuple[Waiting, ...], tz: ZoneInfo, locale: str, style: DateStyle
) -> list[Block]:
    title = section(f"*{text(locale, 'team.home.queues', count=len(queues))}*")
    if not queues:
        return [title, context(text(locale, "team.home.queues.empty"))]
    lines = [queue_line(q.hold, q.ahead, tz, locale, style=style) for q in queues[:MAX_LINES]]
    blocks: list[Block] = [title, *(section(c) for c in chunk_lines(lines))]
    return blocks + _more(len(queues) - MAX_LINES, locale)


def queue_line(
    hold: Hold,
    ahead: tuple[Hold, ...],
    tz: ZoneInfo,
    locale: str | None,
    *,
    style: DateStyle = PLAIN,
) -> str:
    named = " / ".join(
        text(
            locale,
            "team.home.ahead",
            hold=cards.brief(a, locale),
            deadline=cards.deadline(a, tz, locale, style=style),
            salesperson=esc(a.salesperson),
        )
        for a in ahead
    )
    return text(
        locale,
        "team.home.queue",
        hold=cards.line(hold, tz, locale, style=style),
        rank_text=ordinal(hold.rank or 0, locale),
        salesperson=esc(hold.salesperson),
        ahead=named or text(locale, "nobody"),
    )


def _month(month: MonthCounts, locale: str, venue: Venue | None) -> list[Block]:
    number = int(month.month[5:])
    counts = text(locale, "team.home.counts", **month.outcomes())
    title = text(locale, "team.home.month", month=number, label=month.month)
    if month.house_held or month.house_released:  # 社内押さえ, counted apart
        held, released = month.house_held, month.house_released
        counts += "\n" + text(locale, "house.stats", held=held, released=released)
    why = "\n".join(month_lines(month, venue, locale))  # losses, releases by reason
    return [section(f"*{title}*\n{counts}\n{why}")]


def _more(count: int, locale: str) -> list[Block]:
    return [context(text(locale, "team.home.more", count=count))] if count > 0 else []
