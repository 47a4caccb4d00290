"""The DMs the jobs send from the outbox, and the report of the ones that could not be sent.

Pure functions of an outbox row: ``render_notice(notice, tz=venue.tz, locale=...)`` gives the
notification text (the fallback Slack shows in push notifications) and the Block Kit blocks,
always within Slack's limits (at most 50 blocks a message).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block

from bot import cards, follow_ups, manager_digest, ping_notices
from bot.blocks import MAX_MESSAGE_BLOCKS, chunk_lines, clip, context, dump, header, section
from bot.deposit_notices import DEPOSIT_RENDERERS
from bot.enquiries import candidates_note, grouped
from bot.rendered import Rendered
from bot.texts import dates, esc, text
from bot.texts.dates import DateStyle
from bot.texts.refusals import hold_line, ordinal
from core.booking import booking_number
from core.event_kinds import dm_kinds
from core.model import Hold
from core.notices import Notice, NoticeKind
from core.serialize import hold_from_json

MAX_FAILURES_LISTED = 30
MAX_ERROR_SHOWN = 200


class UnrenderableNotice(ValueError):
    """An outbox row of an unknown kind or with a payload this version cannot read."""


def render_notice(
    notice: Notice,
    *,
    tz: ZoneInfo,
    locale: str | None,
    rokuyo: bool = True,
    now: datetime | None = None,
) -> Rendered:
    """The DM for one outbox row; raises ``UnrenderableNotice`` (a ValueError) if it can't.
    ``rokuyo``: the venue's ``show_rokuyo``; ``now`` (default: when the row was written)
    decides which dates carry their year and the time left to each deadline."""
    try:
        render = _renderer(NoticeKind(notice.kind))
        at = now or notice.created_at
        return render(notice.payload, tz, locale, style_at(at, tz, rokuyo), at)
    except (KeyError, TypeError, ValueError) as err:
        raise UnrenderableNotice(f"notice {notice.id} ({notice.kind}): {err!r}") from err


def _renderer(kind: NoticeKind) -> Renderer:
    """The renderer of a kind of DM some event sends (a card row is none: KeyError)."""
    if kind not in dm_kinds():
        raise KeyError(kind)
    return RENDERERS[kind]


def render_failure_report(
    notices: Sequence[Notice],
    *,
    tz: ZoneInfo,
    locale: str | None,
    rokuyo: bool = True,
    now: datetime | None = None,
) -> Rendered:
    """For the sales channel: which notices could not be delivered, to whom, and why."""
    count = len(notices)
    title = text(locale, "failures.title", count=count)
    style = style_at(now, tz, rokuyo) if now else DateStyle(rokuyo=rokuyo)
    items = [_failure_item(n, tz, locale, style) for n in notices[:MAX_FAILURES_LISTED]]
    blocks: list[Block] = [section(title)]
    blocks += [section(chunk) for chunk in chunk_lines(items)]
    if count > MAX_FAILURES_LISTED:
        blocks.append(context(text(locale, "failures.more", count=count - MAX_FAILURES_LISTED)))
    return Rendered(text(locale, "failures.text", count=count), dump(blocks[:MAX_MESSAGE_BLOCKS]))


# -- one renderer per kind -------------------------------------------------------------------
Payload = dict[str, Any]
Renderer = Callable[[Payload, ZoneInfo, str | None, DateStyle, datetime], Rendered]


def _promoted(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    """Says why it moved up, with Confirm, Extend, Release and Edit (as App Home shows them)."""
    hold = hold_of(payload)
    facts = {
        "hold": cards.line(hold, tz, locale, style=style),
        "deadline": cards.deadline(hold, tz, locale, style=style, now=now),
    }
    cause = payload.get("cause") or "unknown"
    why = text(locale, f"promoted.why.{cause}", ahead=ids_text(payload.get("after", [])))
    return _single("promoted", hold, facts, tz, locale, style, buttons=True, why=why)


def _queued(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    hold, behind = hold_of(payload), hold_from_json(payload["behind"])
    facts = {
        "hold": cards.line(hold, tz, locale, style=style),
        "behind": cards.brief(behind, locale),
        "salesperson": esc(behind.salesperson),
        "deadline": cards.deadline(hold, tz, locale, style=style, now=now),
    }
    kind = "queued.house" if hold.house else "queued"  # 社内押さえ: no deadline to meet
    return _single(kind, hold, facts, tz, locale, style, buttons=True)


def _cancelled(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    hold = hold_of(payload)
    facts = {
        "hold": cards.line(hold, tz, locale, style=style),
        "actor": esc(str(payload["actor"])),
        "reason": reason_text(payload, locale),
    }
    return _single("cancelled", hold, facts, tz, locale, style)


def _nudged(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    """To the 1st: who asks and its new deadline (no Extend); to the waiting hold: sent."""
    hold, first = hold_of(payload), hold_from_json(payload["first"])
    asker = hold_from_json(payload["asker"])
    facts = {
        "hold": cards.line(hold, tz, locale, style=style),
        "first": cards.brief(first, locale),
        "asker": cards.brief(asker, locale),
        "actor": esc(str(payload["actor"])),
        "salesperson": esc(first.salesperson),
        "rank_text": ordinal(hold.rank or 0, locale),
        "deadline": cards.deadline(first, tz, locale, style=style, now=now),
    }
    if payload["to"] == "first":
        return _single("nudged", hold, facts, tz, locale, style, buttons=True, extend=False)
    return _single("nudge_sent", hold, facts, tz, locale, style)


def _lost(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    hold, winner = hold_of(payload), hold_from_json(payload["winner"])
    facts = {
        "hold": cards.line(hold, tz, locale, style=style),
        "winner": cards.brief(winner, locale),
    }
    return _single("lost", hold, facts, tz, locale, style)


def _other_date_chosen(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    hold, chosen = hold_of(payload), hold_from_json(payload["chosen"])
    facts = {
        "hold": cards.line(hold, tz, locale, style=style),
        "chosen": hold_line(chosen, tz, locale, style=style),  # of the same booking
    }
    return _single("other_date_chosen", hold, facts, tz, locale, style)


def _expired(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    hold = hold_of(payload)
    return _single(
        "expired", hold, {"hold": cards.line(hold, tz, locale, style=style)}, tz, locale, style
    )


def _extended(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    hold, ahead = hold_of(payload), hold_from_json(payload["ahead"])
    facts = {
        "hold": cards.line(hold, tz, locale, style=style),
        "rank_text": ordinal(hold.rank or 0, locale),
        "ahead": cards.brief(ahead, locale),
        "deadline": cards.deadline(ahead, tz, locale, style=style, now=now),
    }
    return _single("extended", hold, facts, tz, locale, style)


def _reminder(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    hold = hold_of(payload)
    facts = {
        "hold": cards.line(hold, tz, locale, style=style),
        "deadline": cards.deadline(hold, tz, locale, style=style, now=now),
    }
    return _single("reminder", hold, facts, tz, locale, style, buttons=True)


def _next_action(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    hold = hold_of(payload)  # the morning of its booking's next action
    note = hold.details.next_action_note
    facts = {
        "hold": hold_line(hold, tz, locale, style=style),  # its booking number: {booking}
        "booking": booking_number(hold.enquiry_id),
        "note": text(locale, "notice.next_action.note", note=esc(note)) if note else "",
    }
    return _single("next_action", hold, facts, tz, locale, style)


def _acted_for(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    """Someone else acted on the salesperson's hold: who, what and (a release) why."""
    hold = hold_of(payload)
    reason = str(payload.get("reason") or "")
    why = text(locale, f"reason.{reason}") if reason else ""
    note = str(payload.get("note") or "").strip()
    facts = {
        "hold": hold_line(hold, tz, locale, style=style),  # its booking number: {booking}
        "booking": booking_number(hold.enquiry_id),
        "actor": esc(str(payload["actor"])),
        "did": text(locale, f"notice.acted_for.{payload['action']}"),
        "why": text(locale, "notice.acted_for.why", reason=why, note=esc(note)) if why else "",
    }
    return _single("acted_for", hold, facts, tz, locale, style)


