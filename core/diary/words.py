"""The words a diary is drawn with, in its reader's language: the caller (the bot, the
terminal) fills them from its texts; the drawing only places them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from core.diary.layout import DayHead
from core.diary.model import Style
from core.model import Hold, HoldItem


@dataclass(frozen=True)
class Words:
    title: str  # "台帳 10/2(金・大安)", with the range it shows
    drawn: str  # "12/4(金) 18:00 作成"
    legend: Mapping[Style, str]  # each style's name in the legend: "本予約", "1番手（期限）"
    tag: Mapping[Style, str]  # each style's short mark in a block: "本", "1", "2", "社"
    turnover: str  # the legend's name of the shaded turnover: "転換"
    shared: str  # the legend's name of a room taken through another: "他の部屋で使用"
    empty: str  # said when the range has no live hold
    head: Callable[[DayHead], tuple[str, ...]]  # a day's axis lines: "10/2", "金", "大安"
    hour: Callable[[int], str]  # a day's axis: 8 -> "8", 25 -> "翌1"
    times: Callable[[HoldItem], str]  # "11:00〜15:00"
    kind: Callable[[Hold], str]  # "婚礼"
    guests: Callable[[int], str]  # "80名"
    person: Callable[[str], str]  # a salesperson's name, never a contact
    deadline: Callable[[datetime], str]  # a 1st hold's: "12/9 10:30まで"
    partition: Callable[[str], str]  # a partition's row label, given its name: "└ 鳳凰A"


def block_lines(words: Words, hold: Hold, item: HoldItem, style: Style) -> list[str]:
    """What a block says, most needed first (a small block shows only the first lines): the
    mark and the customer, then kind and guests, the salesperson, the times, the deadline."""
    about = words.kind(hold) + (f" {words.guests(hold.guests)}" if hold.guests else "")
    lines = [f"{words.tag[style]} {hold.customer}", about, words.person(hold.salesperson)]
    lines.append(words.times(item))
    if style is Style.FIRST and hold.expires_at is not None:
        lines.insert(1, words.deadline(hold.expires_at))
    return lines
