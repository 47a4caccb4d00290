"""Settings from the environment; entry points build engines and clients from these."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    database_url: str | None  # DATABASE_URL; unset: `osae serve` starts its own PostgreSQL
    redis_url: str | None  # REDIS_URL; unset: `osae serve` starts its own Redis
    slack_bot_token: str | None  # SLACK_BOT_TOKEN (xoxb-...)
    slack_signing_secret: str | None  # SLACK_SIGNING_SECRET
    slack_app_token: str | None  # SLACK_APP_TOKEN (xapp-...): Socket Mode when set
    slack_api_url: str | None  # SLACK_API_URL: the Web API base URL (a stand-in in tests)
    venue_id: str | None  # OSAE_VENUE: the venue this workspace works in
    venues_by_team: dict[str, str]  # OSAE_VENUES="T0123=grand-tokyo,T0456=osaka": several
    sales_channel: str | None  # OSAE_SALES_CHANNEL: where delivery failures are reported
    port: int  # PORT, default 3000
    data_dir: Path  # OSAE_DATA_DIR: `osae serve`'s own databases, default ./.data
    log_format: str  # OSAE_LOG_FORMAT: "json" (default) or "text"
    language: str | None = None  # OSAE_LANG, else LANG: the terminal's language
    # OSAE_CONSOLE_LANGS="U0SALES002=en,...": without Slack, a person's language for notices
    console_languages: dict[str, str] = field(default_factory=dict)
    launcher: str | None = None  # OSAE_LAUNCHER: "python3 dev.py" when started by dev.py

    @property
    def slack_configured(self) -> bool:
        """Any Slack variable set: then Slack is meant, and a missing one is explained."""
        return bool(self.slack_bot_token or self.slack_app_token or self.slack_signing_secret)

    def command(self, *words: str) -> str:
        """How the user runs `osae WORDS` here: through dev.py when that started us."""
        if self.launcher is None:
            return " ".join(["osae", *words])
        if words[:1] == ("serve",):
            return " ".join([self.launcher, "run", *words[1:]])
        return " ".join([self.launcher, "osae", *words])

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(
            database_url=env.get("DATABASE_URL") or None,
            redis_url=env.get("REDIS_URL") or None,
            slack_bot_token=env.get("SLACK_BOT_TOKEN") or None,
            slack_signing_secret=env.get("SLACK_SIGNING_SECRET") or None,
            slack_app_token=env.get("SLACK_APP_TOKEN") or None,
            slack_api_url=env.get("SLACK_API_URL") or None,
            venue_id=env.get("OSAE_VENUE") or None,
            venues_by_team=_pairs(env.get("OSAE_VENUES", "")),
            sales_channel=env.get("OSAE_SALES_CHANNEL") or None,
            port=int(env.get("PORT") or 3000),
            data_dir=Path(env.get("OSAE_DATA_DIR") or ".data"),
            log_format=env.get("OSAE_LOG_FORMAT") or "json",
            language=env.get("OSAE_LANG") or env.get("LANG") or None,
            console_languages=_pairs(env.get("OSAE_CONSOLE_LANGS", "")),
            launcher=env.get("OSAE_LAUNCHER") or None,
        )


def _pairs(raw: str) -> dict[str, str]:
    """``"a=b,c=d"`` as ``{"a": "b", "c": "d"}``; items without ``=`` are ignored."""
    pairs = (item.split("=", 1) for item in raw.split(",") if "=" in item)
    return {key.strip(): value.strip() for key, value in pairs if key.strip() and value.strip()}
