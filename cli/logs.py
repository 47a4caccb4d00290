"""Structured logs: one JSON object a line, with the fields a log call passes as ``extra``.

log.info("hold.confirm", extra={"venue": v, "hold_id": 12, "action": "confirm",
                                "outcome": "ok"})
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

from core.errors import DatabaseUnavailable

# Attributes every LogRecord has; anything else on a record came from ``extra``.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "at": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        entry.update({k: v for k, v in record.__dict__.items() if k not in _STANDARD})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class OutageShort(logging.Filter):
    """A job that failed because the database is away (being restarted, down) is one line
    with the reason, not a traceback: Dramatiq retries it, and the outage is said anyway."""

    def filter(self, record: logging.LogRecord) -> bool:
        err = record.exc_info[1] if record.exc_info else None
        while err is not None and not isinstance(err, DatabaseUnavailable):
            err = err.__cause__ or err.__context__
        if isinstance(err, DatabaseUnavailable):
            record.msg = f"{record.getMessage()} (database unavailable: {err.reason})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


def configure(fmt: str = "json", level: int = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(OutageShort())
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
