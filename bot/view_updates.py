"""``views.update`` for the live preview, so that an older preview never overwrites a newer one.

Each update names the view's hash from the action payload; Slack refuses it (``hash_conflict``)
if the view changed since. That is expected and harmless, with one case worth a retry: the
view changed because *our* update for an earlier action landed after this click was made.
This click's state is newer, so it goes again with the hash that update got back. A view
closed meanwhile (``not_found``) is left alone as well.
"""

from __future__ import annotations

import logging
import threading
import zlib
from collections import OrderedDict
from typing import Any, NamedTuple

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

log = logging.getLogger("osae.bot")
STRIPES = 64


class _Landed(NamedTuple):
    stamp: float  # action_ts of the state the update was built from
    hash: str


class ViewUpdates:
    """Remembers, per open modal, the newest update this process made (bounded, LRU)."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._landed: OrderedDict[str, _Landed] = OrderedDict()
        self._lock = threading.Lock()
        self._stripes = [threading.Lock() for _ in range(STRIPES)]

    def update(
        self,
        client: WebClient,
        *,
        view_id: str,
        view: dict[str, Any],
        hash: str | None,
        stamp: float,
    ) -> bool:
        """Update ``view_id`` built from the state at ``stamp``; False if it was left alone."""
        with self._stripes[zlib.crc32(view_id.encode()) % STRIPES]:  # one update per modal
            last = self._get(view_id)
            if last is not None and last.stamp > stamp:
                return False  # built from an older state than what is already shown
            try:
                answer = client.views_update(view_id=view_id, hash=hash, view=view)
            except SlackApiError as err:
                if err.response.get("error") == "not_found":
                    return False  # closed or submitted meanwhile: nothing left to update
                if err.response.get("error") != "hash_conflict":
                    raise
                if last is None or last.hash == hash:
                    log.info("slack.view_stale", extra={"view_id": view_id})
                    return False
                try:  # changed by our own earlier update: this state is newer, go again
                    answer = client.views_update(view_id=view_id, hash=last.hash, view=view)
                except SlackApiError as again:
                    if again.response.get("error") != "hash_conflict":
                        raise
                    log.info("slack.view_stale", extra={"view_id": view_id})
                    return False
            self._put(view_id, _Landed(stamp, str(answer["view"]["hash"])))
            return True

    def _get(self, view_id: str) -> _Landed | None:
        with self._lock:
            return self._landed.get(view_id)

    def _put(self, view_id: str, landed: _Landed) -> None:
        with self._lock:
            self._landed[view_id] = landed
            self._landed.move_to_end(view_id)
            while len(self._landed) > self.size:
                self._landed.popitem(last=False)
