"""What the operating system refused (a folder osae may not write, a full disk), said as one
line in the terminal's language: what happened, and what to do."""

from __future__ import annotations

import errno
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sqlalchemy.exc import DBAPIError

from cli import ops_texts

FULL = {errno.ENOSPC, errno.EDQUOT}


def describe(err: OSError, data_dir: Path | None = None) -> str:
    reason = err.strerror or type(err).__name__
    where = err.filename
    if err.errno in FULL:
        return ops_texts.say("disk.full", reason=_with_file(reason, where))
    if data_dir is not None and _inside(where, data_dir):
        return ops_texts.say("data.unwritable", folder=data_dir.resolve(), reason=reason)
    return ops_texts.say("os.error", reason=_with_file(reason, where))


def _with_file(reason: str, where: object) -> str:
    return f"{reason}: {where}" if where else reason


def _inside(where: object, data_dir: Path) -> bool:
    if not where:
        return True  # no file named: the folder osae was about to use
    folder = data_dir.resolve()
    path = Path(str(where)).resolve()
    return path == folder or folder in path.parents or path in folder.parents


def report(err: OSError | DBAPIError, as_json: bool, data_dir: Path) -> int:
    """Say ``err`` as one line (or one JSON object) and return the exit code; re-raise what
    is not ours to explain (a database error other than PostgreSQL's "insufficient
    resources", class 53: a full disk, out of memory, too many connections)."""
    if isinstance(err, DBAPIError):
        state = str(getattr(err.orig, "sqlstate", "") or "")
        if not state.startswith("53"):
            raise err
        first = str(err.orig).strip().splitlines()
        code, message = (
            "database_full",
            ops_texts.say("db.full", reason=first[0] if first else state),
        )
    else:
        code = "disk_full" if err.errno in FULL else "os_error"
        message = describe(err, data_dir)
    say_error(as_json, code, message)
    return 3


def say_error(
    as_json: bool, code: str, message: str, facts: Mapping[str, Any] | None = None
) -> None:
    """A command's error as ``cli.context.emit_error`` says it, also when stdout is a full
    disk (/dev/full, a file on a full file system): then on stderr, and nothing after."""
    said = {"ok": False, "code": code, "message": message, **(facts or {})}
    line = json.dumps(said, ensure_ascii=False)
    try:
        print(line if as_json else f"osae: {message}", file=sys.stdout if as_json else sys.stderr)
        sys.stdout.flush()
    except OSError:  # stdout is what is full: the line goes where it can
        print(line if as_json else f"osae: {message}", file=sys.stderr)
        # What stdout still buffers would fail again at exit, with a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
