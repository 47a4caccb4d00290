"""The release dialog (取り下げる asks why) and the booking's view in Slack (``/hold B-0012``).
``JA`` and ``EN`` have the same keys; ``bot.texts`` adds them to its catalogs."""

from __future__ import annotations

JA: dict[str, str] = {
    "release.title": "押さえの取り下げ",
    "release.submit": "取り下げる",
    "release.close": "やめる",
    "release.body": "{booking} {hold} を取り下げます。元には戻せません。",
    "release.reason.label": "取り下げの理由",
    "release.reason.placeholder": "理由を選んでください",
    "release.reason.hint": "月次の集計（理由別・失注）に使います。入力の誤りは失注に数えません。",
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
    "release.body": "Release {booking} {hold}? This cannot be undone.",
    "release.reason.label": "Why is it released?",
    "release.reason.placeholder": "Choose a reason",
    "release.reason.hint": "Counted in the month's figures (by reason, losses). An entry error is not a loss.",
    "release.reason.required": "Choose why the hold is released (it is counted in the month's figures).",
    "release.note.label": "Note (optional)",
    "release.note.placeholder": "e.g. over budget, chose another venue",
    "release.note.too_long": "Keep the note to {limit} characters.",
    "release.note.bad": "The note has characters that cannot be kept (control characters). Type it again in plain text.",
    "release.done.reason": "Reason: {reason}{note}",
}
