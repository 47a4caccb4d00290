"""People by name: each salesperson's Slack display name (never a contact), asked with the
workspace's client only when the database's cache has none younger than a day, and cached
there for the terminal too (``core.operations.staff_names``); on any trouble, the user id."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime

from slack_sdk import WebClient
from slack_sdk.errors import SlackClientError

from bot.locales import UserLocales, display_name
from core.engine import HoldEngine

log = logging.getLogger("osae.bot")


def cached_names(
    engine: HoldEngine, client: WebClient, venue_id: str, users: Iterable[str], now: datetime
) -> dict[str, str]:
    """Every one of ``users`` by name: the cache's (or [[staff]]'s), Slack asked only for
    those it has none fresh of, what Slack answers cached; an unknown person's id."""
    wanted = frozenset(users)
    found: dict[str, str] = {}
    for user in sorted(engine.reads.stale_names(venue_id, wanted, now=now)):
        name = _name(client, user)
        if name is not None:
            found[user] = name
    if found:
        engine.writes.remember_names(venue_id, found, now=now)
    known = {**engine.reads.names(venue_id), **found}
    return {user: known.get(user) or user for user in wanted}


def _name(client: WebClient, user: str) -> str | None:
    try:
        answer = client.users_info(user=user)
    except (SlackClientError, OSError) as err:  # a name is a courtesy: the picture stands
        log.warning("slack.name_lookup_failed", extra={"user": user, "error": str(err)})
        return None
    return display_name(answer.get("user"))


def remember_seen(
    engine: HoldEngine, locales: UserLocales, venue_id: str, users: Iterable[str], now: datetime
) -> None:
    """Cache the names Slack gave with these people's languages (asked anyway, to speak to
    them: App Home opened, a button pressed, a form sent), so the terminal and the pictures
    name them; a write only when a name is new or a day old in this process."""
    found = locales.new_names(u for u in users if u)
    if found:
        engine.writes.remember_names(venue_id, found, now=now)  # a venue gone: Refused, fine
