"""The composition root: the one place that turns settings into the parts osae runs on.

It builds the database engine and the ``HoldEngine``, the Dramatiq broker, the Slack client,
the notice transport (Slack DMs, or the terminal without Slack), the courier with the bot's
renderer, the actors, the worker, the clock and the Bolt app, and hands them to the entry
points: ``osae web|worker|clock|serve`` (``cli.processes``), the other commands, the tests
and the benches. ``core`` knows none of the others; ``bot`` and ``jobs`` know only ``core``
and receive what they need from here (docs/architecture.md, "Layers").

Nothing here connects to anything at import.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any, TextIO

import dramatiq
import redis
from dramatiq.brokers.redis import RedisBroker
from slack_bolt.authorization.authorize import Authorize
from slack_bolt.oauth.oauth_settings import OAuthSettings
from slack_sdk import WebClient
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore

from bot.app import BotApp, build_app
from bot.card_notices import render_card, render_card_line
from bot.locales import UserLocales
from bot.notices import render_failure_report, render_notice
from bot.texts import DEFAULT_LOCALE, text
from bot.workspaces import VenueResolver
from cli import console_buttons, installs, local_access, local_redis, local_stack, localservices
from cli.errors import CommandError
from cli.settings import SettingError, Settings
from cli.workspace_parts import Workspaces, file_hosts
from core.db import create_engine
from core.engine import HoldEngine
from core.errors import DatabaseUnavailable, UnknownVenue
from core.exports.feed_tokens import FeedKey
from jobs import heartbeat, queues
from jobs.actors import Actors, JobDeps, register
from jobs.broker import build_broker
from jobs.clock import Clock, engine_zones
from jobs.console import CHANNEL as CONSOLE_CHANNEL
from jobs.console import Console
from jobs.delivery import Courier
from jobs.heartbeat import Heartbeat
from jobs.queues import DRAIN
from jobs.slack_post import ChannelPacer, SlackDM, WorkspaceDMs
from jobs.transport import Transport

SLACK_API = "https://slack.com/api/"
# An idle worker asks Redis for work at most this often (Dramatiq's default is 1 s): a DM a
# few hundred ms sooner, for a handful of cheap Redis calls a second per worker.
POLL_MS = 200
BEATING = (heartbeat.WORKER, heartbeat.CLOCK)  # the parts /healthz wants heartbeats of
LOCALE_TTL = 3600  # seconds a user's Slack language is trusted before it is asked again
Now = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def load_settings() -> Settings:
    """The environment, read once by the entry point; a knob set wrongly stops it cleanly."""
    try:
        return Settings.from_env()
    except SettingError as err:
        raise CommandError("bad_setting", str(err), exit_code=2) from None


# -- the database ----------------------------------------------------------------------------
def hold_engine(url: str, *, pool_size: int = 10) -> HoldEngine:
    """The engine on its own connection pool, its admission as ``HoldEngine`` sets it."""
    return HoldEngine(create_engine(url, pool_size=pool_size))


def database_url(settings: Settings) -> str:
    """DATABASE_URL, else the database of the `osae serve` that keeps its data in
    OSAE_DATA_DIR (./.data), which it says is running; else a CommandError saying how to
    start one."""
    if settings.database_url:
        return settings.database_url
    try:  # `osae serve` keeps its own PostgreSQL's port here
        port = int((settings.data_dir / "pgport").read_text())
    except (OSError, ValueError):
        said = text(
            settings.language,
            "run.no_database",
            folder=settings.data_dir,
            command=settings.command("serve"),
        )
        raise CommandError("no_database", said) from None
    secret = local_access.kept_password(settings.data_dir / local_access.PG_PASSWORD)
    url = local_access.pg_url(port, secret, local_stack.DATABASE)
    if not localservices.postgres_answers(url, timeout=2):
        folder, command = settings.data_dir.resolve(), settings.command("serve")
        said = text(settings.language, "run.not_running", folder=folder, command=command)
        raise CommandError("not_running", said)
    return url


def engine_for(settings: Settings) -> HoldEngine:
    """A command's engine, on a small pool; a CommandError if the database does not answer."""
    engine = hold_engine(database_url(settings), pool_size=2)
    try:
        engine.ping()
    except DatabaseUnavailable as err:
        message = f"cannot reach the database: {err.reason}"
        raise CommandError("database_unreachable", message) from None
    return engine


# -- Redis -----------------------------------------------------------------------------------
def redis_url(settings: Settings) -> str | None:
    """REDIS_URL, else the Redis of the local `osae serve` when it answers."""
    if settings.redis_url:
        return settings.redis_url
    folder = settings.data_dir / "redis"
    try:
        port = int((folder / local_redis.PORT_FILE).read_text())
    except (OSError, ValueError):
        return None
    secret = local_access.kept_password(folder / local_access.REDIS_PASSWORD)
    answers = localservices.redis_answers("127.0.0.1", port, password=secret)
    return local_access.redis_url(port, secret) if answers else None


