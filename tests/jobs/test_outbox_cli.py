"""`osae outbox list|retry`: failed rows are shown with their error and can be sent again."""

from __future__ import annotations

import json

import pytest

from cli.bootstrap import Runtime
from cli.main import main
from core.model import Venue
from tests.jobs.conftest import MovingClock
from tests.jobs.scenarios import SECOND, dms_to, promote, rows
from tests.support.slack_standin import SlackStandin


def osae(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main([*args, "--json"])
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1, out
    return code, json.loads(out[0])


def test_failed_notices_are_listed_and_requeued(
    runtime: Runtime,
    venue: Venue,
    slack: SlackStandin,
    clock: MovingClock,
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DATABASE_URL", db_url)
    monkeypatch.delenv("REDIS_URL", raising=False)
    promote(runtime.engine, venue, clock())
    slack.fail_next("chat.postMessage", "account_inactive")
    runtime.courier().drain(venue.id)

    code, listed = osae(capsys, "outbox", "list", "--status", "failed", "--venue", venue.id)
    assert code == 0
    (failed,) = listed["notices"]  # type: ignore[misc]
    assert failed["last_error"] == "account_inactive" and failed["recipient"] == SECOND

    code, retried = osae(
        capsys, "outbox", "retry", str(failed["id"]), "999999", "--venue", venue.id
    )
    assert code == 0
    assert retried["requeued"] == [failed["id"]] and retried["not_failed"] == [999999]
    assert retried["woken"] is False  # no REDIS_URL here: the safety-net drain sends it
    assert [n.id for n in rows(runtime.engine, venue, "pending")] == [failed["id"]]

    runtime.courier().drain(venue.id)
    assert [n.id for n in rows(runtime.engine, venue, "sent")] == [failed["id"]]
    assert [c.ok for c in dms_to(slack, SECOND)] == [False, True]
    code, listed = osae(capsys, "outbox", "list", "--status", "failed", "--venue", venue.id)
    assert listed["notices"] == []
