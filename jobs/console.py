"""The terminal as the outbox's transport, for running osae without Slack.

Each notice becomes a block of plain text: who would get it, its title and body in their
language (a card: in the sales channel's, as the Courier renders it), and the buttons a Slack
user would see, each with the command that does the same from a second terminal (given by
the composition root: ``CommandFor``). The Courier sends through it exactly as through
Slack (same claims, leases, retries), so what works here works with Slack.
"""

from __future__ import annotations

import html
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from core.notices import Notice, NoticeKind
from jobs.transport import Delivered, DeliveryOutcome, Message, Transient

CHANNEL = "console"  # the outbox's sent_channel for what was printed
# The Slack emoji the notices use, as the characters a terminal shows.
EMOJI = {
    ":tada:": "🎉",
    ":wave:": "👋",
    ":hourglass:": "⌛",
    ":hourglass_flowing_sand:": "⏳",
    ":alarm_clock:": "⏰",
    ":warning:": "⚠️",
    ":no_entry:": "⛔",
    ":white_check_mark:": "✅",
    ":large_yellow_circle:": "🟡",
    ":calendar:": "📅",  # a candidate date released (the customer chose another)
    ":arrow_up:": "⬆️",
    ":eyes:": "👀",
    ":pencil2:": "✏️",
    ":bell:": "🔔",  # a date opened to banquets (the window ping)
}
_BOLD = re.compile(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])")
_LINK = re.compile(r"<([^<>|]+)\|([^<>]+)>")
_MENTION = re.compile(r"<[@#!]([^<>|]+)>")
_EMOJI = re.compile(r":[a-z0-9_+-]+:")


@dataclass(frozen=True)
class Button:
    """A button of a printed message, and where it shows: what ``CommandFor`` explains."""

    action_id: str
    value: str
    to: str  # whom the message went to: a person (a DM), or the channel of a card
    notice: Notice | None = None  # the outbox row it belongs to (None: not a notice)
    card: bool = False  # on a hold's card (the sales channel's): its salesperson presses it


# a button -> the command that does what it does (or says why there is none), or None
CommandFor = Callable[[Button], str | None]
# (key, **facts) -> the words around each message in the terminal's language: the bot's
# catalogs (``console.*`` in bot/texts/terminal_out.py, and the ``notice.kind.*`` Slack's
# failure reports use), handed over by ``cli.bootstrap`` (jobs reads no texts of bot's itself)
Words = Callable[..., str]
# a venue id -> people's names by Slack user id (the engine's reads.names), to print a
# person by name where the message would mention them
Names = Callable[[str], Mapping[str, str]]
_AT_USER = re.compile(r"@([UW][A-Z0-9]{2,40})\b")
_KINDS = frozenset(kind.value for kind in NoticeKind)


