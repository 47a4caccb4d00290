"""The pieces every process is built from: engine, broker, Slack client, notice transport,
worker, clock, health.

Entry points (``osae web|worker|clock|serve``) open one :class:`Runtime` from settings and take
the parts they run; nothing here connects to anything at import.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import dramatiq
import redis
from dramatiq.brokers.redis import RedisBroker
from slack_sdk import WebClient

from cli.settings import Settings
from core.db import create_engine
from core.engine import HoldEngine
from core.errors import DatabaseUnavailable
from jobs import queues
from jobs.actors import Actors, Deps, register
from jobs.broker import build_broker
from jobs.clock import Clock, engine_zones
from jobs.console import Console
from jobs.delivery import Courier
from jobs.queues import DRAIN
from jobs.slack_post import SlackDM
from jobs.transport import Transport
from jobs.tuning import Tuning

log = logging.getLogger(__name__)

SLACK_API = "https://slack.com/api/"
# An idle worker asks Redis for work at most this often (Dramatiq's default is 1 s): a DM a
# few hundred ms sooner, for a handful of cheap Redis calls a second per worker.
POLL_MS = 200
Now = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def slack_client(settings: Settings, tuning: Tuning) -> WebClient:
    """No retry handlers: a post is retried only by the outbox, never twice by the SDK."""
    base = settings.slack_api_url or SLACK_API
    return WebClient(
        token=settings.slack_bot_token,
        base_url=base if base.endswith("/") else f"{base}/",
        timeout=tuning.slack_timeout,
        retry_handlers=[],
    )


@dataclass
class Runtime:
    settings: Settings
    tuning: Tuning
    engine: HoldEngine
    broker: RedisBroker
    now: Now = utc_now
    _actors: Actors | None = field(default=None, init=False)

    @classmethod
    def open(
        cls,
        settings: Settings,
        tuning: Tuning,
        *,
        database_url: str,
        redis_url: str,
        now: Now = utc_now,
        pool_size: int = 10,
    ) -> Runtime:
        engine = HoldEngine(create_engine(database_url, pool_size=pool_size))
        broker = build_broker(redis_url, namespace=tuning.namespace)
        return cls(settings, tuning, engine, broker, now)

    def slack(self) -> WebClient:
        return slack_client(self.settings, self.tuning)

    def transport(self) -> Transport:
        """Slack DMs when a bot token is set; otherwise the terminal (running without Slack)."""
        if self.settings.slack_bot_token:
            from bot.locales import UserLocales  # noqa: PLC0415 - the bot is needed only to send

            client = self.slack()
            locales = UserLocales(client, ttl_seconds=3600)
            return SlackDM(client, locales, timeout=self.tuning.slack_timeout)
        return console(self.settings)

    def courier(self, transport: Transport | None = None) -> Courier:
        from bot.notices import render_failure_report, render_notice  # noqa: PLC0415

        return Courier(
            engine=self.engine,
            transport=transport or self.transport(),
            render=render_notice,
            render_report=render_failure_report,
            now=self.now,
            lease=self.tuning.lease,
            sales_channel=self.settings.sales_channel,
            report_locale=self.tuning.report_locale,
        )

    def actors(self, courier: Courier | None = None) -> Actors:
        """Declare the actors on this runtime's broker (once)."""
        if self._actors is None:
            deps = Deps(engine=self.engine, courier=courier or self.courier(), now=self.now)
            self._actors = register(self.broker, deps)
        return self._actors

    def worker(self, courier: Courier | None = None) -> dramatiq.Worker:
        """A worker (not started) consuming every queue of the actors."""
        self.actors(courier)
        return dramatiq.Worker(
            self.broker, worker_threads=self.tuning.worker_threads, worker_timeout=POLL_MS
        )

    def clock(self) -> Clock:
        return Clock(self.broker, engine_zones(self.engine), self.tuning, now=self.now)

    def on_notices(self) -> Callable[[str], None]:
        return queues.drain_hook(self.broker)

    def drain_all(self) -> None:
        """A drain per venue: what a restarted worker left leased or pending goes out."""
        for venue_id in self.engine.venue_ids():
            queues.try_enqueue(self.broker, DRAIN, venue_id)

    def health(self) -> tuple[bool, dict[str, Any]]:
        """For /healthz: can we reach the database and Redis?"""
        checks = {
            "database": _check(self.engine.ping, DatabaseUnavailable),
            "redis": _check(self.broker.client.ping, redis.RedisError),
        }
        return all(v == "ok" for v in checks.values()), checks

    def close(self) -> None:
        self.broker.close()
        self.broker.client.close()
        self.engine.close()


def console(settings: Settings) -> Console:
    """Notices on stdout, in the terminal's language (or a person's, OSAE_CONSOLE_LANGS), each
    button with the command that does the same."""
    from bot.ids import DECISION_ACTION  # noqa: PLC0415 - the buttons' ids are the bot's

    def command_for(action_id: str, value: str, recipient: str) -> str | None:
        found = DECISION_ACTION.match(action_id)
        if found is None or not value.isdigit():
            return None
        return settings.command("hold", found.group(1), value, "--actor", recipient)

    return Console(
        sys.stdout,
        language=settings.language or "ja",
        languages=settings.console_languages,
        command_for=command_for,
    )


def _check(probe: Callable[[], object], errors: type[Exception]) -> str:
    try:
        probe()
    except errors as err:
        reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        return f"unreachable: {reason}"
    return "ok"
