"""What the Slack stand-in does for an app installed by many workspaces: the installer's
"Allow" (``approve``), ``oauth.v2.access`` (a code for tokens, and token rotation's
``grant_type=refresh_token``), ``auth.test`` for each token, ``apps.uninstall``; and which
tokens authenticate now (a rotated token expires on the real clock).

Answers are shaped as Slack's: https://api.slack.com/methods/oauth.v2.access and
https://api.slack.com/authentication/rotation.
"""

from __future__ import annotations

import base64
import itertools
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.support.slack_workspace import APP_ID

CLIENT_ID = "1111111111.2222222222"
CLIENT_SECRET = "standin-client-secret"
LIFETIME = 12 * 3600.0  # seconds a rotated token lives (Slack's)
SCOPE = "commands,chat:write,users:read,im:write,channels:read,groups:read,files:write"


@dataclass
class Grant:
    """One workspace's (or org's) installation as Slack keeps it."""

    team_id: str | None  # None for an org-wide install
    team_name: str
    enterprise_id: str | None
    installer: str
    bot_user_id: str
    bot_id: str
    tokens: dict[str, float] = field(default_factory=dict)  # access token -> expires at
    refresh_token: str = ""
    revoked: bool = False

    @property
    def org_wide(self) -> bool:
        return self.team_id is None


class Installs:
    """The stand-in's installations. ``lifetime``: seconds the next token issued lives
    (settable between steps of a test); ``clock``: the real clock (time.time)."""

    def __init__(
        self,
        client_id: str = CLIENT_ID,
        client_secret: str = CLIENT_SECRET,
        *,
        lifetime: float = LIFETIME,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.lifetime = lifetime
        self._clock = clock
        self._lock = threading.RLock()
        self._codes: dict[str, Grant] = {}
        self._grants: list[Grant] = []
        self._seq = itertools.count(1)

    # -- what a person does in the browser ---------------------------------------------------
    def approve(
        self,
        team_id: str | None,
        *,
        installer: str,
        team_name: str = "",
        enterprise_id: str | None = None,
    ) -> str:
        """The installer clicked Allow: the code Slack puts on the redirect URL."""
        with self._lock:
            grant = self._grant(team_id, enterprise_id)
            if grant is None:
                n = next(self._seq)
                grant = Grant(
                    team_id,
                    team_name or (team_id or enterprise_id or ""),
                    enterprise_id,
                    installer,
                    bot_user_id=f"U0BOT{n:04d}",
                    bot_id=f"B0BOT{n:04d}",
                )
                self._grants.append(grant)
            grant.revoked, grant.installer = False, installer
            code = f"code-{secrets.token_hex(8)}"
            self._codes[code] = grant
            return code

    # -- what the app's calls meet ------------------------------------------------------------
    def refusal(self, token: str) -> str | None:
        """Why ``token`` does not authenticate (None: it does), or "unknown" if it is not one
        of these."""
        with self._lock:
            for grant in self._grants:
                if token in grant.tokens:
                    if grant.revoked:
                        return "token_revoked"
                    if grant.tokens[token] <= self._clock():
                        return "token_expired"
                    return None
        return "unknown"

    def grant_of(self, token: str) -> Grant | None:
        with self._lock:
            return next((g for g in self._grants if token in g.tokens), None)

    def oauth_v2_access(self, headers: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
        """A code for a bot token (and a refresh token), or a refresh token for a new one."""
        if not self._client_ok(headers, body):
            return {"ok": False, "error": "invalid_client_id"}
        with self._lock:
            if body.get("grant_type") == "refresh_token":
                grant = next(
                    (g for g in self._grants if g.refresh_token == body.get("refresh_token")),
                    None,
                )
                if grant is None or grant.revoked:
                    return {"ok": False, "error": "invalid_refresh_token"}
            else:
                grant = self._codes.pop(str(body.get("code") or ""), None)
                if grant is None:
                    return {"ok": False, "error": "invalid_code"}
            return self._issue(grant)

    def auth_test(self, token: str) -> dict[str, Any]:
        grant = self.grant_of(token)
        assert grant is not None
        return {
            "ok": True,
            "url": f"https://{grant.team_name}.slack.com/",
            "team": grant.team_name,
            "user": "osae",
            "team_id": grant.team_id or grant.enterprise_id,
            "user_id": grant.bot_user_id,
            "bot_id": grant.bot_id,
            "enterprise_id": grant.enterprise_id,
            "is_enterprise_install": grant.org_wide,
        }

    def uninstall(self, token: str, body: dict[str, Any]) -> dict[str, Any]:
        """apps.uninstall: every token of the workspace stops working at once."""
        if not self._client_ok({}, body):
            return {"ok": False, "error": "invalid_client_id"}
        grant = self.grant_of(token)
        assert grant is not None
        with self._lock:
            grant.revoked = True
        return {"ok": True}

    def tokens_of(self, team_id: str) -> list[str]:
        """Every access token issued to the workspace, oldest first."""
        with self._lock:
            grant = self._grant(team_id, None)
            return list(grant.tokens) if grant else []

    # -- inside ------------------------------------------------------------------------------
    def _issue(self, grant: Grant) -> dict[str, Any]:
        n = next(self._seq)
        key = grant.team_id or grant.enterprise_id
        token = f"xoxe.xoxb-1-{key}-{n}-{secrets.token_hex(6)}"
        grant.tokens[token] = self._clock() + self.lifetime
        grant.refresh_token = f"xoxe-1-{key}-{n}-{secrets.token_hex(6)}"
        team = None if grant.org_wide else {"id": grant.team_id, "name": grant.team_name}
        enterprise = {"id": grant.enterprise_id, "name": grant.enterprise_id}
        return {
            "ok": True,
            "access_token": token,
            "token_type": "bot",
            "scope": SCOPE,
            "bot_user_id": grant.bot_user_id,
            "app_id": APP_ID,
            "team": team,
            "enterprise": enterprise if grant.enterprise_id else None,
            "is_enterprise_install": grant.org_wide,
            "authed_user": {"id": grant.installer},
            "refresh_token": grant.refresh_token,
            "expires_in": int(self.lifetime),
        }

    def _grant(self, team_id: str | None, enterprise_id: str | None) -> Grant | None:
        for grant in self._grants:
            if team_id is not None and grant.team_id == team_id:
                return grant
            if team_id is None and grant.org_wide and grant.enterprise_id == enterprise_id:
                return grant
        return None

    def _client_ok(self, headers: dict[str, str], body: dict[str, Any]) -> bool:
        """The app's credentials: HTTP Basic (as slack_sdk sends them) or in the body."""
        basic = next((v for k, v in headers.items() if k.lower() == "authorization"), "")
        if basic.startswith("Basic "):
            pair = base64.b64decode(basic.removeprefix("Basic ")).decode()
            client_id, _, secret = pair.partition(":")
        else:
            client_id, secret = str(body.get("client_id")), str(body.get("client_secret"))
        return client_id == self.client_id and secret == self.client_secret
