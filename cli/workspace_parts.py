"""Many workspaces (Add to Slack), as the composition root builds them: slack_sdk's stores in
osae's database, Bolt's OAuth settings and authorize, the process's one token refresher and
each venue's transport with its workspace's token. ``cli.bootstrap.Runtime.workspaces``
makes one per process."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urlsplit

from slack_bolt.authorization.authorize import InstallationStoreAuthorize
from slack_bolt.oauth.oauth_settings import OAuthSettings
from slack_sdk import WebClient

from bot.locales import UserLocales
from bot.setup_files import SLACK_FILES
from cli import installs
from cli.settings import Settings
from core.engine import HoldEngine
from core.model import WorkspaceLink
from jobs.slack_post import WorkspaceDMs


@dataclass
class Workspaces:
    settings: Settings
    engine: HoldEngine
    database_url: str
    client: Callable[..., WebClient]  # ``client(token=None)``: SLACK_API_URL's, no retries
    now: Callable[[], datetime]
    _stores: installs.Stores | None = field(default=None, init=False)
    _rotator: installs.OnceRotator | None = field(default=None, init=False)

    def stores(self) -> installs.Stores:
        """slack_sdk's installation and state stores in osae's database (opened once)."""
        if self._stores is None:
            self._stores = installs.Stores.open(self.database_url, self._credentials()[0])
            self.seed_links()
        return self._stores

    def seed_links(self) -> None:
        """OSAE_VENUES as stored links: a venue listed there and not linked yet is linked."""
        for team, venue_id in self.settings.venues_by_team.items():
            if (
                self.engine.venues.venue(venue_id)
                and self.engine.venues.venue_workspace(venue_id) is None
            ):
                self.engine.venues.link_workspace(WorkspaceLink(venue_id, team), now=self.now())

    def rotator(self) -> installs.OnceRotator:
        """The process's one token refresher, shared by Bolt's authorize and the courier."""
        if self._rotator is None:
            client_id, secret = self._credentials()
            self._rotator = installs.rotator(
                client_id, secret, self.client(), self.stores().installations
            )
        return self._rotator

    def oauth(self) -> OAuthSettings:
        """Bolt's OAuth flow on osae's stores: /slack/install, /slack/oauth_redirect."""
        client_id, secret = self._credentials()
        stores = self.stores()
        return OAuthSettings(
            client_id=client_id,
            client_secret=secret,
            scopes=list(installs.SCOPES),
            user_scopes=[],
            redirect_uri=self.settings.slack_redirect_uri,
            installation_store=stores.installations,
            state_store=stores.states,
            token_rotation_expiration_minutes=installs.REFRESH_MINUTES,
        )

    def authorize(self) -> InstallationStoreAuthorize:
        return installs.authorize(self.stores().installations, self.rotator())

    def dms(self, locale_ttl: float) -> WorkspaceDMs:
        """Each venue's DMs and cards with its workspace's token, refreshed when due."""
        tokens = installs.VenueTokens(self.engine, self.stores().installations, self.rotator())
        return WorkspaceDMs(
            tokens,
            self.client,
            lambda client: UserLocales(client, ttl_seconds=locale_ttl),
            timeout=self.settings.tuning.slack_timeout,
        )

    def close(self) -> None:
        if self._stores is not None:
            self._stores.close()

    def _credentials(self) -> tuple[str, str]:
        settings = self.settings
        if not (settings.slack_client_id and settings.slack_client_secret):
            raise RuntimeError("many workspaces need SLACK_CLIENT_ID and SLACK_CLIENT_SECRET")
        return settings.slack_client_id, settings.slack_client_secret


def file_hosts(settings: Settings) -> tuple[str, ...]:
    """Where an uploaded file may be fetched from with a token: Slack's file host, and the
    host of SLACK_API_URL when it is set (a stand-in serves files there)."""
    if not settings.slack_api_url:
        return (SLACK_FILES,)
    url = urlsplit(settings.slack_api_url)
    return (SLACK_FILES, f"{url.scheme}://{url.netloc}/files/")
