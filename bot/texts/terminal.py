"""The terminal's own words (issue 30): ``osae``'s help, its options and the errors of the
values people type on its command line. ``JA`` and ``EN`` have the same keys; ``bot.texts``
adds them to its catalogs; ``cli.context.say(key)`` says one in the reader's language.

A ``help=`` is %-formatted by argparse: a literal percent sign is ``%%`` there."""

from __future__ import annotations

JA: dict[str, str] = {
    "cli.osae": "宴会場の仮押さえ（順位つき）を Slack で。各コマンドの説明は osae コマンド --help で見られます。",
    "cli.command": "コマンド",
    "cli.action": "操作",
    "cli.interrupted": "中断しました（途中まで書いたものはありません）",
    "cli.opt.json": "JSON のオブジェクトを一つだけ出力します（プログラム向け）",
    "cli.opt.now": "今をこの日時（ISO-8601、時差がなければ会場の時刻）として試します",
    "cli.opt.venue": "会場 ID（省略時は OSAE_VENUE、会場が一つならその会場）",
    "cli.bad.now": "{value} は日時として読めません。2027-03-01T09:00+09:00 のように書いてください",
    "cli.bad.date": "{value} は日付として読めません。2027-03-10 のように書いてください",
    "cli.bad.clock": "{value} は時刻として読めません。09:00 や 23:30 のように書いてください",
    "cli.bad.guests": "{value} は人数として読めません。1 から {high} までの数（例: 40）を書いてください",
}
EN: dict[str, str] = {
    "cli.osae": "Ranked tentative holds (仮押さえ) for banquet rooms, in Slack. Each command has its own --help.",
    "cli.command": "COMMAND",
    "cli.action": "ACTION",
    "cli.interrupted": "interrupted (nothing was half-written)",
    "cli.opt.json": "print exactly one JSON object (for programs)",
    "cli.opt.now": "pretend it is this ISO-8601 instant (venue-local if no offset) to try scenarios",
    "cli.opt.venue": "venue id (default: OSAE_VENUE, or the only venue)",
    "cli.bad.now": "{value} is not an ISO-8601 date-time, e.g. 2027-03-01T09:00+09:00",
    "cli.bad.date": "{value} is not a date like 2027-03-10",
    "cli.bad.clock": "{value} is not a time written HH:MM, like 09:00 or 23:30",
    "cli.bad.guests": "{value} is not a number of guests from 1 to {high}, like 40",
}
