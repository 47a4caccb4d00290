"""What downgrading past each migration drops, said before `osae db downgrade` does it.

Every revision in ``migrations/versions`` has an entry (a test checks it): ``None`` when its
downgrade loses nothing a person entered (derived rows, functions), else what goes, in ja/en.
"""

from __future__ import annotations

from alembic.script import ScriptDirectory

from cli import migrate, ops_texts

DROPS: dict[str, dict[str, str] | None] = {
    "0001_schema": {
        "en": "every table: venues, rooms, holds, their audit trail and unsent notices",
        "ja": "すべてのテーブル（会場、部屋、押さえ、その履歴、未送信の通知）",
    },
    "0002_packages": {
        "en": "enquiries and candidate dates (refused while a hold has several rooms)",
        "ja": "案件と候補日（複数の部屋の押さえがあるうちは戻せません）",
    },
    "0003_edit": {
        "en": "each hold's version (forms opened before are no longer told they are stale)",
        "ja": "押さえごとの版番号（開いたままのフォームが古いと分からなくなります）",
    },
    "0004_search": {
        "en": "rooms' capacity and the venues' named slots",
        "ja": "部屋の定員と会場の時間帯（slots）",
    },
    "0004_ledger": {
        "en": "why each hold left (outcome), guests, contacts and kinds of enquiries",
        "ja": "押さえが外れた理由（outcome）、案件の人数・連絡先・種別",
    },
    "0005_cards": {
        "en": (
            "hold_cards: where each hold's card sits in Slack; after it, no card can be "
            "redrawn (upgrading again does not bring them back)"
        ),
        "ja": (
            "hold_cards（各押さえのカードが Slack のどこにあるか）。戻した後はカードを"
            "描き直せません（もう一度 upgrade しても戻りません）"
        ),
    },
    "0006_ledger_spans": None,  # the spans are the triggers' copy of hold_spans
    "0007_part_day_dates": None,  # a function, recreated as it was
    "0008_many_venues": {
        "en": "Slack installations and bot tokens, venues' workspaces, language and channel",
        "ja": "Slack のインストールと bot トークン、会場のワークスペース・言語・チャンネル",
    },
    "0009_calendar_feeds": {
        "en": "calendar feeds: every feed URL given out stops working",
        "ja": "カレンダー配信: 配ったフィードの URL はすべて使えなくなります",
    },
    "0010_user_venues": {
        "en": "which venue each person of a hotel group's workspace chose last",
        "ja": "ホテルグループのワークスペースで各人が最後に選んだ会場",
    },
    "0011_booking_details": {
        "en": "each booking's estimate, plan, source and next action; staff names from Slack",
        "ja": "案件の見積金額・プラン・媒体・次回予定、Slack から取得した担当者名",
    },
    "0012_leave_reasons": {
        "en": "why each released hold left (reason and note), and which were replaced by an edit",
        "ja": "取り下げた押さえの理由（コードとメモ）、変更で置き換わった押さえの区別",
    },
    "0013_nudged_at": {
        "en": "when each 1st hold was asked to answer (the nudge)",
        "ja": "1番手に回答を依頼した日時（催促）",
    },
    "0015_deposits": {
        "en": "each booking's deposit: its due date, and who recorded it paid, when and how much",
        "ja": "予約金: 入金期日と、入金確認の記録（誰が・いつ・いくら）",
    },
    "0016_window_pings": {
        "en": "the window pings: whoever asked to be told when banquets open is told nothing",
        "ja": "開放日の通知の依頼（依頼した人に宴会受付開始が届かなくなります）",
    },
    "0014_house_holds": {
        "en": "which holds are house holds: those still held become 1sts due at their start",
        "ja": "社内押さえの区別（押さえ中のものは開始時刻が期限の1番手になります）",
    },
}


def dropped(url: str, target: str) -> list[tuple[str, str]]:
    """What downgrading the database at ``url`` to ``target`` drops, newest first: each
    revision undone that loses something, with what (in the terminal's language)."""
    current = migrate.current(url)
    if current is None:
        return []
    script = ScriptDirectory.from_config(migrate.alembic_config(url))
    lower = None if target == "base" else target
    undone = [rev.revision for rev in script.iterate_revisions(current, lower)]
    if lower is not None and lower in undone:
        undone.remove(lower)
    found = []
    for revision in undone:
        what = DROPS.get(revision, {"en": "unknown", "ja": "不明"})
        if what is not None:
            found.append((revision, what[ops_texts.reader()]))
    return found
