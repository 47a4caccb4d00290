"""/healthz names a worker or a clock that stopped beating: 503 while either is down, 200
once both beat, wherever they run (the heartbeats are in Redis)."""

from __future__ import annotations

import time

from cli import processes
from cli.bootstrap import Runtime
from jobs import heartbeat
from tests.jobs.conftest import eventually


def test_health_names_a_worker_and_a_clock_without_heartbeat(runtime: Runtime) -> None:
    ok, facts = runtime.health()
    assert not ok
    assert facts["database"] == "ok" and facts["redis"] == "ok"
    assert facts["worker"] == facts["clock"] == "down: no heartbeat"

    parts = processes.Parts()
    try:
        worker = processes.start_worker(runtime, parts)
        processes.start_clock(runtime, parts)
        eventually(lambda: runtime.health()[0], what="healthy once both beat")
        assert worker.alive()

        # A worker that died elsewhere: its last beat ages past STALE.
        stale = time.time() - heartbeat.STALE - 5
        key = heartbeat.key(runtime.settings.tuning.namespace, heartbeat.WORKER)
        parts.stop()  # no beats from here on
        runtime.broker.client.set(key, f"{stale:.3f}")
        ok, facts = runtime.health()
        assert not ok and facts["worker"].startswith("down: last heartbeat 1")
        assert facts["database"] == "ok"
    finally:
        parts.stop()