def broker(settings: Settings, url: str) -> RedisBroker:
    return build_broker(url, namespace=settings.tuning.namespace)


def wake_drain(settings: Settings, venue_id: str) -> bool:
    """Ask the worker to send ``venue_id``'s notices now; False if no Redis is reachable (the
    clock's safety-net drain sends them within seconds anyway)."""
    url = redis_url(settings)
    if url is None:
        return False
    woken = broker(settings, url)
    try:
        return queues.try_enqueue(woken, DRAIN, venue_id)
    finally:
        woken.client.close()


# -- Slack -----------------------------------------------------------------------------------
def slack_client(settings: Settings, token: str | None = None) -> WebClient:
    """No retry handlers: a post is retried only by the outbox, never twice by the SDK.
    ``token``: a workspace's (many workspaces); else SLACK_BOT_TOKEN (none when distributed)."""
    base = settings.slack_api_url or SLACK_API
    return WebClient(
        token=token or (None if settings.distributed else settings.slack_bot_token),
        base_url=base if base.endswith("/") else f"{base}/",
        timeout=settings.tuning.slack_timeout,
        retry_handlers=[],
    )


def console(settings: Settings, engine: HoldEngine, out: TextIO = sys.stdout) -> Console:
    """Notices on the terminal: DMs in its language (or a person's, OSAE_CONSOLE_LANGS),
    cards in the sales channel's (the Courier's ``report_locale``), each button with the
    command that does the same, as whoever would press it (``cli.console_buttons``)."""
    return Console(
        out,
        language=settings.language or DEFAULT_LOCALE,
        languages=settings.console_languages,
        command_for=partial(console_buttons.command_for, settings, engine),
        words=partial(text, settings.language or DEFAULT_LOCALE),  # the terminal reader's
        names=engine.reads.names,  # people by name, as Slack shows them
    )


def transport(settings: Settings, engine: HoldEngine) -> Transport:
    """Slack DMs when a bot token is set; otherwise the terminal (running without Slack)."""
    if not settings.slack_bot_token:
        return console(settings, engine)
    client = slack_client(settings)
    locales = UserLocales(client, ttl_seconds=LOCALE_TTL)
    return SlackDM(client, locales, timeout=settings.tuning.slack_timeout, pacer=ChannelPacer())


def bot_app(
    engine: HoldEngine,
    settings: Settings,
    *,
    client: WebClient,
    venues: VenueResolver,
    now: Now = utc_now,
    on_notices: Callable[[str], None] = lambda venue_id: None,
    process_before_response: bool = False,
    oauth: OAuthSettings | None = None,
    authorize: Authorize | None = None,
) -> BotApp:
    """The Bolt app with every listener, signing with SLACK_SIGNING_SECRET; with ``oauth``,
    installed by any workspace (``Workspaces.oauth``), whose installer sets its venue up."""
    installer = None
    if oauth is not None and isinstance(oauth.installation_store, SQLAlchemyInstallationStore):
        installer = installs.installer_of(oauth.installation_store)
    return build_app(
        engine=engine,
        signing_secret=settings.slack_signing_secret or "",
        client=client,
        venues=venues,
        now=now,
        on_notices=on_notices,
        process_before_response=process_before_response,
        oauth=oauth,
        authorize=authorize,
        installer=installer or (lambda team, org: None),
        privacy_url=settings.privacy_url,
        file_hosts=file_hosts(settings),
        feed_link=partial(feed_link, engine, settings),
        feed_issue=partial(feed_issue, engine, settings, now),
    )


def _feed_secret(settings: Settings) -> bytes | None:
    return settings.feed_secret.encode() if settings.feed_secret else None


def feed_link(engine: HoldEngine, settings: Settings, feed: FeedKey) -> str | None:
    """A calendar feed's URL if its token was issued (a read only), else None."""
    try:
        token = engine.reads.feed_shown(feed, secret=_feed_secret(settings))
    except UnknownVenue:
        return None
    return f"{settings.feed_base}/calendar/{token}.ics" if token is not None else None


def feed_issue(engine: HoldEngine, settings: Settings, now: Now, feed: FeedKey) -> str | None:
    """A calendar feed's URL, its token issued if it was not yet; None if it cannot be."""
    token = engine.writes.feed_token(feed, secret=_feed_secret(settings), now=now())
    return f"{settings.feed_base}/calendar/{token}.ics" if isinstance(token, str) else None


