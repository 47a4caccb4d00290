"""The path of one /hold modal submission, from the WSGI app to the INSERT of the hold, frame
by frame (docs/architecture.md, "Walk 1").

Recorded at ``core.store.hold_writes.insert`` during a signed view_submission through the real
endpoint. Bolt runs a listener on its own pool unless it processes before responding, so the
path is the request thread's frames up to the hand-off, then the listener thread's.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.store import hold_writes
from tests.bot.conftest import Harness, values

ROOT = Path(__file__).resolve().parents[2]
ENTRY = "bot/gate.py __call__"  # the WSGI application waitress calls
MOST = 11
# The layers a submission passes, in order (a frame of each, at least).
LAYERS = ["bot/gate.py", "slack_bolt/", "bot/deps.py", "bot/listeners/modal.py",
          "core/roles/writes.py", "core/operations/request.py",
          "core/store/hold_writes.py"]  # fmt: skip


def frames() -> list[str]:
    """The stack of whoever called the caller, innermost last, as ``path function`` relative
    to the repository or to site-packages."""
    found = []
    for frame in traceback.extract_stack()[:-2]:
        name = frame.filename
        name = name.split("site-packages/")[-1] if "site-packages/" in name else name
        name = str(Path(name).relative_to(ROOT)) if name.startswith(str(ROOT)) else name
        found.append(f"{name} {frame.name}")
    return found


def from_entry(stack: list[str]) -> list[str]:
    return stack[stack.index(ENTRY) :]


@pytest.mark.parametrize("bot", [False, True], indirect=True, ids=["pooled", "in_request"])
def test_a_submission_reaches_the_insert_within_eleven_frames(
    bot: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    at_insert: list[list[str]] = []
    handed_over: list[list[str]] = []
    insert = hold_writes.insert

    def recording_insert(*args: Any, **kwargs: Any) -> Any:
        at_insert.append(frames())
        return insert(*args, **kwargs)

    view_id = bot.command()
    assert bot.app is not None
    pool = bot.app.listener_runner.listener_executor
    submit = pool.submit

    def recording_submit(work: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        handed_over.append(frames())
        return submit(work, *args, **kwargs)

    monkeypatch.setattr(hold_writes, "insert", recording_insert)
    monkeypatch.setattr(pool, "submit", recording_submit)
    status, answer = bot.submit(view_id, values())
    assert (status, answer) == (200, {})

    (stack,) = at_insert
    stack.append("core/store/hold_writes.py insert")
    if ENTRY in stack:  # processed before responding: one thread
        path = from_entry(stack)
    else:  # the request thread up to the hand-off, then the listener's from Bolt's runner on
        (request_thread,) = handed_over
        listener_thread = stack[next(i for i, f in enumerate(stack) if "slack_bolt/" in f) :]
        path = from_entry(request_thread) + listener_thread
    assert len(path) <= MOST, "\n".join(path)
    seen = iter(path)
    assert all(any(f.startswith(layer) for f in seen) for layer in LAYERS), "\n".join(path)
