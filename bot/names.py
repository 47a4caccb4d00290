"""People by name for a picture: each salesperson's Slack display name (never a contact),
asked once per drawing with the workspace's client; on any trouble, the user id."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from slack_sdk import WebClient
from slack_sdk.errors import SlackClientError

log = logging.getLogger("osae.bot")


def display_names(client: WebClient, users: Iterable[str]) -> dict[str, str]:
    names: dict[str, str] = {}
    for user in sorted(set(users)):
        names[user] = _name(client, user) or user
    return names


def _name(client: WebClient, user: str) -> str | None:
    try:
        answer = client.users_info(user=user)
    except (SlackClientError, OSError) as err:  # a name is a courtesy: the picture stands
        log.warning("slack.name_lookup_failed", extra={"user": user, "error": str(err)})
        return None
    found = answer.get("user") or {}
    profile = found.get("profile") or {} if isinstance(found, dict) else {}
    for name in (profile.get("display_name"), profile.get("real_name"), found.get("real_name")):
        if isinstance(name, str) and name.strip():
            return name.strip()
    return None
