"""Many workspaces (Slack's OAuth distribution): where installations are kept and how a
venue's token is found.

Installations and OAuth state live in osae's PostgreSQL in slack_sdk's SQLAlchemy stores,
whose tables migration 0008 makes (nothing here creates a table). Bolt's OAuth flow writes
them; ``VenueTokens`` reads them for the jobs: a venue's workspace (``venue_workspaces``),
that workspace's installation, its bot token refreshed when it is about to expire (token
rotation), exactly as Bolt's own authorize does for the requests it receives.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from slack_bolt.authorization.authorize import InstallationStoreAuthorize
from slack_sdk import WebClient
from slack_sdk.errors import SlackClientError
from slack_sdk.oauth.installation_store import Installation
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from slack_sdk.oauth.token_rotation import TokenRotator

from core.db import database_url
from core.engine import HoldEngine

# Bolt's default: a token is refreshed when it has less than this left (Slack's last 12 h).
REFRESH_MINUTES = 120
STATE_SECONDS = 600  # an install link's state is good this long (Bolt's default)
# What a new installation asks for: what manifest.yml lists (a test keeps them equal).
SCOPES = ("commands", "chat:write", "users:read", "files:read", "files:write")  # write: the diary

log = logging.getLogger("osae.installs")


@dataclass(frozen=True)
class Stores:
    """The two stores on their own small pool (plain READ COMMITTED, as slack_sdk expects)."""

    installations: SQLAlchemyInstallationStore
    states: SQLAlchemyOAuthStateStore
    db: sa.Engine

    @classmethod
    def open(cls, url: str, client_id: str) -> Stores:
        db = sa.create_engine(database_url(url), pool_size=2, max_overflow=4, pool_pre_ping=True)
        return cls(
            SQLAlchemyInstallationStore(client_id=client_id, engine=db),
            SQLAlchemyOAuthStateStore(expiration_seconds=STATE_SECONDS, engine=db),
            db,
        )

    def close(self) -> None:
        self.db.dispose()


@dataclass
class VenueTokens:
    """``tokens(venue_id) -> bot token | None`` (None: the venue's workspace has no
    installation now, so its notices wait). A token about to expire is refreshed by the
    process's one ``OnceRotator``, which Bolt's authorize shares: once, not per caller."""

    engine: HoldEngine
    store: SQLAlchemyInstallationStore
    rotator: OnceRotator
    refresh_minutes: int = REFRESH_MINUTES

    def __call__(self, venue_id: str) -> str | None:
        link = self.engine.venues.venue_workspace(venue_id)
        if link is None:
            return None
        team = None if link.org_wide else link.workspace_id
        enterprise = link.workspace_id if link.org_wide else link.enterprise_id
        found = self._installed(enterprise, team, link.org_wide)
        if found is None or not self._expiring(found):
            return found.bot_token if found is not None else None
        return self._fresh(found)

    def _installed(
        self, enterprise: str | None, team: str | None, org_wide: bool
    ) -> Installation | None:
        """The installation with a bot token; tokens_revoked deletes the bot row and leaves
        the installation's: no bot, no token."""
        bot = self.store.find_bot(
            enterprise_id=enterprise, team_id=team, is_enterprise_install=org_wide
        )
        found = self.store.find_installation(
            enterprise_id=enterprise, team_id=team, is_enterprise_install=org_wide
        )
        return found if bot is not None and found is not None and found.bot_token else None

    def _expiring(self, found: Installation) -> bool:
        expires = found.bot_token_expires_at
        return expires is not None and expires <= time.time() + self.refresh_minutes * 60

    def _fresh(self, found: Installation) -> str | None:
        try:
            refreshed = self.rotator.perform_token_rotation(
                installation=found, minutes_before_expiration=self.refresh_minutes
            )
        except SlackClientError as err:
            # Slack would not refresh (revoked meanwhile, or away): try the token we have;
            # a refusal then puts the venue's rows back for a while.
            log.warning(
                "slack.token_refresh_failed", extra={"team": found.team_id, "error": str(err)}
            )
            return found.bot_token
        return refreshed.bot_token if refreshed is not None else found.bot_token


class OnceRotator(TokenRotator):
    """slack_sdk's rotator, one refresh of a workspace's token at a time across processes,
    reading the installation again under the lock and saving the refreshed one before the
    next caller gets in: a burst of requests (Bolt's authorize) and the jobs that find one
    token expiring refresh it once. A caller that waited gets the token refreshed meanwhile."""

    def __init__(
        self,
        *,
        client_id: str,
        client_secret: str,
        client: WebClient,
        store: SQLAlchemyInstallationStore,
    ) -> None:
        super().__init__(client_id=client_id, client_secret=client_secret, client=client)
        self.store = store
        self._lock = threading.Lock()

    def perform_token_rotation(
        self, *, installation: Installation, minutes_before_expiration: int = REFRESH_MINUTES
    ) -> Installation | None:
        key = f"osae.token_refresh:{installation.enterprise_id}:{installation.team_id}"
        # The thread lock for this process, PostgreSQL's advisory lock for the others (a web
        # and a worker process that find the same token expiring): one refresh in all.
        with self._lock, self.store.engine.begin() as held:
            held.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": key})
            stored = self.store.find_installation(
                enterprise_id=installation.enterprise_id,
                team_id=installation.team_id,
                is_enterprise_install=installation.is_enterprise_install,
            )
            current = stored or installation
            refreshed = super().perform_token_rotation(
                installation=current, minutes_before_expiration=minutes_before_expiration
            )
            if refreshed is not None:
                self.store.save(refreshed)
                log.info("slack.token_refreshed", extra={"team": refreshed.team_id})
                return refreshed
        # refreshed by another caller meanwhile: that token, not the one this caller read
        return current if current.bot_token != installation.bot_token else None


def rotator(
    client_id: str, client_secret: str, client: WebClient, store: SQLAlchemyInstallationStore
) -> OnceRotator:
    """Token refresh through ``client`` (its base URL: SLACK_API_URL's)."""
    return OnceRotator(client_id=client_id, client_secret=client_secret, client=client, store=store)


def authorize(store: SQLAlchemyInstallationStore, once: OnceRotator) -> InstallationStoreAuthorize:
    """Bolt's authorize on the installation store, refreshing through ``once``."""
    found = InstallationStoreAuthorize(
        logger=logging.getLogger("osae.bolt"),
        installation_store=store,
        client_id=once.client_id,
        client_secret=once.client_secret,
        token_rotation_expiration_minutes=REFRESH_MINUTES,
        client=once.client,
    )
    found.token_rotator = once
    return found


def installer_of(
    store: SQLAlchemyInstallationStore,
) -> Callable[[str | None, str | None], str | None]:
    """``installer(team, org)``: who installed osae there (the latest installation's user)."""

    def installer(team: str | None, org: str | None) -> str | None:
        found = store.find_installation(
            enterprise_id=org, team_id=team, is_enterprise_install=team is None
        )
        return found.user_id if found is not None else None

    return installer
