"""The one error a command raises to stop: said as one line (or one JSON object)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class CommandError(Exception):
    """A command that cannot run; said as one line (or one JSON object), never a traceback.
    ``facts``: more fields of its JSON object (``field``, ``choices``)."""

    def __init__(
        self, code: str, message: str, exit_code: int = 3, facts: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.exit_code = exit_code
        self.facts = dict(facts or {})
