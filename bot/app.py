"""``build_app``: the Bolt app with every listener, built from its dependencies.

Nothing happens at import time; ``build_app`` makes no network call either (the token is
checked with auth.test on the first request), so a web process starts while Slack is away.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from slack_bolt import App, BoltContext
from slack_bolt.authorization.authorize import Authorize
from slack_bolt.oauth.oauth_settings import OAuthSettings
from slack_sdk import WebClient

from bot import venue_choice
from bot.after_ack import AfterAck
from bot.deps import Deps
from bot.errors import error_handler
from bot.listeners import (
    buttons,
    cancel,
    candidates,
    commands,
    deposit,
    diary,
    edit,
    feed_links,
    free,
    home,
    ledger,
    modal,
    pings,
    pipeline,
    setup,
    takeout,
)
from bot.locales import UserLocales
from bot.setup_files import SLACK_FILES, FileFetcher
from bot.texts import DEFAULT_LOCALE, text
from bot.view_updates import ViewUpdates
from bot.workspaces import VenueResolver
from core.engine import HoldEngine
from core.exports.feed_tokens import FeedKey

# Listeners (up to their ack) run on Bolt's pool; Bolt's default of 5 would queue a burst.
LISTENER_THREADS = 16
AFTER_ACK_THREADS = 8  # posting and App Home; bounded so they never take every DB connection


class BotApp(App):
    """Bolt's App, knowing the signing secret the gate in front of it verifies with, and the
    pool its listeners hand their after-ack work to (``app.after.drain()`` waits for it)."""

    def __init__(self, *, signing_secret: str, after: AfterAck, **options: Any) -> None:
        super().__init__(signing_secret=signing_secret, **options)
        self.signing_secret = signing_secret
        self.after = after


def build_app(
    *,
    engine: HoldEngine,
    signing_secret: str,
    client: WebClient,
    venues: VenueResolver,
    now: Callable[[], datetime],
    on_notices: Callable[[str], None] = lambda venue_id: None,
    process_before_response: bool = False,
    oauth: OAuthSettings | None = None,
    authorize: Authorize | None = None,
    installer: Callable[[str | None, str | None], str | None] = lambda team, org: None,
    privacy_url: str | None = None,
    file_hosts: Sequence[str] = (SLACK_FILES,),
    feed_link: Callable[[FeedKey], str | None] = lambda feed: None,
    feed_issue: Callable[[FeedKey], str | None] = lambda feed: None,
) -> BotApp:
    """``on_notices(venue_id)`` is called after each confirm / release / extend that succeeded
    (they write outbox rows), so the jobs can drain the outbox right away; if it raises, the
    error is logged and the action still stands.

    With ``oauth`` (many workspaces), Bolt's OAuth flow installs the app, each request is
    authorized with its workspace's installation (refreshed when it expires), and
    ``app_uninstalled`` / ``tokens_revoked`` delete what was stored; ``client`` then carries
    no token, only the Web API's base URL every per-request client and token refresh use.
    """
    locales = UserLocales(client)
    on_error = error_handler(locales.get)
    deps = Deps(
        engine=engine,
        venues=venues,
        now=now,
        on_notices=on_notices,
        locales=locales,
        views=ViewUpdates(),
        after=AfterAck(on_error, AFTER_ACK_THREADS),
        installer=installer,
        privacy_url=privacy_url,
        fetch_file=FileFetcher(tuple(file_hosts)),
        feed_link=feed_link,
        feed_issue=feed_issue,
    )
    app = BotApp(
        signing_secret=signing_secret,
        after=deps.after,
        client=client,
        process_before_response=process_before_response,
        token_verification_enabled=False,
        listener_executor=ThreadPoolExecutor(LISTENER_THREADS, thread_name_prefix="osae-bot"),
        logger=logging.getLogger("osae.bolt"),
        **_installations(oauth, authorize),
    )
    _listen(app, deps, locales, many_workspaces=oauth is not None)
    app.error(on_error)
    return app


def _listen(app: BotApp, deps: Deps, locales: UserLocales, *, many_workspaces: bool) -> None:
    """Every surface's listeners, and what an uninstall does."""
    if many_workspaces:
        _per_workspace(app, locales)
    else:  # one bot token: nothing stored to delete; the operator sees it in the log
        app.event("app_uninstalled")(_logged)
        app.event("tokens_revoked")(_logged)
    surfaces = (commands, modal, buttons, candidates, cancel, home, edit, free, ledger, setup)
    later = (venue_choice, diary, takeout, feed_links, deposit)
    for surface in (*surfaces, *later, pipeline, pings):  # pipeline: i28-report; pings: i28-ping
        surface.register(app, deps)


def _installations(oauth: OAuthSettings | None, authorize: Authorize | None) -> dict[str, Any]:
    """Bolt's options for many workspaces: its OAuth flow and the installations it stores
    (none with one bot token)."""
    if oauth is None:
        return {}
    installations: dict[str, Any] = {
        "oauth_settings": oauth,
        "installation_store": oauth.installation_store,
        "user_facing_authorize_error_message": text(DEFAULT_LOCALE, "error.not_installed"),
    }
    if authorize is not None:  # refreshing through the process's one rotator
        installations["authorize"] = authorize
    return installations


def _per_workspace(app: App, locales: UserLocales) -> None:
    """What many workspaces add: uninstalls and revocations delete the stored tokens, and a
    user's language is asked with the token of the workspace they write from."""
    app.enable_token_revocation_listeners()

    def bind_locale(context: BoltContext, next: Callable[[], None]) -> None:
        if context.user_id and context.client is not None:
            locales.bind(context.user_id, context.client)
        next()

    app.use(bind_locale)


def _logged(event: dict[str, Any], context: BoltContext) -> None:
    logging.getLogger("osae.bot").warning(
        "slack.app_removed", extra={"event": event.get("type"), "team": context.team_id}
    )
