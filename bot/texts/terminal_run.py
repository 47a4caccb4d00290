"""What ``osae serve`` (``python3 dev.py run``) and the other processes tell the operator
(issue 30): where each part is, that it stopped, what is missing to start. ``JA`` and ``EN``
have the same keys; ``cli.context.say(key)`` says one."""

from __future__ import annotations

JA: dict[str, str] = {
    "run.ctrl_c": " · Ctrl-C ですべて止まります",
    "run.stopped": "止まりました",
    "run.postgres": "PostgreSQL {url}（データは {where}）",
    "run.redis": "Redis {url}",
    "run.demo_loaded": "デモの会場を {path} から読み込みました",
    "run.no_venue": "会場がまだ読み込まれていません。{command} を実行してください",
    "run.no_redis": "REDIS_URL が設定されていません。設定する（redis://host:6379/0）か、Redis も自分で起動する {command} を使ってください。",
    "run.database": "データベース: {state}",
    "run.slack.partly": "Slack の設定が足りません",
    "run.slack.none": "Slack が設定されていません",
    "run.slack": "{command}: {state}。何も起動していません。\n\n足りないもの: {missing}\n\n{without}",
    "run.slack.or": "または",
    "run.slack.without": "または SLACK_ で始まる変数をすべて消してください。{command} は Slack なしで動き、通知を端末に表示します。\n\n",
    "run.manifest": "manifest.yml（osae のリポジトリの一番上）",
    "setting.not_number": "{name}={raw} は数ではありません。数を書いてください",
    "setting.not_positive": "{name}={raw} は 0 より大きい数にしてください",
    "setting.not_whole": "{name}={raw} は整数にしてください",
    "run.no_database": "DATABASE_URL が設定されておらず、{folder} で osae を動かしたこともありません。別の端末で {command} を起動する（PostgreSQL と Redis をそこに置きます）か、DATABASE_URL=postgres://user@host/db を設定してください",
    "run.not_running": "{folder} の osae が動いていません。別の端末で {command} を起動してから、もう一度実行してください（または DATABASE_URL を設定してください）",
    "web.console": "web: {base}（GET /healthz。Slack なしなので Slack の受け口はありません）",
    "web.socket": "Slack は Socket Mode（開発用。公開 URL は要りません。本番と Slack Marketplace は HTTP: SLACK_APP_TOKEN を消してください）。GET {base}/healthz",
    "web.distributed": "{base} で待ち受けています（Slack に追加: GET {base}/slack/install、Slack からの戻り先 /slack/oauth_redirect、Slack から POST /slack/events、GET /healthz）",
    "web.http": "{base} で待ち受けています（Slack から POST /slack/events、GET /healthz）",
    "tour.connect_steps": (
        "1. マニフェストから Slack アプリを作ります: https://api.slack.com/apps を開き、\n"
        "   「Create New App」>「From an app manifest」でワークスペースを選び、次のファイルを貼り付けます\n"
        "   {manifest}\n"
        "   - Socket Mode（公開 URL が要りません。ファイアウォールの内側の一台など）: 貼り付ける前に\n"
        "     socket_mode_enabled を true にします\n"
        "   - HTTP: https://osae.example.com をこのマシンの公開 https URL に置き換えます\n"
        "   そのあと「Install to Workspace」を押します。\n"
        "2. 次を設定して、もう一度 `{command}` を実行します:\n"
        "   SLACK_BOT_TOKEN=xoxb-...     OAuth & Permissions > Bot User OAuth Token\n"
        "   と、次のどちらか\n"
        "   SLACK_APP_TOKEN=xapp-...     Socket Mode: Basic Information > App-Level Tokens\n"
        "                                （connections:write の権限を持つトークン）\n"
        "   SLACK_SIGNING_SECRET=...     HTTP: Basic Information > Signing Secret。Slack は\n"
        "                                <あなたの URL>/slack/events（このマシンの $PORT）に送ります\n"
        "   任意: OSAE_SALES_CHANNEL=C...（届けられなかったお知らせを伝えるチャンネル。ボットを招待して\n"
        "   ください）、OSAE_VENUE（会場が複数あるときの会場 ID）、PORT（既定 3000）\n"
    ),
}
EN: dict[str, str] = {
    "run.ctrl_c": " · Ctrl-C stops everything",
    "run.stopped": "stopped",
    "run.postgres": "PostgreSQL {url} (data in {where})",
    "run.redis": "Redis {url}",
    "run.demo_loaded": "demo venue loaded from {path}",
    "run.no_venue": "no venue is loaded yet: run `{command}`",
    "run.no_redis": "REDIS_URL is not set. Set it (redis://host:6379/0), or run `{command}`, which starts its own Redis.",
    "run.database": "database {state}",
    "run.slack.partly": "Slack is only partly configured",
    "run.slack.none": "Slack is not configured",
    "run.slack": "{command}: {state}; nothing was started.\n\nMissing: {missing}\n\n{without}",
    "run.slack.or": "or",
    "run.slack.without": "Or unset every SLACK_ variable: `{command}` then runs without Slack and prints each notice in the terminal.\n\n",
    "run.manifest": "manifest.yml (at the top of the osae repository)",
    "setting.not_number": "{name}={raw} is not a number",
    "setting.not_positive": "{name}={raw} must be above 0",
    "setting.not_whole": "{name}={raw} must be a whole number",
    "run.no_database": "DATABASE_URL is not set and no local osae has run in {folder}: start `{command}` in another terminal (it keeps PostgreSQL and Redis there), or set DATABASE_URL=postgres://user@host/db",
    "run.not_running": "the local osae of {folder} is not running: start `{command}` in another terminal and try again (or set DATABASE_URL)",
    "web.console": "web on {base} (GET /healthz; no Slack endpoint without Slack)",
    "web.socket": "Slack over Socket Mode, for development (no public URL needed; production and the Slack Marketplace use HTTP: unset SLACK_APP_TOKEN); GET {base}/healthz",
    "web.distributed": "listening on {base} (Add to Slack at GET {base}/slack/install, Slack's redirect to /slack/oauth_redirect, POST /slack/events from Slack, GET /healthz)",
    "web.http": "listening on {base} (POST /slack/events from Slack, GET /healthz)",
    "tour.connect_steps": (
        "1. Create the Slack app from the manifest: open https://api.slack.com/apps, choose\n"
        '   "Create New App" > "From an app manifest", pick your workspace and paste\n'
        "   {manifest}\n"
        "   - Socket Mode (no public URL needed, e.g. one machine behind a firewall): change\n"
        "     socket_mode_enabled to true before pasting;\n"
        "   - HTTP mode: replace https://osae.example.com with this machine's public https URL.\n"
        '   Then "Install to Workspace".\n'
        "2. Set, then run `{command}` again:\n"
        "   SLACK_BOT_TOKEN=xoxb-...     OAuth & Permissions > Bot User OAuth Token\n"
        "   and one of\n"
        "   SLACK_APP_TOKEN=xapp-...     Socket Mode: Basic Information > App-Level Tokens,\n"
        "                                a token with the connections:write scope\n"
        "   SLACK_SIGNING_SECRET=...     HTTP mode: Basic Information > Signing Secret; Slack then\n"
        "                                posts to <your URL>/slack/events (this machine's $PORT)\n"
        "   Optional: OSAE_SALES_CHANNEL=C... (where undeliverable notices are reported; invite the\n"
        "   bot there), OSAE_VENUE (the venue id, if several are loaded), PORT (default 3000).\n"
    ),
}
