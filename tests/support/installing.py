"""Add to Slack as a browser does it: open the app's /slack/install, follow its link to Slack
(the stand-in's installer clicks Allow), come back to /slack/oauth_redirect with the code,
the state and the state's cookie."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from html import unescape
from urllib.parse import parse_qs, urlencode, urlsplit

from tests.support.slack_standin import SlackStandin

_HREF = re.compile(r'href="(https://slack\.com/oauth/v2/authorize\?[^"]+)"')


@dataclass(frozen=True)
class Page:
    status: int
    headers: dict[str, str]
    text: str


def get(url: str, *, cookie: str | None = None) -> Page:
    request = urllib.request.Request(url, method="GET")  # noqa: S310 - a local test server
    if cookie:
        request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:  # noqa: S310
            return Page(answer.status, dict(answer.headers.items()), answer.read().decode())
    except urllib.error.HTTPError as err:
        return Page(err.code, dict(err.headers.items()), err.read().decode())


@dataclass(frozen=True)
class Installed:
    install_page: Page  # what the installer saw first
    authorize_url: str  # where its button led (Slack's consent screen)
    finished: Page  # what /slack/oauth_redirect answered


def install(
    app_url: str,
    slack: SlackStandin,
    team_id: str | None,
    *,
    installer: str,
    enterprise_id: str | None = None,
) -> Installed:
    page = get(f"{app_url}/slack/install")
    assert page.status == 200, page
    found = _HREF.search(page.text)
    assert found is not None, page.text
    authorize_url = unescape(found.group(1))
    state = parse_qs(urlsplit(authorize_url).query)["state"][0]
    cookie = page.headers.get("Set-Cookie", "").split(";", 1)[0]
    code = slack.installs.approve(team_id, installer=installer, enterprise_id=enterprise_id)
    query = urlencode({"code": code, "state": state})
    finished = get(f"{app_url}/slack/oauth_redirect?{query}", cookie=cookie)
    return Installed(page, authorize_url, finished)
