"""`osae serve` from nothing: its own PostgreSQL and Redis, the demo venue, a signed /hold."""

from __future__ import annotations

import json
import shutil
import signal
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli import localservices
from tests.jobs.processes import Child, osae_env
from tests.support.slack_requests import post, slash_command
from tests.support.slack_standin import SlackStandin

SECRET = "signing-secret-for-tests"


def healthz(port: int) -> dict[str, object]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
        assert answer.status == 200
        return json.loads(answer.read())


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """Under /tmp itself: as root, PostgreSQL runs as nobody, who cannot enter pytest's
    private tmp_path."""
    parent = Path(tempfile.mkdtemp(prefix="osae-serve-"))
    parent.chmod(0o755)
    yield parent / "data"
    shutil.rmtree(parent, ignore_errors=True)


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
        assert healthz(port) == {"ok": True, "database": "ok", "redis": "ok"}

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


def test_serve_without_slack_credentials_explains_and_starts_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    serve = Child(["serve"], osae_env(OSAE_DATA_DIR=str(data)), tmp_path / "logs")
    assert serve.proc.wait(30) == 2
    said = serve.output()
    for needed in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "manifest.yml"):
        assert needed in said
    assert "Socket Mode" in said
    assert not data.exists(), "nothing is started half-way"
