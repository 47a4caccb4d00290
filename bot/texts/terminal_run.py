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
    "web.console": "web: {base}（GET /healthz。Slack なしなので Slack の受け口はありません）",
    "web.socket": "Slack は Socket Mode（開発用。公開 URL は要りません。本番と Slack Marketplace は HTTP: SLACK_APP_TOKEN を消してください）。GET {base}/healthz",
    "web.distributed": "{base} で待ち受けています（Slack に追加: GET {base}/slack/install、Slack からの戻り先 /slack/oauth_redirect、Slack から POST /slack/events、GET /healthz）",
    "web.http": "{base} で待ち受けています（Slack から POST /slack/events、GET /healthz）",
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
    "web.console": "web on {base} (GET /healthz; no Slack endpoint without Slack)",
    "web.socket": "Slack over Socket Mode, for development (no public URL needed; production and the Slack Marketplace use HTTP: unset SLACK_APP_TOKEN); GET {base}/healthz",
    "web.distributed": "listening on {base} (Add to Slack at GET {base}/slack/install, Slack's redirect to /slack/oauth_redirect, POST /slack/events from Slack, GET /healthz)",
    "web.http": "listening on {base} (POST /slack/events from Slack, GET /healthz)",
}
