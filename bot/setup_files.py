"""A venue file uploaded in Slack (the venue-file modal's ``file_input``), fetched with the
workspace's token from Slack's file host only: the URL comes in a payload, and a token must
never go anywhere else."""

from __future__ import annotations

import logging
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass

MAX_FILE_BYTES = 256 * 1024  # a venue file of a thousand rooms is far smaller
SLACK_FILES = "https://files.slack.com/"

log = logging.getLogger("osae.bot")


class NotFetched(Exception):
    """Why the file could not be read (a reason code: ``not_slack``, ``too_large``, ...)."""


@dataclass(frozen=True)
class FileFetcher:
    """``fetch(url, token) -> text``; raises ``NotFetched``. ``hosts``: the URL prefixes a
    file may come from (Slack's, and a stand-in's in tests)."""

    hosts: Sequence[str] = (SLACK_FILES,)
    timeout: float = 10.0

    def __call__(self, url: str, token: str | None) -> str:
        if not any(url.startswith(host) for host in self.hosts) or not token:
            raise NotFetched("not_slack")
        request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})  # noqa: S310 - a Slack host, checked above
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:  # noqa: S310
                data: bytes = answer.read(MAX_FILE_BYTES + 1)
        except (urllib.error.URLError, OSError) as err:
            log.warning("slack.file_fetch_failed", extra={"error": repr(err)})
            raise NotFetched("unreachable") from None
        if len(data) > MAX_FILE_BYTES:
            raise NotFetched("too_large")
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise NotFetched("not_utf8") from None