def _digest(
    payload: Payload, tz: ZoneInfo, locale: str | None, style: DateStyle, now: datetime
) -> Rendered:
    """A header, then each hold with its buttons (two blocks each) while they fit in 50."""
    holds = sorted(
        (hold_from_json(h) for h in payload["holds"]),
        key=lambda h: (h.expires_at or datetime.max.replace(tzinfo=tz), h.id),
    )
    start, until = datetime.fromisoformat(payload["from"]), datetime.fromisoformat(payload["until"])
    title = text(
        locale,
        "notice.digest.title",
        start=dates.day(start.astimezone(tz).date(), locale, style=style),
        end=dates.day(until.astimezone(tz).date(), locale, style=style),
    )
    follow = follow_ups.digest_blocks(payload, tz, locale, style, now)  # 次のアクション
    if not holds:
        said = follow_ups.digest_text(payload, locale) if follow else title
        empty = context(text(locale, "notice.digest.empty"))
        return Rendered(said, dump([header(title), empty, *follow]))
    left = MAX_MESSAGE_BLOCKS - len(follow)
    room = (left - 2) // 2  # header and intro take two blocks
    shown = holds if len(holds) <= room else holds[: (left - 3) // 2]
    blocks: list[Block] = [
        header(title),
        context(text(locale, "notice.digest.intro", count=len(holds))),
    ]
    for hold in grouped(shown):  # candidate dates of one enquiry side by side
        item = text(
            locale,
            "notice.digest.item",
            hold=cards.line(hold, tz, locale, style=style),
            deadline=cards.deadline(hold, tz, locale, style=style, now=now),
        )
        note = candidates_note(hold, holds, tz, locale, style=style)
        blocks.append(section("\n".join(filter(None, [note, item]))))
        buttons = cards.decision_buttons(hold, tz, locale, style=style)
        if buttons is not None:
            blocks.append(buttons)
    if len(shown) < len(holds):
        blocks.append(context(text(locale, "notice.digest.more", count=len(holds) - len(shown))))
    return Rendered(text(locale, "notice.digest.text", count=len(holds)), dump(blocks + follow))


# One renderer per kind of DM ``core.event_kinds`` declares (tests/engine/test_event_kinds.py).
RENDERERS: dict[NoticeKind, Renderer] = {
    NoticeKind.PROMOTED: _promoted,
    NoticeKind.LOST: _lost,
    NoticeKind.OTHER_DATE_CHOSEN: _other_date_chosen,
    NoticeKind.EXPIRED: _expired,
    NoticeKind.EXTENDED: _extended,
    NoticeKind.REMINDER: _reminder,
    NoticeKind.DIGEST: _digest,
    NoticeKind.MANAGER_DIGEST: manager_digest.render,
    NoticeKind.QUEUED: _queued,
    NoticeKind.CANCELLED: _cancelled,
    NoticeKind.NEXT_ACTION: _next_action,
    NoticeKind.ACTED_FOR: _acted_for,
    NoticeKind.NUDGED: _nudged,
    **DEPOSIT_RENDERERS,
    NoticeKind.WINDOW_OPEN: ping_notices.window_open,
}


# -- helpers ---------------------------------------------------------------------------------
def _single(
    kind: str,
    hold: Hold,
    facts: dict[str, str],
    tz: ZoneInfo,
    locale: str | None,
    style: DateStyle,
    *,
    buttons: bool = False,
    extend: bool = True,
    why: str | None = None,
) -> Rendered:
    """Title (and why), body in one section, then the hold's buttons when the notice asks
    to act."""
    title = text(locale, f"notice.{kind}.title")
    body = "\n".join(filter(None, [title, why, text(locale, f"notice.{kind}.body", **facts)]))
    # A DM goes to the hold's own salesperson: its note and the customer's contact with it.
    more = cards.details(hold, locale, contact=True)
    blocks: list[Block] = [section(body + ("\n" + more if more else ""))]
    row = cards.decision_buttons(hold, tz, locale, extend=extend, style=style) if buttons else None
    if row is not None:
        blocks.append(row)
    return Rendered(text(locale, f"notice.{kind}.text", **facts), dump(blocks))


def hold_of(payload: Payload) -> Hold:
    return hold_from_json(payload["hold"])


def ids_text(ids: list[int]) -> str:
    return "・".join(f"#{int(i)}" for i in ids) or "-"


def reason_text(payload: Payload, locale: str | None) -> str:
    reason = str(payload.get("reason") or "").strip()
    return esc(reason) if reason else text(locale, "reason.none")


def _failure_item(notice: Notice, tz: ZoneInfo, locale: str | None, style: DateStyle) -> str:
    hold = notice.payload.get("hold") if isinstance(notice.payload, dict) else None
    about = f"#{notice.hold_id or '-'}"
    if hold:
        about = cards.line(hold_from_json(hold), tz, locale, style=style)
    if notice.kind in (NoticeKind.DIGEST.value, NoticeKind.MANAGER_DIGEST.value):
        about = f"({len(notice.payload.get('holds', []))})"
    try:
        kind = text(locale, f"notice.kind.{NoticeKind(notice.kind).value}")
    except ValueError:
        kind = notice.kind
    error = clip(notice.last_error or text(locale, "failures.no_error"), MAX_ERROR_SHOWN)
    return text(
        locale,
        "failures.item",
        kind=kind,
        recipient=esc(notice.recipient),
        hold=about,
        error=esc(error.replace("`", "'")),
    )


def style_at(now: datetime, tz: ZoneInfo, rokuyo: bool) -> DateStyle:
    return DateStyle(today=now.astimezone(tz).date(), rokuyo=rokuyo)
