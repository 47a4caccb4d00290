"""`osae serve` from nothing: its own PostgreSQL and Redis, the demo venue, a signed /hold;
and a second Ctrl-C that forces."""

from __future__ import annotations

import json
import signal
import time
import urllib.request
from pathlib import Path

from cli import localservices
from tests.jobs.conftest import eventually
from tests.jobs.processes import Child, alive, osae_env, servers
from tests.support.slack_requests import post, slash_command
from tests.support.slack_standin import SlackStandin

SECRET = "signing-secret-for-tests"
HEALTHY = {"ok": True, "database": "ok", "redis": "ok", "worker": "ok", "clock": "ok"}


def healthz(port: int) -> dict[str, object]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
        assert answer.status == 200
        return json.loads(answer.read())


def test_serve_starts_from_nothing_and_answers_a_signed_hold(
    slack: SlackStandin, data_dir: Path, tmp_path: Path
) -> None:
    data, port = data_dir, localservices.free_port()
    env = osae_env(
        OSAE_DATA_DIR=str(data),
        PORT=str(port),
        SLACK_BOT_TOKEN="xoxb-test",
        SLACK_API_URL=slack.base_url,
        SLACK_SIGNING_SECRET=SECRET,
    )
    serve = Child(["serve"], env, tmp_path / "logs")
    try:
        serve.wait_for_output("listening on", timeout=120)
        out = serve.output()
        assert "demo venue loaded" in out and f":{port}" in out
        assert healthz(port) == HEALTHY

        status, _, _ = post(f"http://127.0.0.1:{port}/slack/events", slash_command(), SECRET)
        assert status == 200
        slack.wait_for("views.open", 1, timeout=10)
        form = slack.wait_for("views.update", 1, timeout=10)[0]
        assert "鳳凰の間" in json.dumps(form.body["view"], ensure_ascii=False)  # the demo venue
        status, _, _ = post(
            f"http://127.0.0.1:{port}/slack/events", slash_command(), "not-the-secret"
        )
        assert status == 401

        assert serve.stop(signal.SIGINT) == 0, serve.output()[-2000:]
        pg_port = int((data / "pgport").read_text())
        assert not localservices.postgres_answers(f"postgresql://postgres@127.0.0.1:{pg_port}/osae")

        again = Child(["serve"], env, tmp_path / "logs")
        again.wait_for_output("listening on", timeout=60)
        assert "demo venue loaded" not in again.output()  # kept between runs
        assert healthz(port)["ok"] is True
        assert again.stop(signal.SIGTERM) == 0, again.output()[-2000:]
    finally:
        for child in (serve, locals().get("again")):
            if isinstance(child, Child) and child.proc.poll() is None:
                child.stop(signal.SIGINT)


def test_serve_with_slack_half_configured_explains_and_starts_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = osae_env(OSAE_DATA_DIR=str(data), SLACK_BOT_TOKEN="xoxb-test")
    serve = Child(["serve"], env, tmp_path / "logs")
    assert serve.proc.wait(30) == 2
    said = serve.output()
    for needed in ("SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "manifest.yml", "Socket Mode"):
        assert needed in said
    assert "unset every SLACK_ variable" in said, "says how to run without Slack instead"
    assert not data.exists(), "nothing is started half-way"


def test_ctrl_c_while_starting_stops_cleanly_and_a_second_one_forces(
    data_dir: Path, tmp_path: Path
) -> None:
    env = osae_env(OSAE_DATA_DIR=str(data_dir), PORT=str(localservices.free_port()))
    # Ctrl-C at several moments of a start: as PostgreSQL is up (migrations next), as Redis
    # is (the runtime and the demo venue next), and again on the folder those runs left.
    for moment in ("osae: PostgreSQL", "osae: Redis", "osae: PostgreSQL"):
        starting = Child(["serve"], env, tmp_path / "logs")
        starting.wait_for_output(moment, timeout=120)
        started = servers(data_dir, starting.proc.pid)
        assert starting.stop(signal.SIGINT) == 0, starting.output()[-2000:]
        said, errors = starting.out.read_text(), starting.err.read_text()
        assert said.rstrip().endswith("osae: stopped"), said[-1000:]
        assert "Warning" not in errors and "Traceback" not in errors, errors[-2000:]
        left = [pid for pid in started if alive(pid)]
        eventually(lambda left=left: not [pid for pid in left if alive(pid)], what="gone")

    forced = Child(["serve"], env, tmp_path / "logs")
    forced.wait_for_output("Ctrl-C stops everything", timeout=60)
    started = servers(data_dir, forced.proc.pid)
    forced.proc.send_signal(signal.SIGINT)
    time.sleep(0.05)  # the clean stop has begun: the worker waits for its jobs
    assert forced.stop(signal.SIGINT) == 130, forced.output()[-2000:]
    said = forced.output()
    assert "osae: forced stop" in said and "Traceback" not in said
    eventually(lambda: not any(alive(pid) for pid in started), what="servers gone")