class Console:
    """Prints each message as a block on ``out``; thread-safe (the worker sends from several
    threads). ``language``: what everyone reads (the terminal's); ``languages``: per person."""

    timeout = 1.0  # seconds: a write to a terminal is instant; leases are far longer

    def __init__(
        self,
        out: TextIO,
        *,
        language: str,
        languages: Mapping[str, str] | None = None,
        command_for: CommandFor | None = None,
        words: Words,
        names: Names | None = None,
    ) -> None:
        self.out = out
        self.words = words
        self.names = names
        self.language = language
        self.languages = dict(languages or {})
        self.command_for = command_for
        self._lock = threading.Lock()

    def locale(self, recipient: str) -> str:
        return self.languages.get(recipient, self.language)

    def send(
        self, to: str, message: Message, *, notice: Notice | None = None, thread: str | None = None
    ) -> DeliveryOutcome:
        head = self.words("console.thread", to=to, thread=thread) if thread else None
        card = notice is not None and notice.kind == NoticeKind.CARD
        return self._print(self.block(to, message, notice, head=head, card=card))

    def update(self, channel: str, ts: str, message: Message, *, notice: Notice) -> DeliveryOutcome:
        about = self.words("console.redrawn_about", hold=notice.hold_id) if notice.hold_id else ""
        head = self.words("console.redrawn", channel=channel, about=about, ts=ts)
        outcome = self._print(self.block(channel, message, notice, head=head, card=True))
        return Delivered(channel, ts) if isinstance(outcome, Delivered) else outcome

    def _print(self, block: str) -> DeliveryOutcome:
        with self._lock:
            try:
                self.out.write(block)
                self.out.flush()
            except (OSError, ValueError) as err:  # a closed or broken terminal: try again later
                return Transient(f"{type(err).__name__}: {err}")
        return Delivered(CHANNEL, f"{time.time():.6f}")

    def block(
        self,
        to: str,
        message: Message,
        notice: Notice | None,
        *,
        head: str | None = None,
        card: bool = False,
    ) -> str:
        """``card``: the message is a hold's card, whose buttons its salesperson presses."""
        known = self.names(notice.venue_id) if self.names and notice else {}
        head = head or self._head(known.get(to, to), notice)
        body = lines_of(message.blocks, to, self.command_for, notice=notice, card=card)
        body = body or [plain(message.text)]
        if known:  # @U0SALES001 as Slack would show it: @田中
            body = [_AT_USER.sub(lambda m: f"@{known.get(m[1], m[1])}", line) for line in body]
        rule = "─" * max(12, 60 - len(head))
        return "\n".join([f"╭─ {head} {rule}", *(f"│ {line}" for line in body), "╰─", ""])

    def _head(self, to: str, notice: Notice | None) -> str:
        say = self.words
        if notice is None:
            return say("console.message", to=to)
        if notice.kind == NoticeKind.CARD:
            return say("console.card", to=to, hold=notice.hold_id, notice=notice.id)
        about = say("console.about", hold=notice.hold_id) if notice.hold_id else ""
        kind = say(f"notice.kind.{notice.kind}") if notice.kind in _KINDS else notice.kind
        return say("console.dm", to=to, kind=kind, about=about, notice=notice.id)


def lines_of(
    blocks: Sequence[dict[str, Any]],
    to: str,
    command_for: CommandFor | None,
    *,
    notice: Notice | None = None,
    card: bool = False,
) -> list[str]:
    """What a Slack user would see of ``blocks``, as lines of text (with ``command_for``,
    each button's command under the buttons)."""
    lines: list[str] = []
    for block in blocks:
        kind = block.get("type")
        if kind in ("section", "header"):
            lines += _text_lines(block.get("text"))
            for item in block.get("fields") or []:
                lines += _text_lines(item)
        elif kind == "context":
            for element in block.get("elements") or []:
                lines += _text_lines(element)
        elif kind == "divider":
            lines.append("─" * 20)
        elif kind == "actions":
            elements = block.get("elements") or []
            lines += _buttons(elements, to, command_for, notice=notice, card=card)
    return lines


def plain(text: str) -> str:
    """Slack mrkdwn as a terminal shows it: no markup, links and mentions as words."""
    text = _LINK.sub(lambda m: f"{m.group(2)} ({m.group(1)})", text)
    text = _MENTION.sub(lambda m: f"@{m.group(1)}", text)
    text = _BOLD.sub(r"\1", text)
    text = _EMOJI.sub(lambda m: EMOJI.get(m.group(0), m.group(0)), text)
    return html.unescape(text)


def _text_lines(item: Any) -> list[str]:
    if not isinstance(item, dict) or not item.get("text"):
        return []
    return plain(str(item["text"])).splitlines()


def _buttons(
    elements: list[dict[str, Any]],
    to: str,
    command_for: CommandFor | None,
    *,
    notice: Notice | None,
    card: bool,
) -> list[str]:
    buttons = [e for e in elements if e.get("type") == "button"]
    if not buttons:
        return []
    lines = ["  ".join(f"[ {plain(b['text']['text'])} ]" for b in buttons)]
    for button in buttons:
        action_id, value = str(button.get("action_id", "")), str(button.get("value", ""))
        command = command_for and command_for(Button(action_id, value, to, notice, card))
        if command:
            lines.append(f"  {plain(button['text']['text'])}: {command}")
    return lines
