"""The one error a command raises to stop: said as one line (or one JSON object)."""

from __future__ import annotations


class CommandError(Exception):
    """A command that cannot run; said as one line (or one JSON object), never a traceback."""

    def __init__(self, code: str, message: str, exit_code: int = 3) -> None:
        super().__init__(message)
        self.code = code
        self.exit_code = exit_code
