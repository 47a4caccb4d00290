"""The release dialog (取り下げる asks why) and the booking's view in Slack (``/hold B-0012``).
``JA`` and ``EN`` have the same keys; ``bot.texts`` adds them to its catalogs."""

from __future__ import annotations

JA: dict[str, str] = {
    "release.title": "押さえの取り下げ",
    "release.submit": "取り下げる",
    "release.close": "やめる",
    "release.body": "{hold} を取り下げます。元には戻せません。",
    "release.reason.label": "取り下げの理由",
    "release.reason.placeholder": "理由を選んでください",
    "release.reason.hint": "月次の集計（理由別・失注）に使います。",
    "release.reason.required": "取り下げの理由を選んでください（月次の集計に使います）。",
    "release.note.label": "メモ（任意）",
    "release.note.placeholder": "例: 予算が合わず他会場に決定",
    "release.note.too_long": "メモは {limit} 文字までにしてください。",
    "release.note.bad": "メモに使えない文字（制御文字など）が入っています。ふつうの文字で書き直してください。",
    "release.done.reason": "理由: {reason}{note}",
}

EN: dict[str, str] = {
    "release.title": "Release the hold",
    "release.submit": "Release",
    "release.close": "Cancel",
    "release.body": "Release {hold}? This cannot be undone.",
    "release.reason.label": "Why is it released?",
    "release.reason.placeholder": "Choose a reason",
    "release.reason.hint": "Counted in the month's figures (by reason, losses).",
    "release.reason.required": "Choose why the hold is released (it is counted in the month's figures).",
    "release.note.label": "Note (optional)",
    "release.note.placeholder": "e.g. over budget, chose another venue",
    "release.note.too_long": "Keep the note to {limit} characters.",
    "release.note.bad": "The note has characters that cannot be kept (control characters). Type it again in plain text.",
    "release.done.reason": "Reason: {reason}{note}",
}

# -- /hold B-0012: a booking and every hold it has had ---------------------------------------
JA |= {
    "booking.head": "*{booking}* {customer}（{kind}）· 担当 <@{salesperson}>",
    "booking.count": "押さえ {count} 件（候補日・変更を含む、受付順）",
    "booking.text": "{booking} {customer}: 押さえ {count} 件",
    "booking.more": "ほか {count} 件は `osae enquiry show {booking}` で見られます。",
    "booking.not_found": "予約番号 {booking} はこの会場にありません。番号を確かめてください（自分の押さえは `/hold list` で一覧できます）。",
}
EN |= {
    "booking.head": "*{booking}* {customer} ({kind}) · <@{salesperson}>",
    "booking.count": "{count} hold(s), candidate dates and changes included, oldest first",
    "booking.text": "{booking} {customer}: {count} hold(s)",
    "booking.more": "{count} more: `osae enquiry show {booking}` lists them all.",
    "booking.not_found": "Booking {booking} does not exist in this venue. Check the number (`/hold list` lists your holds).",
}

# -- a manager's App Home: the month's losses and releases by reason ------------------------
JA |= {
    "month.losses": "失注 *{losses}*（期限切れ・他の本予約・失注に数える理由での取り下げ）· 別の候補日に決定 *{other_date_chosen}* · 変更で置き換え *{replaced}*",
    "month.reasons": "取り下げの理由: {reasons}",
    "month.reasons.none": "取り下げの理由: 今月はまだありません",
    "month.reason": "{name} *{count}*",
}
EN |= {
    "month.losses": "Lost *{losses}* (expired, lost to another's confirmation, released for a reason that counts as a loss) · other date chosen *{other_date_chosen}* · replaced by an edit *{replaced}*",
    "month.reasons": "Released because: {reasons}",
    "month.reasons.none": "Released because: none this month yet",
    "month.reason": "{name} *{count}*",
}

# -- Slack's edit of a package's rooms -------------------------------------------------------
JA |= {
    "refusal.rooms_of_confirmed": "本予約の部屋は増やしたり減らしたりできません（時間・日付・部屋の入れ替えはできます）。部屋を足すなら別の押さえで、減らすなら取り消してから押さえ直してください。",
}
EN |= {
    "refusal.rooms_of_confirmed": "A confirmed booking's rooms cannot be added or removed (its times, date and rooms can be changed). Hold another room separately, or cancel and hold again.",
}
