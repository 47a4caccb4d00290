"""A test run on a machine without PostgreSQL or Redis starts its own, and removes them, data
and all, when it ends."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cli import server_account

REPO = Path(__file__).resolve().parents[1]
A_TEST_WITH_BOTH = "tests/jobs/test_console.py::test_a_terminal_that_fails_is_retried_like_slack"


def clusters() -> set[str]:
    """Clusters that root placed apart (its test folders are out of the account's reach)."""
    folder = server_account.HOME / "clusters"
    return {p.name for p in folder.iterdir()} if folder.exists() else set()


def processes_mentioning(text: str) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if entry.name.isdigit() and text in command:
            found.append(command)
    return found


def test_a_run_with_throwaway_servers_leaves_nothing_behind(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"  # where the run's throwaway servers keep their data
    temp.mkdir()
    before = clusters()
    env = {
        **os.environ,
        "OSAE_TEST_PG": "throwaway",
        "OSAE_TEST_REDIS": "throwaway",
        "TMPDIR": str(temp),
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", A_TEST_WITH_BOTH],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "1 passed" in done.stdout
    assert [p.name for p in temp.iterdir()] == [], "PostgreSQL's and Redis's folders removed"
    assert clusters() <= before
    assert processes_mentioning(str(temp)) == []
