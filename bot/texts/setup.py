"""Texts of a venue's setup in Slack and of many workspaces (issue 29), ja and en."""

from __future__ import annotations

JA: dict[str, str] = {
    # Without an installation there is no token to ask a user's language: both, Japanese first.
    "error.not_installed": (
        "osae はこのワークスペースにインストールされていない（または削除された）ため、"
        "受け付けられません。"
        "続けて使うには、管理者に osae を Slack に追加し直すよう依頼してください。\n"
        "osae is not installed in this workspace (or was removed), so nothing was done. "
        "Ask an admin to add osae to Slack again."
    ),
    "venue.pick.label": "会場",
    "setup.start.title": "会場の設定",
    "setup.start.lead": (
        "osae を追加していただきありがとうございます。まず会場（部屋・営業チャンネル・"
        "マネージャー）を設定しましょう。近いテンプレートで始めて部屋を直すか、"
        "会場ファイル（`osae venue export` で書き出した TOML）をアップロードするか貼り付けてください。"
    ),
    "setup.template.hotel_banquet": "ホテル宴会場のテンプレートで始める",
    "setup.template.wedding_house": "ゲストハウスのテンプレートで始める",
    "setup.paste": "会場ファイルをアップロード・貼り付け",
    "setup.open": "会場の設定",
    "setup.about.venue": " · 会場 {name}",
    "setup.about.privacy": "<{url}|プライバシーポリシー>",
    "setup.about.no_privacy": "プライバシーポリシーは運営者にお問い合わせください",
    "setup.modal.title": "会場の設定",
    "setup.modal.lead": (
        "*{name}* の設定です。変更はすべて記録され、会場ファイルと同じ確認を通ってから保存されます。"
    ),
    "setup.save": "保存",
    "setup.close": "閉じる",
    "setup.back": "戻る",
    "setup.channel.label": "営業チャンネル（押さえのカード・届かなかった通知の報告）",
    "setup.channel.placeholder": "チャンネルを選ぶ",
    "setup.channel.hint": (
        "osae が投稿するのはこのチャンネルだけです（#general には投稿しません）。"
        "osae をそのチャンネルに招待してください。"
    ),
    "setup.managers.label": "マネージャー（全体の台帳を見る・本予約を取り消す）",
    "setup.language.label": "チャンネルの言語",
    "setup.language.ja": "日本語",
    "setup.language.en": "English",
    "setup.rooms.title": "部屋（{count}室）",
    "setup.room.line": "*{name}*  `{id}`\n区画 {parts} · {seats} · 転換 {turnover}分",
    "setup.room.seats": "{count}名",
    "setup.room.no_seats": "定員なし",
    "setup.room.edit": "編集",
    "setup.room.add": "部屋を追加",
    "setup.room.title": "部屋",
    "setup.room.id": "部屋ID",
    "setup.room.id.hint": "英小文字・数字・- _ で32文字まで（例: hoo-east）。あとから変えられません。",
    "setup.room.editing": "部屋 `{id}`",
    "setup.room.name": "名前",
    "setup.room.parts": "区画",
    "setup.room.parts.hint": (
        "この部屋が使う床の区画をカンマ区切りで（例: hoo-1, hoo-2）。区画を分け合う部屋同士は同時に押さえられません。"
    ),
    "setup.room.capacity": "定員（着席、空欄なら定員なし）",
    "setup.room.turnover": "転換（分、0〜1440）",
    "setup.paste.title": "会場ファイル",
    "setup.upload.label": "会場ファイルをアップロード（.toml）",
    "setup.upload.hint": "`osae venue export` で書き出したファイルなど。アップロードしない場合は下に貼り付けてください。",
    "setup.error.no_file": "会場ファイルをアップロードするか、下の欄に貼り付けてください。",
    "setup.error.upload.not_slack": "Slack にアップロードされたファイルではないため読みませんでした。ファイルをアップロードし直してください。",
    "setup.error.upload.unreachable": "アップロードされたファイルを Slack から読めませんでした。しばらくしてからもう一度保存するか、内容を貼り付けてください。",
    "setup.error.upload.too_large": "ファイルが大きすぎます（256KB まで）。会場ファイルか確かめてください。",
    "setup.error.upload.not_utf8": "ファイルが UTF-8 の文字ではありません。UTF-8 で保存し直してください。",
    "setup.paste.label": "会場ファイル（TOML）",
    "setup.paste.hint": "`osae venue export` で書き出したものか、README の「Venue file」の形式で。3000文字まで。",
    "setup.error.not_allowed": (
        "会場の設定を変えられるのは会場のマネージャー（会場ができる前は osae をインストールした人）だけです。"
        "マネージャーに依頼してください。"
    ),
    "setup.error.no_workspace": "どのワークスペースからの操作か分かりませんでした。Slack から開き直してください。",
    "setup.error.managers": "マネージャーを1人以上選んでください（マネージャーがいないと設定を変えられなくなります）。",
    "setup.error.room_id": "部屋IDは英小文字・数字で始め、英小文字・数字・- _ で32文字までにしてください。",
    "setup.error.room_taken": "部屋ID「{id}」はもう使われています。別のIDにしてください。",
    "setup.error.name": "部屋の名前を入力してください。",
    "setup.error.parts": "区画を1つ以上、カンマ区切りで入力してください（例: hoo-1, hoo-2）。",
    "setup.error.file": (
        "会場ファイルとして受け付けられませんでした（何も保存していません）: {detail}。直してからもう一度保存してください。"
    ),
    "setup.error.conflict": "保存できませんでした（何も変えていません）: {detail}",
    "error.no_venue": (
        "このワークスペースはまだ会場に結び付けられていません。osae をインストールした人が"
        " App Home の「会場の設定」で会場を作るか、管理者に OSAE_VENUE（または OSAE_VENUES）の設定を依頼してください。"
    ),
}