# -- a running process -----------------------------------------------------------------------
@dataclass
class Runtime:
    """What one process runs on (engine, broker, clock source) and the parts built on them."""

    settings: Settings
    engine: HoldEngine
    broker: RedisBroker
    now: Now = utc_now
    database_url: str | None = None  # for the installation stores (many workspaces)
    _actors: Actors | None = field(default=None, init=False)
    _workspaces: Workspaces | None = field(default=None, init=False)

    @classmethod
    def open(
        cls,
        settings: Settings,
        *,
        database_url: str,
        redis_url: str,
        now: Now = utc_now,
        pool_size: int = 10,
    ) -> Runtime:
        return cls(
            settings,
            hold_engine(database_url, pool_size=pool_size),
            broker(settings, redis_url),
            now,
            database_url,
        )

    def workspaces(self) -> Workspaces:
        """Many workspaces' parts: installation stores, token refresh, per-venue DMs."""
        if self._workspaces is None:
            url = self.database_url or database_url(self.settings)
            client = partial(slack_client, self.settings)
            self._workspaces = Workspaces(self.settings, self.engine, url, client, self.now)
        return self._workspaces

    def stores(self) -> installs.Stores:
        return self.workspaces().stores()

    def workspace_dms(self) -> WorkspaceDMs:
        return self.workspaces().dms(LOCALE_TTL)

    def courier(self, via: Transport | None = None) -> Courier:
        """Outbox delivery through ``via`` (default: Slack DMs, or the terminal)."""
        many = via is None and self.settings.distributed
        carrier = via or transport(self.settings, self.engine)
        # Without Slack the terminal plays the sales channel: cards print there too.
        on_console = CONSOLE_CHANNEL if isinstance(carrier, Console) else None
        return Courier(
            transport_for=self.workspace_dms() if many else None,
            delivery=self.engine.delivery,
            transport=carrier,
            render=render_notice,
            render_report=render_failure_report,
            now=self.now,
            lease=self.settings.tuning.lease,
            report_locale=self.settings.report_locale,
            sales_channel=self.settings.sales_channel,
            render_card=render_card,
            render_card_line=render_card_line,
            card_channel=self.settings.sales_channel or on_console,
        )

    def actors(self, courier: Courier | None = None) -> Actors:
        """Declare the actors on this runtime's broker (once)."""
        if self._actors is None:
            deps = JobDeps(
                writes=self.engine.writes,
                venues=self.engine.venues,
                courier=courier or self.courier(),
                now=self.now,
                pings=self.engine.pings,
            )
            self._actors = register(self.broker, deps)
        return self._actors

    def worker(self, courier: Courier | None = None) -> dramatiq.Worker:
        """A worker (not started) consuming every queue of the actors."""
        self.actors(courier)
        return dramatiq.Worker(
            self.broker, worker_threads=self.settings.tuning.worker_threads, worker_timeout=POLL_MS
        )

    def clock(self) -> Clock:
        schedule = self.settings.tuning.schedule
        return Clock(self.broker, engine_zones(self.engine.venues), schedule, now=self.now)

    def bot(self) -> BotApp:
        """The Bolt app, its notices hook enqueuing drains; installed by any workspace when
        SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are set."""
        settings = self.settings
        many = self.workspaces() if settings.distributed else None
        oauth = many.oauth() if many is not None else None
        authorize = many.authorize() if many is not None else None
        linked = self.engine.venues.workspace_venues
        venues = (
            VenueResolver(by_team=settings.venues_by_team, linked=linked)
            if oauth is not None
            else VenueResolver(default=self.default_venue(), by_team=settings.venues_by_team)
        )
        return bot_app(
            self.engine,
            settings,
            client=slack_client(settings),
            venues=venues,
            now=self.now,
            on_notices=self.on_notices(),
            oauth=oauth,
            authorize=authorize,
        )

    def default_venue(self) -> str | None:
        """OSAE_VENUE, else the only venue loaded (a single hotel needs no setting)."""
        if self.settings.venue_id:
            return self.settings.venue_id
        known = self.engine.venues.venue_ids()
        return known[0] if len(known) == 1 else None

    def on_notices(self) -> Callable[[str], None]:
        return queues.drain_hook(self.broker)

    def drain_all(self) -> None:
        """A drain per venue: what a restarted worker left leased or pending goes out."""
        for venue_id in self.engine.venues.venue_ids():
            queues.try_enqueue(self.broker, DRAIN, venue_id)

    def health(self) -> tuple[bool, dict[str, Any]]:
        """For /healthz: can we reach the database and Redis, and do the worker and the
        clock beat (wherever they run)?"""
        checks = {
            "database": _check(self.engine.ping, DatabaseUnavailable),
            "redis": _check(self.broker.client.ping, redis.RedisError),
            **heartbeat.read(self.broker.client, self.settings.tuning.namespace, BEATING),
        }
        return all(v == "ok" for v in checks.values()), checks

    def beat_for(self, part: str, alive: Callable[[], bool]) -> Heartbeat:
        """``part``'s heartbeat (not started), in this runtime's Redis namespace."""
        return Heartbeat(self.broker.client, self.settings.tuning.namespace, part, alive)

    def close(self) -> None:
        if self._workspaces is not None:
            self._workspaces.close()
        self.broker.close()
        self.broker.client.close()
        self.engine.close()


def _check(probe: Callable[[], object], errors: type[Exception]) -> str:
    try:
        probe()
    except errors as err:
        reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        return f"unreachable: {reason}"
    return "ok"
