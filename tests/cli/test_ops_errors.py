"""What the machine refuses is one line and an exit code, never a traceback: a stdout on a
full disk under --json, `osae web` on a port already taken, a data folder osae cannot make."""

from __future__ import annotations

import json
import os
import socket
import subprocess
from pathlib import Path

from cli.localservices import free_port
from tests.cli.test_cli import OSAE, ROOT


def osae(
    *args: str, stdout: int | None = subprocess.PIPE, **env: str
) -> subprocess.CompletedProcess[str]:
    environ = {
        k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "OSAE_", "DATABASE_"))
    }
    environ.update({"LANG": "C.UTF-8", **env})
    return subprocess.run(
        [OSAE, *args], stdout=stdout, stderr=subprocess.PIPE, text=True, env=environ,
        cwd=ROOT, check=False, timeout=60,
    )  # fmt: skip


def test_a_full_stdout_under_json_is_one_json_line_on_stderr(fresh_db: str) -> None:
    with Path("/dev/full").open("w") as full:
        done = osae("db", "current", "--json", stdout=full.fileno(), DATABASE_URL=fresh_db)
    assert done.returncode == 3 and "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert json.loads(line)["code"] == "disk_full"
    with Path("/dev/full").open("w") as full:
        done = osae(
            "db", "current", stdout=full.fileno(), DATABASE_URL=fresh_db, LANG="ja_JP.UTF-8"
        )
    assert done.returncode == 3 and done.stderr.startswith("osae: ディスクがいっぱいです")


def test_osae_web_on_a_port_already_taken_says_so(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("0.0.0.0", 0))  # noqa: S104 - where `osae web` listens
        holder.listen()
        port = holder.getsockname()[1]
        done = osae(
            "web", PORT=str(port), SLACK_BOT_TOKEN="xoxb-x", SLACK_SIGNING_SECRET="s",
            DATABASE_URL="postgresql://postgres@127.0.0.1:1/none", REDIS_URL="redis://127.0.0.1:1/0",
        )  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert f"port {port} is in use" in done.stderr and "PORT=" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_data_folder_osae_cannot_make_is_one_line_and_nothing_started(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    for lang, said in (
        ("C.UTF-8", "cannot write to the data folder"),
        ("ja_JP.UTF-8", "書き込めません"),
    ):
        done = osae("serve", OSAE_DATA_DIR=str(blocked / "data"), PORT=str(free_port()), LANG=lang)
        assert done.returncode == 3, done.stderr
        assert said in done.stderr and "OSAE_DATA_DIR" in done.stderr
        assert "Traceback" not in done.stderr + done.stdout
    assert blocked.read_text() == "not a folder"
