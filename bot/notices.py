"""The DMs the jobs send from the outbox, and the report of the ones that could not be sent.

Pure functions of an outbox row: ``render_notice(notice, tz=venue.tz, locale=...)`` gives the
notification text (the fallback Slack shows in push notifications) and the Block Kit blocks,
always within Slack's limits (at most 50 blocks a message).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block

from bot import cards
from bot.blocks import MAX_MESSAGE_BLOCKS, chunk_lines, clip, context, dump, header, section
from bot.texts import dates, esc, text
from bot.texts.refusals import ordinal
from core.model import Hold
from core.notices import Notice, NoticeKind
from core.serialize import hold_from_json

MAX_FAILURES_LISTED = 30
MAX_ERROR_SHOWN = 200


@dataclass(frozen=True)
class Rendered:
    text: str  # the notification fallback (push notifications, screen readers)
    blocks: list[dict[str, Any]]


class UnrenderableNotice(ValueError):
    """An outbox row of an unknown kind or with a payload this version cannot read."""


def render_notice(notice: Notice, *, tz: ZoneInfo, locale: str | None) -> Rendered:
    """The DM for one outbox row; raises ``UnrenderableNotice`` (a ValueError) if it can't."""
    try:
        render = _RENDERERS[NoticeKind(notice.kind)]
        return render(notice.payload, tz, locale)
    except (KeyError, TypeError, ValueError) as err:
        raise UnrenderableNotice(f"notice {notice.id} ({notice.kind}): {err!r}") from err


def render_failure_report(
    notices: Sequence[Notice], *, tz: ZoneInfo, locale: str | None
) -> Rendered:
    """For the sales channel: which notices could not be delivered, to whom, and why."""
    count = len(notices)
    title = text(locale, "failures.title", count=count)
    items = [_failure_item(n, tz, locale) for n in notices[:MAX_FAILURES_LISTED]]
    blocks: list[Block] = [section(title)]
    blocks += [section(chunk) for chunk in chunk_lines(items)]
    if count > MAX_FAILURES_LISTED:
        blocks.append(context(text(locale, "failures.more", count=count - MAX_FAILURES_LISTED)))
    return Rendered(text(locale, "failures.text", count=count), dump(blocks[:MAX_MESSAGE_BLOCKS]))


# -- one renderer per kind -------------------------------------------------------------------
Payload = dict[str, Any]
Renderer = Callable[[Payload, ZoneInfo, str | None], Rendered]


def _promoted(payload: Payload, tz: ZoneInfo, locale: str | None) -> Rendered:
    """Says why it moved up, with Confirm, Extend and Release (as App Home shows them)."""
    hold = _hold(payload)
    facts = {"hold": cards.line(hold, tz, locale), "deadline": cards.deadline(hold, tz, locale)}
    cause = payload.get("cause") or "unknown"
    why = text(locale, f"promoted.why.{cause}", ahead=_ids(payload.get("after", [])))
    return _single("promoted", hold, facts, tz, locale, buttons=True, why=why)


def _queued(payload: Payload, tz: ZoneInfo, locale: str | None) -> Rendered:
    hold, behind = _hold(payload), hold_from_json(payload["behind"])
    facts = {
        "hold": cards.line(hold, tz, locale),
        "behind": cards.brief(behind, locale),
        "salesperson": esc(behind.salesperson),
        "deadline": cards.deadline(hold, tz, locale),
    }
    return _single("queued", hold, facts, tz, locale, buttons=True)


def _cancelled(payload: Payload, tz: ZoneInfo, locale: str | None) -> Rendered:
    hold = _hold(payload)
    facts = {
        "hold": cards.line(hold, tz, locale),
        "actor": esc(str(payload["actor"])),
        "reason": _reason(payload, locale),
    }
    return _single("cancelled", hold, facts, tz, locale)


def _lost(payload: Payload, tz: ZoneInfo, locale: str | None) -> Rendered:
    hold, winner = _hold(payload), hold_from_json(payload["winner"])
    facts = {"hold": cards.line(hold, tz, locale), "winner": cards.brief(winner, locale)}
    return _single("lost", hold, facts, tz, locale)


def _other_date_chosen(payload: Payload, tz: ZoneInfo, locale: str | None) -> Rendered:
    hold, chosen = _hold(payload), hold_from_json(payload["chosen"])
    facts = {"hold": cards.line(hold, tz, locale), "chosen": cards.line(chosen, tz, locale)}
    return _single("other_date_chosen", hold, facts, tz, locale)


def _expired(payload: Payload, tz: ZoneInfo, locale: str | None) -> Rendered:
    hold = _hold(payload)
    return _single("expired", hold, {"hold": cards.line(hold, tz, locale)}, tz, locale)


def _extended(payload: Payload, tz: ZoneInfo, locale: str | None) -> Rendered:
    hold, ahead = _hold(payload), hold_from_json(payload["ahead"])
    facts = {
        "hold": cards.line(hold, tz, locale),
        "rank_text": ordinal(hold.rank or 0, locale),
        "ahead": cards.brief(ahead, locale),
        "deadline": cards.deadline(ahead, tz, locale),
    }
    return _single("extended", hold, facts, tz, locale)


def _reminder(payload: Payload, tz: ZoneInfo, locale: str | None) -> Rendered:
    hold = _hold(payload)
    facts = {"hold": cards.line(hold, tz, locale), "deadline": cards.deadline(hold, tz, locale)}
    return _single("reminder", hold, facts, tz, locale, buttons=True)


