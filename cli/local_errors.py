"""What the operating system refused (a folder osae may not write, a full disk), said as one
line in the terminal's language: what happened, and what to do."""

from __future__ import annotations

import errno
from pathlib import Path

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
