"""The shared checks' failures (``core.checks``) in words: what is wrong with a flag, a field
or a venue file's key, and what to write instead. ``JA`` and ``EN`` have the same keys;
``bot.texts`` adds them to its catalogs; ``bot.texts.checked`` says them."""

from __future__ import annotations

JA: dict[str, str] = {
    "check.control": "{where}に制御文字（{detail}）が入っています。ふつうの文字だけで書いてください。",
    "check.bidi": "{where}に文字の向きを変える見えない文字（{detail}）が入っています。消してから書き直してください。",
    "check.empty": "{where}が空です。書いてください。",
    "check.too_long": "{where}が {detail} 文字あります。{high} 文字までにしてください。",
    "check.user_id": "{where}の「{detail}」は Slack のユーザー ID ではありません。U0123ABCD のような ID を書いてください。",
    "check.venue_id": "{where}の「{detail}」は会場 ID にできません。英小文字・数字・- と _ で 64 文字まで（例: grand-tokyo）にしてください。",
    "check.not_whole": "{where}は {low} から {high} までの整数にしてください（{detail} ではなく）。",
    "check.out_of_range": "{where}は {low} から {high} までにしてください（{detail} ではなく）。",
    "check.unknown_key": "{where}に知らない項目「{detail}」があります。",
    "check.this_value": "この値",
    "check.venue_file": "会場ファイルを読み込めません（何も書き込んでいません）: {detail}",
    "check.unknown_key.close": "{where}に知らない項目「{detail}」があります。「{close}」のことですか？",
}
EN: dict[str, str] = {
    "check.control": "{where} contains a control character ({detail}). Write plain text only.",
    "check.bidi": "{where} contains an invisible text-direction override ({detail}). Delete it and write it again.",
    "check.empty": "{where} is empty. Write something.",
    "check.too_long": "{where} is {detail} characters long. Keep it to {high}.",
    "check.user_id": "{where}: {detail!r} is not a Slack user id. Write one like U0123ABCD.",
    "check.venue_id": "{where}: {detail!r} cannot be a venue id. Use 1 to 64 of a-z, 0-9, - and _ (like grand-tokyo).",
    "check.not_whole": "{where} must be a whole number from {low} to {high}, not {detail}.",
    "check.out_of_range": "{where} must be from {low} to {high}, not {detail}.",
    "check.unknown_key": "{where} has an unknown key {detail!r}.",
    "check.this_value": "The value",
    "check.venue_file": "{detail}",
    "check.unknown_key.close": "{where} has an unknown key {detail!r}. Did you mean {close!r}?",
}
