"""/healthz names a worker or a clock that stopped beating: 503 while either is down, 200
once both beat, wherever they run (the heartbeats are in Redis)."""

from __future__ import annotations

import re
import time

from cli import ops_texts, processes
from cli.bootstrap import Runtime
from cli.supervisor import Supervisor, Watched
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
        key = heartbeat.key(runtime.settings.tuning.namespace, heartbeat.WORKER)
        parts.stop()  # no beats from here on (stopping may take seconds on a busy machine)
        stale = time.time() - heartbeat.STALE - 5
        runtime.broker.client.set(key, f"{stale:.3f}")
        ok, facts = runtime.health()
        age = re.fullmatch(r"down: last heartbeat (\d+)s ago", facts["worker"])
        assert not ok and age is not None and int(age.group(1)) >= heartbeat.STALE + 5
        assert facts["database"] == "ok"
    finally:
        parts.stop()


def test_a_worker_whose_threads_died_is_started_again_and_beats(runtime: Runtime) -> None:
    parts = processes.Parts()
    said: list[str] = []
    try:
        worker = processes.start_worker(runtime, parts)
        watched = [Watched("part.worker", worker.alive, worker.restart)]
        supervisor = Supervisor(watched, said.append, command="osae serve").start()
        parts.add("supervisor", supervisor.stop)
        assert worker.worker is not None
        dead = worker.worker
        dead.stop(timeout=5_000)  # its threads end, as if they had died
        eventually(lambda: len(said) == 2, what="restarted")
        assert worker.worker is not dead and worker.alive()
        part = ops_texts.say("part.worker")
        assert said[0] == ops_texts.say("part.died", part=part)
        assert said[1].startswith(ops_texts.say("part.back", part=part, seconds=0)[:-8])
        eventually(lambda: runtime.health()[1]["worker"] == "ok", what="beats again")
    finally:
        parts.stop()


def test_a_clock_that_stopped_is_started_again(runtime: Runtime) -> None:
    parts = processes.Parts()
    said: list[str] = []
    try:
        clock = processes.start_clock(runtime, parts)
        watched = [Watched("part.clock", clock.alive, clock.restart)]
        supervisor = Supervisor(watched, said.append, command="osae serve").start()
        parts.add("supervisor", supervisor.stop)
        assert clock.clock is not None
        dead = clock.clock
        dead.stop()  # its scheduler's thread ends, as if it had died
        eventually(lambda: len(said) == 2, what="restarted")
        assert clock.clock is not dead and clock.alive()
        assert said[0] == ops_texts.say("part.died", part=ops_texts.say("part.clock"))
    finally:
        parts.stop()
