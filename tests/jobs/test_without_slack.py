"""`python3 dev.py run` as a newcomer without a Slack app runs it: its own PostgreSQL and Redis
(after a crashed run), two holds and a lapse through the CLI, the promotion printed in the
first terminal, one Ctrl-C, and nothing left running."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.texts import text
from cli import localservices
from jobs.console import plain
from tests.jobs.processes import DEV_PY, OSAE, Child, alive, osae_env, servers
from tests.jobs.test_serve import HEALTHY, healthz

FIRST, SECOND = "U0SALES001", "U0SALES002"  # the demo venue's salespeople in the tour
NAMES = {FIRST: "田中", SECOND: "高橋"}  # as its [[staff]] names them: the console's heads


def osae(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*OSAE, *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def answer(env: dict[str, str], *args: str) -> dict[str, Any]:
    done = osae(env, *args, "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    parsed: dict[str, Any] = json.loads(done.stdout)
    return parsed


def crashed_run(data: Path) -> socket.socket:
    """What a killed run leaves: its pid file, and a saved port another program now holds."""
    data.mkdir(parents=True)
    gone = subprocess.Popen(["true"])
    gone.wait()
    (data / "serve.pid").write_text(str(gone.pid))
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    (data / "pgport").write_text(str(holder.getsockname()[1]))
    return holder


def test_run_without_slack_prints_the_promotion_and_one_ctrl_c_stops_everything(
    data_dir: Path, tmp_path: Path
) -> None:
    data, port = data_dir, localservices.free_port()
    holder = crashed_run(data)
    env = osae_env(
        OSAE_DATA_DIR=str(data),
        PORT=str(port),
        LANG="C.UTF-8",
        OSAE_CONSOLE_LANGS=f"{SECOND}=ja",
    )
    serve = Child(["run"], env, tmp_path / "logs", program=DEV_PY)
    try:
        serve.wait_for_output("says where each value is found", timeout=120)  # all printed
        said = serve.output()
        assert "did not stop cleanly" in said
        assert f"port {holder.getsockname()[1]} (used last time) is taken" in said
        assert "Try it from a second terminal" in said and "python3 dev.py osae hold" in said
        # the terminal reads English, the channel's cards Japanese: said once, with why
        assert "Cards print in the sales channel's language (ja, set by OSAE_LANG)" in said
        assert "Socket Mode: SLACK_BOT_TOKEN=" in said and "SLACK_SIGNING_SECRET=" in said
        assert healthz(port) == HEALTHY

        again = osae({**env, "PORT": str(localservices.free_port())}, "serve")
        assert again.returncode == 3 and "already running" in again.stderr, again.stderr

        now = datetime.now(UTC)
        hold = ["hold", "request", "--room", "hoo", "--start", "11:00", "--end", "15:00"]
        hold += ["--date", (now + timedelta(days=60)).date().isoformat(), "--kind", "wedding"]
        # time for both requests first (each a CLI process: seconds on a busy machine)
        lapses = now + timedelta(seconds=15)
        first = answer(env, *hold, "--customer", "山田様", "--salesperson", FIRST,
                       "--now", (lapses - timedelta(days=7)).isoformat())  # fmt: skip
        second = answer(env, *hold, "--customer", "佐藤様", "--salesperson", SECOND)
        assert (first["rank"], second["rank"]) == (1, 2)
        time.sleep(max(0.0, (lapses - datetime.now(UTC)).total_seconds()) + 0.5)
        answer(env, "sweep")  # the clock's own minute sweep may come first: either promotes
        promoted = answer(env, "hold", "show", str(second["id"]))["hold"]
        assert promoted["rank"] == 1 and promoted["expires_at"]

        serve.wait_for_output(
            f"Slack DM → {NAMES[SECOND]} (promotion, hold #{second['id']}", timeout=30
        )
        printed = serve.output()
        block = printed[printed.index(f"Slack DM → {NAMES[SECOND]} (promotion") :]
        assert plain(text("ja", "notice.promoted.title")) in block, "in SECOND's language"
        assert f"[ {text('ja', 'button.confirm')} ]" in block
        assert f"python3 dev.py osae hold confirm {second['id']} --actor {SECOND}" in block
        expired = printed[printed.index(f"Slack DM → {NAMES[FIRST]} (expiry") :]
        assert plain(text("en", "notice.expired.title")) in expired.split("╰─")[0]
        # its card, redrawn 1st, in the channel's language: its salesperson presses its buttons
        card_head = f"Slack card redrawn → console (hold #{second['id']}"
        serve.wait_for_output("1番手 に繰り上げ · 期限 ", timeout=30)  # the line after it
        printed = serve.output()
        card = printed[printed.rindex(card_head) :].split("╰─")[0]
        confirm = f"python3 dev.py osae hold confirm {second['id']} --actor {SECOND}"
        assert f"{text('ja', 'button.confirm')}: {confirm}" in card
        assert f"--enquiry {second['enquiry']} --date YYYY-MM-DD --room hoo" in card
        assert "--actor console" not in printed

        started = servers(data, serve.proc.pid)
        assert len(started) >= 3
        assert serve.stop(signal.SIGINT) == 0, serve.output()[-2000:]
        said = serve.output()
        assert said.rstrip().endswith("osae: stopped") and "Traceback" not in said
        assert [pid for pid in started if alive(pid)] == []
        assert not (data / "serve.pid").exists()

        stopped = osae(env, "hold", "list")
        assert stopped.returncode == 3 and "Traceback" not in stopped.stderr
        assert "is not running" in stopped.stderr and "osae serve" in stopped.stderr
    finally:
        holder.close()
        if serve.proc.poll() is None:
            serve.stop(signal.SIGINT)
