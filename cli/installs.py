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
from collections.abc import Callable
from dataclasses import dataclass, field

import sqlalchemy as sa
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
SCOPES = ("commands", "chat:write", "users:read")

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
    installation now, so its notices wait). A token about to expire is refreshed once, under
    a lock, and saved for Bolt to read too."""

    engine: HoldEngine
    store: SQLAlchemyInstallationStore
    rotator: TokenRotator
    refresh_minutes: int = REFRESH_MINUTES
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, venue_id: str) -> str | None:
        link = self.engine.venues.venue_workspace(venue_id)
        if link is None:
            return None
        team = None if link.org_wide else link.workspace_id
        enterprise = link.workspace_id if link.org_wide else link.enterprise_id
        with self._lock:  # one refresh, not one per thread that found the token expiring
            # tokens_revoked deletes the bot row and leaves the installation's: no bot, no token
            bot = self.store.find_bot(
                enterprise_id=enterprise, team_id=team, is_enterprise_install=link.org_wide
            )
            found = self.store.find_installation(
                enterprise_id=enterprise, team_id=team, is_enterprise_install=link.org_wide
            )
            if bot is None or found is None or not found.bot_token:
                return None
            return self._fresh(found)

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
        if refreshed is None:
            return found.bot_token
        self.store.save(refreshed)
        log.info("slack.token_refreshed", extra={"team": found.team_id})
        return refreshed.bot_token


def rotator(client_id: str, client_secret: str, client: WebClient) -> TokenRotator:
    """Token refresh through ``client`` (its base URL: SLACK_API_URL's)."""
    return TokenRotator(client_id=client_id, client_secret=client_secret, client=client)


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