def _digest(payload: Payload, tz: ZoneInfo, locale: str | None) -> Rendered:
    """A header, then each hold with its buttons (two blocks each) while they fit in 50."""
    holds = sorted(
        (hold_from_json(h) for h in payload["holds"]),
        key=lambda h: (h.expires_at or datetime.max.replace(tzinfo=tz), h.id),
    )
    start, until = datetime.fromisoformat(payload["from"]), datetime.fromisoformat(payload["until"])
    title = text(
        locale,
        "notice.digest.title",
        start=dates.day(start.astimezone(tz).date(), locale),
        end=dates.day(until.astimezone(tz).date(), locale),
    )
    if not holds:
        return Rendered(title, dump([header(title), context(text(locale, "notice.digest.empty"))]))
    room = (MAX_MESSAGE_BLOCKS - 2) // 2  # header and intro take two blocks
    shown = holds if len(holds) <= room else holds[: (MAX_MESSAGE_BLOCKS - 3) // 2]
    blocks: list[Block] = [
        header(title),
        context(text(locale, "notice.digest.intro", count=len(holds))),
    ]
    for hold in shown:
        item = text(
            locale,
            "notice.digest.item",
            hold=cards.line(hold, tz, locale),
            deadline=cards.deadline(hold, tz, locale),
        )
        blocks.append(section(item))
        buttons = cards.decision_buttons(hold, tz, locale)
        if buttons is not None:
            blocks.append(buttons)
    if len(shown) < len(holds):
        blocks.append(context(text(locale, "notice.digest.more", count=len(holds) - len(shown))))
    return Rendered(text(locale, "notice.digest.text", count=len(holds)), dump(blocks))


_RENDERERS: dict[NoticeKind, Renderer] = {
    NoticeKind.PROMOTED: _promoted,
    NoticeKind.LOST: _lost,
    NoticeKind.OTHER_DATE_CHOSEN: _other_date_chosen,
    NoticeKind.EXPIRED: _expired,
    NoticeKind.EXTENDED: _extended,
    NoticeKind.REMINDER: _reminder,
    NoticeKind.DIGEST: _digest,
    NoticeKind.QUEUED: _queued,
    NoticeKind.CANCELLED: _cancelled,
}


# -- a hold's card in the channel ------------------------------------------------------------
def render_card(hold: Hold, *, tz: ZoneInfo, locale: str | None, extend: bool) -> Rendered:
    """The card as the hold stands: buttons only while they can act (none once decided)."""
    blocks = cards.card(hold, tz, locale, extend=extend)
    summary = text(
        locale, "card.text", hold=cards.line(hold, tz, locale), state=cards.state(hold, tz, locale)
    )
    return Rendered(summary, dump(blocks))


def render_card_line(notice: Notice, *, tz: ZoneInfo, locale: str | None) -> Rendered | None:
    """The line a card row adds to the card's thread: what happened, when, who did it. A
    new card has none (it says all that itself). Raises ``UnrenderableNotice``."""
    payload = notice.payload
    try:
        event = str(payload["event"])
        if event == "requested":
            return None
        line = text(locale, f"thread.{event}", **_line_facts(event, notice, tz, locale))
    except (KeyError, TypeError, ValueError) as err:
        raise UnrenderableNotice(f"notice {notice.id} (card): {err!r}") from err
    return Rendered(line, dump([section(line)]))


def _line_facts(event: str, notice: Notice, tz: ZoneInfo, locale: str | None) -> dict[str, str]:
    payload = notice.payload
    hold = _hold(payload)
    facts = {
        "when": dates.when(notice.created_at, tz, locale),
        "actor": esc(str(payload["actor"])),
        "salesperson": esc(hold.salesperson),
        "deadline": cards.deadline(hold, tz, locale),
        "reason": _reason(payload, locale),
    }
    if event == "lost":
        facts["winner"] = cards.brief(hold_from_json(payload["winner"]), locale)
    if event == "other_date_chosen":
        facts["chosen"] = cards.line(hold_from_json(payload["chosen"]), tz, locale)
    if event == "promoted":
        cause = payload.get("cause") or "unknown"
        facts["cause"] = text(locale, f"thread.cause.{cause}", ahead=_ids(payload.get("after", [])))
    return facts


# -- helpers ---------------------------------------------------------------------------------
def _single(
    kind: str,
    hold: Hold,
    facts: dict[str, str],
    tz: ZoneInfo,
    locale: str | None,
    *,
    buttons: bool = False,
    extend: bool = True,
    why: str | None = None,
) -> Rendered:
    """Title (and why), body in one section, then the hold's buttons when the notice asks
    to act."""
    title = text(locale, f"notice.{kind}.title")
    body = "\n".join(filter(None, [title, why, text(locale, f"notice.{kind}.body", **facts)]))
    blocks: list[Block] = [section(body)]
    row = cards.decision_buttons(hold, tz, locale, extend=extend) if buttons else None
    if row is not None:
        blocks.append(row)
    return Rendered(text(locale, f"notice.{kind}.text", **facts), dump(blocks))


def _hold(payload: Payload) -> Hold:
    return hold_from_json(payload["hold"])


def _ids(ids: list[int]) -> str:
    return "・".join(f"#{int(i)}" for i in ids) or "-"


def _reason(payload: Payload, locale: str | None) -> str:
    reason = str(payload.get("reason") or "").strip()
    return esc(reason) if reason else text(locale, "reason.none")


def _failure_item(notice: Notice, tz: ZoneInfo, locale: str | None) -> str:
    hold = notice.payload.get("hold") if isinstance(notice.payload, dict) else None
    about = cards.line(hold_from_json(hold), tz, locale) if hold else f"#{notice.hold_id or '-'}"
    if notice.kind == NoticeKind.DIGEST.value:
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
