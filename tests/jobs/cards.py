"""Reading the sales channel as the team reads it: each hold's card, and the lines in its
thread, checked against the database and printed as text."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot import ids
from bot.texts import dates
from core.engine import HoldEngine
from core.model import Hold, Status, Venue
from jobs.console import lines_of
from tests.support.slack_standin import SlackStandin

HOLD_NO = re.compile(r"#(\d+)")
STATE = {  # what a card says of a hold's state (Japanese)
    Status.CONFIRMED: "*本予約*",
    Status.RELEASED: "*取り下げ*",
    Status.EXPIRED: "*期限切れ*",
    Status.CANCELLED: "*取消*",
}


@dataclass(frozen=True)
class Card:
    hold_id: int
    ts: str
    text: str  # every text of its blocks
    buttons: tuple[str, ...]  # action ids
    thread: tuple[str, ...]  # the texts of its thread's lines, oldest first


def cards_in(slack: SlackStandin, channel: str) -> list[Card]:
    """Every card (a top-level message naming a hold) with its thread."""
    messages = slack.messages(channel)
    replies: dict[str, list[str]] = {}
    for m in messages:
        if m.get("thread_ts") and m["thread_ts"] != m["ts"]:
            replies.setdefault(m["thread_ts"], []).append(str(m.get("text", "")))
    found = []
    for m in messages:
        if m.get("thread_ts") and m["thread_ts"] != m["ts"]:
            continue
        blocks = m.get("blocks") or []
        text = json.dumps([b for b in blocks if b.get("type") != "actions"], ensure_ascii=False)
        number = HOLD_NO.search(text)
        if number is None:
            continue
        buttons = tuple(
            e["action_id"] for b in blocks if b.get("type") == "actions" for e in b["elements"]
        )
        found.append(
            Card(int(number.group(1)), m["ts"], text, buttons, tuple(replies.get(m["ts"], [])))
        )
    return found


def mismatches(engine: HoldEngine, venue: Venue, cards: list[Card], now: datetime) -> list[str]:
    """How each card differs from its hold in the database (empty: the channel is true);
    dates read as the venue shows them at ``now`` (六曜, まで)."""
    wrong = []
    for card in cards:
        hold = engine.hold(venue.id, card.hold_id)
        assert isinstance(hold, Hold), card
        for problem in _problems(hold, venue, card, now):
            wrong.append(f"#{hold.id}: {problem}")
    return wrong


def _problems(hold: Hold, venue: Venue, card: Card, now: datetime) -> list[str]:
    """Buttons while actionable, as /hold's card has them: a 1st Confirm, Extend (while one
    is left), Release, Edit, Another date; a waiting hold Release, Edit, Another date."""
    problems = []
    editing = (ids.EDIT, ids.ANOTHER_DATE)
    if hold.is_first:
        assert hold.expires_at is not None
        style = dates.style_for(venue, now)
        deadline = dates.deadline(hold.expires_at, venue.tz, "ja", style=style)
        if "*1番手*" not in card.text or deadline not in card.text:
            problems.append(f"should read 1番手 · 期限 {deadline}")
        can_extend = hold.extensions_used < venue.policy.max_extensions
        want = (ids.CONFIRM, *([ids.EXTEND] if can_extend else []), ids.RELEASE, *editing)
    elif hold.status is Status.TENTATIVE:
        # its own status line has no deadline (a "前に: …" line names the deadline of the 1st)
        lines = re.split(r'\\n|"', card.text)  # the blocks' texts as JSON: split at \n and quotes
        status = [line for line in lines if f"*{hold.rank}番手*" in line]
        if not status or any("期限" in line for line in status):
            problems.append(f"should read {hold.rank}番手 without a deadline")
        want = (ids.RELEASE, ids.NUDGE, *editing)
    else:
        if STATE[hold.status] not in card.text or "番手" in card.text:
            problems.append(f"should read {STATE[hold.status]}")
        want = ()
    if card.buttons != want:
        problems.append(f"buttons {card.buttons}, should be {want}")
    return problems


def as_text(slack: SlackStandin, channel: str) -> str:
    """The channel as a person reads it: each card, then its thread, indented."""
    out = [f"#{channel}"]
    messages = slack.messages(channel)
    threads: dict[str, list[dict[str, Any]]] = {}
    for m in messages:
        if m.get("thread_ts") and m["thread_ts"] != m["ts"]:
            threads.setdefault(m["thread_ts"], []).append(m)
    for m in messages:
        if m.get("thread_ts") and m["thread_ts"] != m["ts"]:
            continue
        out.append("┌" + "─" * 60)
        out += [f"│ {line}" for line in lines_of(m.get("blocks") or [], channel, None)]
        for reply in threads.get(m["ts"], []):
            out += [f"│   ↳ {line}" for line in lines_of(reply.get("blocks") or [], channel, None)]
        out.append("└" + "─" * 60)
    return "\n".join(out)