EN: dict[str, str] = {
    "error.not_installed": JA["error.not_installed"],
    "venue.pick.label": "Venue",
    "setup.start.title": "Set up your venue",
    "setup.start.lead": (
        "Thank you for adding osae. First set up your venue (rooms, sales channel, managers): "
        "start from the template closest to it and adjust the rooms, or upload or paste a "
        "venue file (the TOML `osae venue export` writes)."
    ),
    "setup.template.hotel_banquet": "Start from a hotel banquet floor",
    "setup.template.wedding_house": "Start from a wedding house",
    "setup.paste": "Upload or paste a venue file",
    "setup.open": "Venue settings",
    "setup.about.venue": " · venue {name}",
    "setup.about.privacy": "<{url}|Privacy policy>",
    "setup.about.no_privacy": "ask the operator for the privacy policy",
    "setup.modal.title": "Venue settings",
    "setup.modal.lead": (
        "Settings of *{name}*. Every change is recorded and checked as a venue file is before "
        "it is saved."
    ),
    "setup.save": "Save",
    "setup.close": "Close",
    "setup.back": "Back",
    "setup.channel.label": "Sales channel (hold cards, reports of undelivered notices)",
    "setup.channel.placeholder": "Pick a channel",
    "setup.channel.hint": (
        "osae posts in this channel only (never in #general). Invite osae to the channel."
    ),
    "setup.managers.label": "Managers (see the whole ledger, cancel bookings)",
    "setup.language.label": "The channel's language",
    "setup.language.ja": "日本語",
    "setup.language.en": "English",
    "setup.rooms.title": "Rooms ({count})",
    "setup.room.line": "*{name}*  `{id}`\nparts {parts} · {seats} · turnover {turnover} min",
    "setup.room.seats": "{count} seated",
    "setup.room.no_seats": "no capacity set",
    "setup.room.edit": "Edit",
    "setup.room.add": "Add a room",
    "setup.room.title": "Room",
    "setup.room.id": "Room id",
    "setup.room.id.hint": "Lower-case letters, digits, - and _, up to 32 (e.g. hoo-east). It cannot change later.",
    "setup.room.editing": "Room `{id}`",
    "setup.room.name": "Name",
    "setup.room.parts": "Parts",
    "setup.room.parts.hint": (
        "The floor parts the room uses, separated by commas (e.g. hoo-1, hoo-2). Rooms that "
        "share a part cannot be held at the same time."
    ),
    "setup.room.capacity": "Capacity (seated; empty: none)",
    "setup.room.turnover": "Turnover (minutes, 0 to 1440)",
    "setup.paste.title": "Venue file",
    "setup.upload.label": "Upload the venue file (.toml)",
    "setup.upload.hint": "As `osae venue export` writes it. Or paste it below instead.",
    "setup.error.no_file": "Upload a venue file, or paste it in the box below.",
    "setup.error.upload.not_slack": "That file was not uploaded to Slack, so it was not read. Upload it again.",
    "setup.error.upload.unreachable": "The uploaded file could not be read from Slack. Save again in a while, or paste its text.",
    "setup.error.upload.too_large": "The file is too large (256 KB at most). Is it a venue file?",
    "setup.error.upload.not_utf8": "The file is not UTF-8 text. Save it as UTF-8 and upload it again.",
    "setup.paste.label": "Venue file (TOML)",
    "setup.paste.hint": 'As `osae venue export` writes it, or as README\'s "Venue file" shows. Up to 3000 characters.',
    "setup.error.not_allowed": (
        "Only the venue's managers (before it exists, whoever installed osae) can change its "
        "settings. Ask a manager."
    ),
    "setup.error.no_workspace": "Could not tell which workspace this came from. Open it again from Slack.",
    "setup.error.managers": "Pick at least one manager (without one, nobody could change the settings).",
    "setup.error.room_id": "A room id starts with a lower-case letter or digit and has up to 32 of a-z, 0-9, - and _.",
    "setup.error.room_taken": "Room id '{id}' is taken. Choose another.",
    "setup.error.name": "Type the room's name.",
    "setup.error.parts": "Type at least one part, separated by commas (e.g. hoo-1, hoo-2).",
    "setup.error.file": "Not accepted as a venue file (nothing was saved): {detail}. Fix it and save again.",
    "setup.error.conflict": "Not saved (nothing changed): {detail}",
    "error.no_venue": (
        "This workspace is not linked to a venue yet. Whoever installed osae creates it under "
        "Venue settings in App Home, or ask an admin to set OSAE_VENUE (or OSAE_VENUES)."
    ),
}
